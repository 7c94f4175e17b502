#pragma once
// Writes a whole report: per corpus, every table as Markdown, CSV and LaTeX, SVG plots, and an
// index report.md that shows them all.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "reports/results.hpp"
#include "reports/tables.hpp"

namespace gcbench::reports {

struct ReportOptions {
  std::filesystem::path out_dir;
  Defaults defaults;                                           // codec/device -> axis -> default
  std::map<std::string, std::vector<std::string>> file_order;  // corpus -> manifest order
};

struct WrittenReport {
  std::filesystem::path index;                   // report.md
  std::map<std::string, std::string> summaries;  // corpus -> GPU vs CPU vs gzip (Markdown)
};

WrittenReport write_report(const ResultSet& set, const ReportOptions& options);

}  // namespace gcbench::reports
