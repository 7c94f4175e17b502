#pragma once
// gcbench-report --merge-shards: many result folders (the shards of one sweep, each a gcbench
// --out-dir) into one result folder with the layout of one unsharded --out-dir. It checks that
// the inputs are comparable (same git revision, gcbench and codec versions, codec defaults,
// corpus manifest) and, from the shards' plans (src/results/shard_plan.hpp), that no shard and no
// cell is missing; a cell recorded twice is an error. Exports of a folder (gcbench --export)
// found among the inputs are skipped: their cells are in the inputs' result files.
#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "src/results/shard_plan.hpp"

namespace gcbench::results {

// Where a merge with missing cells lists them (ShardMergeOptions::allow_missing), in its output
// folder.
inline constexpr const char* kMissingCellsFile = "missing-cells.txt";

struct ShardMergeOptions {
  bool allow_different_revisions = false;  // merge anyway; the merged context says so
  bool allow_missing = false;              // merge anyway; the merged context and report say so
  // The inputs are GPU replicas (gcbench --gpu-replicas): each input's shard plans are checked
  // on their own (every input ran the whole sweep's GPU cells), and a GPU cell recorded in
  // several inputs is kept once per GPU, its entries' "gpu" record telling them apart, instead
  // of being a duplicate; the merged files' context names the GPUs (kGpuReplicasKey). The same
  // cell twice on one GPU is still a duplicate.
  bool gpu_replicas = false;
  // Whether the merged files' context says "merged_from" (the input count): not for a merge
  // whose files are one run's own results (gcbench --gpus's workers).
  bool mark_merged_from = true;
  std::map<std::string, std::string> context;  // added to every merged file's context
};

// Bad input: every problem found, one per line.
struct ShardMergeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A shard of which cells are missing (ShardMergeOptions::allow_missing).
struct MissingShard {
  std::string scope;  // the plan's folder under the inputs; with GPU replicas, the input's too
  Shard shard;
  std::optional<std::filesystem::path> input;  // the input holding its plan; none: no input does
  std::size_t planned = 0;                     // its cells in the plan
  std::vector<std::string> cells;              // those missing, in the plan's order
};

struct ShardMergeResult {
  std::size_t files = 0;                     // result files written
  std::size_t cells = 0;                     // cells written
  std::vector<std::string> shards;           // "<scope>: K/N" of every plan merged
  std::vector<std::string> missing_cells;    // only with allow_missing: "<scope>: <cell> (K/N)"
  std::vector<MissingShard> missing_shards;  // only with allow_missing: the same, per shard
  std::vector<std::string> notes;            // what the caller should print: varying machines...
};

// Reads every *.json and gcbench.plan under `inputs` (directories) and writes the merged
// result files under `out_dir`, which must hold no results yet and must not overlap an input.
// Throws ShardMergeError for bad input, before anything is written.
ShardMergeResult merge_shards(const std::vector<std::filesystem::path>& inputs,
                              const std::filesystem::path& out_dir,
                              const ShardMergeOptions& options);

}  // namespace gcbench::results
