#pragma once
// report.html: one self-contained page per report (and compare.html per comparison), drawn by
// reports/plots/report_html.py with Plotly (its JavaScript inlined) from report.page, the page's
// data as JSON beside report.md (page_data.hpp; not named *.json: the report often lies inside the
// results it reads, and every *.json there is read as a result file). Python is found at run time;
// without a python3 that imports plotly the report goes on without the page and says so.
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "reports/python.hpp"

namespace gcbench::reports {

using PageSetup = PythonScript;  // report_html.py, run by a Python that imports plotly

struct PageOutcome {
  std::string note;     // why there is no page, or how drawing it failed ("" when written)
  bool failed = false;  // the script ran and failed
};

// Writes `data` to <report_dir>/<stem>.page, removes an earlier <stem>.html, and draws a new
// one (stem "compare": gcbench-report --compare's page, data of kind "compare").
PageOutcome write_page(const PageSetup& setup, const std::filesystem::path& report_dir,
                       const nlohmann::json& data, const std::string& stem = "report");

}  // namespace gcbench::reports
