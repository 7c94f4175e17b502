#include "reports/page.hpp"

#include <fmt/format.h>

#include "reports/python.hpp"
#include "src/results/result_files.hpp"

namespace gcbench::reports {
namespace fs = std::filesystem;

PageOutcome write_page(const PageSetup& setup, const fs::path& report_dir,
                       const nlohmann::json& data, const std::string& stem) {
  const fs::path page = report_dir / (stem + ".html"), page_data = report_dir / (stem + ".page");
  fs::remove(page);
  // Bytes that are not UTF-8 in a name are replaced rather than ending the page.
  results::write_file_atomically(
      page_data, data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  PageOutcome outcome;
  const auto python = find_python_with(setup.pythons, "plotly");
  if (!python) {
    outcome.note = fmt::format(
        "no {}.html: no Python with plotly (tried {}; Debian: apt-get install python3-plotly)",
        stem, fmt::join(setup.pythons, ", "));
    return outcome;
  }
  if (!fs::exists(setup.script)) {
    outcome.note = "no " + stem + ".html: the page script " + setup.script.string() + " is missing";
    outcome.failed = true;
    return outcome;
  }
  const int status =
      run_program({*python, setup.script.string(), report_dir.string(), stem}, false);
  if (status != 0 || !fs::exists(page)) {
    outcome.note = fmt::format("{}.html failed: {} {} exited with status {}", stem, *python,
                               setup.script.string(), status);
    outcome.failed = true;
  }
  return outcome;
}

}  // namespace gcbench::reports
