#include "reports/shard_merge_run.hpp"

#include <fmt/format.h>

#include <chrono>

#include "reports/results.hpp"

namespace gcbench::reports {
namespace fs = std::filesystem;

namespace {

ReportAppendix merge_section(const std::vector<fs::path>& inputs,
                             const results::ShardMergeResult& merged) {
  ReportAppendix section{"Merge", fmt::format("{} cells in {} result files, merged from {} inputs:",
                                              merged.cells, merged.files, inputs.size())};
  for (const fs::path& in : inputs) section.text += " `" + in.string() + "`";
  section.text += merged.shards.empty()
                      ? " (no shard plans)."
                      : fmt::format(" (shards {}).", fmt::join(merged.shards, ", "));
  if (!merged.missing_cells.empty()) {
    section.text += fmt::format(" {} cells missing (merged with --allow-missing), listed below.",
                                merged.missing_cells.size());
  }
  section.items = merged.notes;
  for (const std::string& cell : merged.missing_cells)
    section.items.push_back("missing: `" + cell + "`");
  return section;
}

}  // namespace

int run_shard_merge(const std::vector<fs::path>& inputs, const fs::path& out_dir,
                    const results::ShardMergeOptions& options, const ReportOptions& report,
                    bool print_summary, std::ostream& out, std::ostream& err) {
  const auto start = std::chrono::steady_clock::now();
  results::ShardMergeResult merged;
  try {
    merged = results::merge_shards(inputs, out_dir, options);
  } catch (const results::ShardMergeError& e) {
    err << "gcbench-report --merge-shards: nothing written:\n" << e.what() << "\n";
    return 2;
  }
  for (const std::string& note : merged.notes)
    err << "gcbench-report --merge-shards: " << note << "\n";
  ReportOptions with_merge = report;
  with_merge.appendix.push_back(merge_section(inputs, merged));
  const WrittenReport written = write_report(load_results({out_dir}), with_merge);
  if (print_summary) {
    for (const auto& [corpus, table] : written.summaries) {
      out << "\n" << table;  // the headline table, its heading naming the corpus
    }
    for (const auto& [corpus, table] : written.every_codec) out << "\n" << table;
  }
  if (!written.plot_note.empty()) {
    (written.plots_failed ? err : out) << "\ngcbench-report: " << written.plot_note << "\n";
  }
  if (!written.page_note.empty()) {
    (written.page_failed ? err : out) << "\ngcbench-report: " << written.page_note << "\n";
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out << fmt::format(
      "\nmerged {} inputs{} into {}: {} cells in {} files{}, in {:.2f} s\nreport written to {}\n",
      inputs.size(),
      merged.shards.empty() ? ""
                            : " (shards " + fmt::format("{}", fmt::join(merged.shards, ", ")) + ")",
      out_dir.string(), merged.cells, merged.files,
      merged.missing_cells.empty() ? ""
                                   : fmt::format(", {} cells MISSING", merged.missing_cells.size()),
      seconds, written.index.string());
  return written.plots_failed || written.page_failed ? 1 : 0;
}

}  // namespace gcbench::reports
