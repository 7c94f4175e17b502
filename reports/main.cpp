// gcbench-report: regenerates the thesis-style tables from gcbench result JSON files.
#include <iostream>
#include <string>
#include <vector>

#include "corpora/corpora.hpp"
#include "gcbench/registry.hpp"
#include "reports/report.hpp"

namespace {

constexpr const char* kUsage = R"(usage: gcbench-report [--out DIR] [--print-summary] RESULTS...
RESULTS are Google Benchmark JSON files written by gcbench, or directories searched for them
(e.g. gcbench --out-dir). Writes DIR/report.md (default DIR: report) with, per corpus, the
tables of SPEC section 4 as Markdown, CSV and LaTeX, and SVG plots. --print-summary prints the
GPU vs CPU vs gzip table of every corpus.
)";

gcbench::reports::Defaults registry_defaults() {
  gcbench::reports::Defaults d;
  for (const auto& codec : gcbench::registry()) {
    for (const auto& axis : codec->info().axes) {
      d[codec->info().name + "/" + gcbench::to_string(codec->info().device)].emplace(
          axis.name, axis.format(axis.default_value));
    }
  }
  return d;
}

std::map<std::string, std::vector<std::string>> manifest_order() {
  std::map<std::string, std::vector<std::string>> order;
  const gcbench::corpora::Manifest manifest = gcbench::corpora::load_manifest();
  for (const auto& f : manifest.files) order[f.corpus].push_back(f.name);
  return order;
}

}  // namespace

int main(int argc, char** argv) {
  gcbench::reports::ReportOptions options{"report", registry_defaults(), {}};
  std::vector<std::filesystem::path> inputs;
  bool print_summary = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      return 0;
    } else if (arg == "--out" && i + 1 < argc) {
      options.out_dir = argv[++i];
    } else if (arg == "--print-summary") {
      print_summary = true;
    } else if (arg.starts_with("--")) {
      std::cerr << "gcbench-report: unknown flag " << arg << "\n" << kUsage;
      return 2;
    } else {
      inputs.emplace_back(arg);
    }
  }
  if (inputs.empty()) {
    std::cerr << kUsage;
    return 2;
  }
  try {
    options.file_order = manifest_order();
    const gcbench::reports::ResultSet set = gcbench::reports::load_results(inputs);
    const auto written = gcbench::reports::write_report(set, options);
    if (print_summary) {
      for (const auto& [corpus, table] : written.summaries) {
        std::cout << "\nGPU vs CPU vs gzip, " << corpus << " (compression; times in s):\n\n"
                  << table;
      }
    }
    std::cout << "\nreport written to " << written.index.string() << "\n";
  } catch (const std::exception& e) {
    std::cerr << "gcbench-report: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
