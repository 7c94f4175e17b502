#pragma once
// Writes a whole report: per corpus, every table that holds a value as Markdown, CSV and LaTeX,
// matplotlib plots drawn from the CSVs, an index report.md that shows them all, and report.html,
// the same on one page with the headline and interactive charts.
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "reports/page.hpp"
#include "reports/plots.hpp"
#include "reports/results.hpp"
#include "reports/tables.hpp"

namespace gcbench::reports {

// A heading and its tables, in a corpus's part after the plots.
struct TableSection {
  std::string heading;
  std::vector<Table> tables;
};

// What a study (studies/) adds to each corpus's part of the report; the report knows no study.
struct StudyTables {
  // The corpus's first table, also returned as its summary (WrittenReport::summaries): the first
  // study that has one gives it.
  std::function<Table(const TableBuilder&)> headline = nullptr;
  std::function<std::vector<TableSection>(const TableBuilder&)> sections = nullptr;
  // The codecs report.html's headline measures speedups against, in order of preference: the
  // first study that names any gives them.
  std::vector<std::string> references = {};
  // The tools the study's figures rest on, read from the results' context ("zlib 1.3, gzip
  // 1.12 (/usr/bin/gzip)"), and sentences on how its own columns read: the report's
  // introduction adds every study's.
  std::function<std::string(const ResultSet&)> tools = nullptr;
  std::string introduction = {};
};

// A section the caller adds at the end of report.md and report.html (a shard merge's account of
// what it merged): a paragraph and a list.
struct ReportAppendix {
  std::string heading;
  std::string text;
  std::vector<std::string> items = {};
};

struct ReportOptions {
  std::filesystem::path out_dir;
  Defaults defaults;                                           // codec/device -> axis -> default
  std::map<std::string, std::vector<std::string>> file_order;  // corpus -> manifest order
  std::optional<PlotSetup> plots = std::nullopt;               // none: no plots
  std::vector<StudyTables> studies = {};                       // studies::report_tables()
  std::optional<PageSetup> page = std::nullopt;                // none: no report.html
  std::vector<ReportAppendix> appendix = {};                   // after everything else
};

struct WrittenReport {
  std::filesystem::path index;                   // report.md
  std::map<std::string, std::string> summaries;  // corpus -> its headline table, titled (Markdown)
  std::string plot_note;                         // why there are no plots, or how they failed
  bool plots_failed = false;                     // the plot script ran and failed
  std::string page_note;                         // why there is no report.html, or how it failed
  bool page_failed = false;                      // the page script ran and failed
  // corpus -> every codec at its defaults, both directions (headline_markdown): a run's closing
  // table.
  std::map<std::string, std::string> every_codec = {};
};

WrittenReport write_report(const ResultSet& set, const ReportOptions& options);

}  // namespace gcbench::reports
