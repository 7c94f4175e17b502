#pragma once
// gcbench-report --merge-shards as a function, so that tests see its exit status and messages.
#include <filesystem>
#include <ostream>
#include <vector>

#include "reports/report.hpp"
#include "src/results/shard_merge.hpp"

namespace gcbench::reports {

// Merges `inputs` into `out_dir` (results::merge_shards), then writes the usual report for it
// to `report.out_dir` with a section on the merge (inputs, shards, notes, missing cells), and
// prints what it did to `out` (with `print_summary`, each corpus's GPU vs CPU vs gzip table).
// Returns the exit status: 0, or 2 for bad input with every problem on `err`.
int run_shard_merge(const std::vector<std::filesystem::path>& inputs,
                    const std::filesystem::path& out_dir, const results::ShardMergeOptions& options,
                    const ReportOptions& report, bool print_summary, std::ostream& out,
                    std::ostream& err);

}  // namespace gcbench::reports
