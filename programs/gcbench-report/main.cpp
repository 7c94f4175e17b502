// gcbench-report: regenerates the thesis-style tables from gcbench result JSON files, compares
// two runs (--compare), or merges the shard folders of a sweep into one (--merge-shards).
#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "corpora/corpora.hpp"
#include "gcbench/registry.hpp"
#include "reports/compare_run.hpp"
#include "reports/report.hpp"
#include "reports/shard_merge_run.hpp"
#include "reports/table_pick.hpp"
#include "src/cli/command_line.hpp"
#include "studies/study.hpp"

namespace {

constexpr const char* kUsage = R"(usage: gcbench-report [--out DIR] [--print-summary] RESULTS...
       gcbench-report --table NAME RESULTS...
       gcbench-report --compare BASE NEW [--threshold PCT] [--allow-different-inputs] [--out DIR]
       gcbench-report --merge-shards OUT_DIR IN_DIR... [--allow-different-revisions]
                      [--allow-missing] [--out DIR] [--print-summary]
)";

constexpr const char* kReport =
    R"(RESULTS are Google Benchmark JSON files written by gcbench, or directories searched for them
(e.g. gcbench --out-dir; an export of the directory found there, gcbench --export, is skipped:
its cells are in the directory's files). Writes DIR/report.md (default DIR: report) with, per
corpus, the study tables (studies/) that hold a value as Markdown, CSV and LaTeX, and plots
drawn by matplotlib from the CSVs (plot_results.py beside this program, run by the first of
$GCBENCH_PYTHON, python3, /usr/bin/python3 that imports matplotlib; without one the tables are
still written), and DIR/report.html, one self-contained page with the headline, sortable
tables and interactive charts (report_html.py, run the same way by a Python that imports
plotly; its data is DIR/report.page). --print-summary prints the GPU vs CPU vs gzip table of
every corpus. --table NAME prints one table of every corpus that has it (NAME: its file stem,
e.g. lz77_t5, or the number its title begins with, e.g. T5) and writes nothing. RESULTS that
hold no gcbench result (no JSON file, or only other programs' Google
Benchmark JSON) are refused in one line, writing nothing (exit status 2).
)";

constexpr const char* kCompareAndMerge =
    R"(--compare compares two runs, BASE and NEW (each a result file or directory), cell by cell and
prints Markdown: each side's median time (GPU cells: kernel time) and its interquartile range
over repetitions, the time change, the ratio change, for GPU cells the change of the kernel_s
and e2e_s counters, and a two-sided Mann-Whitney U test over the repetitions (normal
approximation with tie correction, as Google Benchmark's compare.py); then per corpus, codec,
device and direction the geometric mean of the time ratios NEW/BASE with a sign test over
its cells. A cell whose repetitions could not reach p < 0.05 even if all differed (fewer than 4
a side) gets "too few repetitions" instead of a p-value; one from
--benchmark_report_aggregates_only gets no test. Every cell and group gets a verdict: SAME
within --threshold percent (default 5); SLOWER or FASTER beyond it, beyond the larger side's
noise (IQR as % of the median) and significant after correction for the number of cells
(Benjamini-Hochberg) or groups (Holm); UNCLEAR otherwise, saying why. Before any time, what a
CI gate must stop: MISSING (a cell of BASE that NEW lacks, or a group whose every cell NEW lacks
or failed), FAILED (passed in BASE, failed in NEW), NOT COMPARABLE (measured on other input
bytes: the input's SHA-256, else its size; --allow-different-inputs compares them anyway) and
RATIO WORSE (the container grew: sizes are deterministic, so any growth) and MEMORY WORSE (a
GPU cell's device memory grew at all, a CPU cell's measured heap peak beyond the threshold and
1 MiB). With --out, also
writes DIR/compare.md, DIR/compare.csv (one row per cell) and DIR/compare_groups.csv (the
groups). Exit status: 0; 1 when a verdict fails (MISSING, FAILED, NOT COMPARABLE, RATIO WORSE,
MEMORY WORSE, SLOWER, and UNCLEAR with --fail-on unclear); 2 for bad input: a missing path, a file that is
not gcbench's JSON, no cell in both runs.

--merge-shards (or --merge, its older name) merges the result folders of the shards of one
sweep (each a gcbench --out-dir run with --shard K/N, with its gcbench.plan) into OUT_DIR, laid
out as one unsharded --out-dir, then writes the report (default DIR: OUT_DIR/report) with a
Merge section; an export found in an input (gcbench --export) is skipped with a note. It
refuses, writing nothing (exit status 2), inputs of different builds (git revision, gcbench
or codec versions, codec defaults, corpus manifest) unless --allow-different-revisions, a cell
recorded twice, a shard given twice or planned differently, an empty or missing input, an
OUT_DIR that holds results or overlaps an input, and missing shards or cells (every one named)
unless --allow-missing; what is allowed is marked in the merged context and the report.
Exit status 2 for a command-line error.)";

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

// A script beside this executable.
std::filesystem::path beside_executable(const std::string& name) {
  std::error_code ec;
  return std::filesystem::read_symlink("/proc/self/exe", ec).parent_path() / name;
}

// The Pythons to try, $GCBENCH_PYTHON alone when set.
std::vector<std::string> pythons() {
  if (const char* python = std::getenv("GCBENCH_PYTHON"); python != nullptr && *python != 0) {
    return {python};
  }
  return {"python3", "/usr/bin/python3"};
}

std::map<std::string, std::vector<std::string>> manifest_order() {
  std::map<std::string, std::vector<std::string>> order;
  const gcbench::corpora::Manifest manifest = gcbench::corpora::load_manifest();
  for (const auto& f : manifest.files) order[f.corpus].push_back(f.name);
  return order;
}

// --table: the report's tables written to a scratch folder (no plots, no page), the one named
// printed from it.
int print_table(const gcbench::reports::ResultSet& set, gcbench::reports::ReportOptions options,
                const std::string& name) {
  namespace fs = std::filesystem;
  const fs::path scratch =
      fs::temp_directory_path() / ("gcbench-report-table-" + std::to_string(::getpid()));
  options.out_dir = scratch;
  options.plots.reset();
  options.page.reset();
  gcbench::reports::write_report(set, options);
  const gcbench::reports::PickedTables picked = gcbench::reports::pick_tables(scratch, name);
  fs::remove_all(scratch);
  if (picked.markdown.empty()) {
    std::cerr << fmt::format("gcbench-report: no table {} in these results; they have: {}\n", name,
                             fmt::join(picked.names, ", "));
    return 2;
  }
  std::cout << picked.markdown;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  gcbench::reports::ReportOptions options{
      "report",
      registry_defaults(),
      {},
      gcbench::reports::PlotSetup{beside_executable("plot_results.py"), pythons()},
      gcbench::studies::report_tables(),
      gcbench::reports::PageSetup{beside_executable("report_html.py"), pythons()}};
  gcbench::reports::CompareOptions compare_options;
  std::optional<std::filesystem::path> out_dir;
  std::vector<std::filesystem::path> inputs;
  gcbench::results::ShardMergeOptions merge_options;
  std::optional<std::filesystem::path> merge_dir;
  bool print_summary = false, compare = false, allow_mixed = false, version = false;
  std::optional<std::string> table_name;
  const auto app = gcbench::cli::make_app("gcbench-report", kUsage, kReport, 30);
  app->footer(kCompareAndMerge);
  app->add_option("RESULTS", inputs, "result files or directories (--merge-shards: the IN_DIRs)")
      ->take_all()
      ->option_text("...");
  app->add_option("--out", out_dir, "where the report (or --compare's files) go")
      ->option_text("DIR");
  app->add_flag("--print-summary", print_summary, "print the GPU vs CPU vs gzip table");
  app->add_flag("--allow-mixed", allow_mixed,
                "report results of several builds (git revisions, build types) together");
  app->add_flag("--version", version, "what this gcbench-report is, and exit");
  app->add_option("--table", table_name, "print this table (lz77_t5, T5) and write nothing")
      ->option_text("NAME");
  app->add_flag("--compare", compare, "compare two runs, BASE and NEW (RESULTS)");
  app->add_option("--threshold", compare_options.threshold_pct,
                  "--compare: a change within this percent is SAME (default 5)")
      ->check(CLI::Number)
      ->option_text("PCT");
  app->add_flag("--allow-different-inputs", compare_options.allow_different_inputs,
                "--compare: compare cells measured on different inputs");
  app->add_option_function<std::string>(
         "--fail-on",
         [&compare_options](const std::string& v) {
           if (v != "unclear") throw CLI::ValidationError("--fail-on", "takes 'unclear'");
           compare_options.fail_on_unclear = true;
         },
         "--compare: 'unclear' makes an UNCLEAR verdict fail too (a noisy runner)")
      ->option_text("unclear");
  app->add_option("--merge-shards,--merge", merge_dir,
                  "merge the shard folders IN_DIR... (RESULTS) into OUT_DIR")
      ->option_text("OUT_DIR");
  app->add_flag("--allow-different-revisions", merge_options.allow_different_revisions,
                "--merge-shards: merge results of different builds");
  app->add_flag("--allow-missing", merge_options.allow_missing,
                "--merge-shards: merge although shards or cells are missing");
  if (auto status = gcbench::cli::parse_or_exit(*app, argc, argv, 2)) return *status;
  if (version) {
    std::cout << fmt::format(
        "gcbench-report {} ({} build); reads gcbench result files, writes "
        "Markdown, CSV, LaTeX, plots and report.html\n",
        GCBENCH_VERSION, GCBENCH_BUILD_TYPE);
    return 0;
  }
  if (merge_dir) {
    if (compare || inputs.empty()) {
      std::cerr << "gcbench-report: --merge-shards takes OUT_DIR and at least one IN_DIR, and no "
                   "--compare (see --help)\n";
      return 2;
    }
    options.out_dir = out_dir.value_or(*merge_dir / "report");
    try {
      options.file_order = manifest_order();
      return gcbench::reports::run_shard_merge(inputs, *merge_dir, merge_options, options,
                                               print_summary, std::cout, std::cerr);
    } catch (const std::exception& e) {
      std::cerr << "gcbench-report --merge-shards: " << e.what() << "\n";
      return 1;
    }
  }
  if (compare) {
    if (inputs.size() != 2 || print_summary) {
      std::cerr << "gcbench-report: --compare takes two paths, BASE and NEW, and no "
                   "--print-summary (see --help)\n";
      return 2;
    }
    return gcbench::reports::run_compare(inputs[0], inputs[1], compare_options, out_dir, std::cout,
                                         std::cerr, options.page);
  }
  if (inputs.empty()) {
    std::cerr << app->help();
    return 2;
  }
  if (out_dir) options.out_dir = *out_dir;
  try {
    options.file_order = manifest_order();
    const gcbench::reports::ResultSet set = gcbench::reports::load_results(inputs);
    for (const auto& [file, fault] : set.damaged) {
      std::cerr << "gcbench-report: " << file << " set aside, not read: " << fault << "\n";
    }
    if (const std::string mixed = gcbench::reports::mixed_builds(set);
        !mixed.empty() && !allow_mixed) {
      std::cerr << "gcbench-report: these results come from several builds (" << mixed
                << "): their figures are not one build's; --allow-mixed reports them together, "
                   "each build named; no report written\n";
      return 2;
    }
    if (table_name) return print_table(set, options, *table_name);
    const auto written = gcbench::reports::write_report(set, options);
    if (print_summary) {
      for (const auto& [corpus, table] : written.summaries) {
        std::cout << "\n" << table;  // the headline table, its heading naming the corpus
      }
      for (const auto& [corpus, table] : written.every_codec) std::cout << "\n" << table;
    }
    if (!written.plot_note.empty()) {
      (written.plots_failed ? std::cerr : std::cout)
          << "\ngcbench-report: " << written.plot_note << "\n";
    }
    if (!written.page_note.empty()) {
      (written.page_failed ? std::cerr : std::cout)
          << "\ngcbench-report: " << written.page_note << "\n";
    }
    std::cout << "\nreport written to " << written.index.string() << "\n";
    if (written.plots_failed || written.page_failed) return 1;
  } catch (const gcbench::reports::NoResults& e) {
    std::cerr << "gcbench-report: " << e.what() << "; no report written\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "gcbench-report: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
