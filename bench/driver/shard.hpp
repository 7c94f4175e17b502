#pragma once
// --shard K/N: a deterministic split of a sweep's cells into N disjoint parts balanced by
// expected cost, so that N machines (a Slurm job array, a Kubernetes Indexed Job) share one
// sweep. The split depends on the cell list alone (names, codecs, input sizes), never on the
// machine, so every shard computes the same plan.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/driver/cells.hpp"
#include "bench/driver/inputs.hpp"
#include "src/results/shard_plan.hpp"

namespace gcbench::driver {

// "K/N" with 1 <= K <= N. Throws std::invalid_argument naming the problem.
results::Shard parse_shard(std::string_view text);

struct ShardChoice {
  results::Shard shard;
  std::string source;  // where it came from, for the line the driver prints
};

// The environment variable named, or nullptr (std::getenv in the driver; a map in tests).
using EnvLookup = std::function<const char*(const char*)>;

// The shard of a Slurm job array task (SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT, and
// SLURM_ARRAY_TASK_MIN/STEP when set) or of a Kubernetes Indexed Job pod (JOB_COMPLETION_INDEX,
// with the job's completions in GCBENCH_SHARD_COUNT, which Kubernetes does not export), Slurm
// first; nullopt when neither is set. Throws std::invalid_argument when the variables are
// malformed, inconsistent, or the Kubernetes count is missing.
std::optional<ShardChoice> shard_from_environment(const EnvLookup& env);

// The shard (1-based) of each of `costs.size()` cells: greedy longest-processing-time, the
// costliest cell first (ties by name), each to the least loaded shard (ties: the lowest).
std::vector<int> assign_shards(const std::vector<double>& costs,
                               const std::vector<std::string>& names, int count);

// --shard when given, else shard_from_environment.
std::optional<ShardChoice> choose_shard(const std::optional<results::Shard>& flag,
                                        const EnvLookup& env);

struct ShardedCells {
  results::ShardPlan plan;      // every cell of the sweep with its shard, in run order
  std::vector<CellSpec> cells;  // this shard's, in run order
  std::string summary;          // one line: the shard, where it came from, its share
};

// Splits `cells` by assign_shards over estimate_cell_s at a fixed thread count (the machine's
// own would make shards disagree) and keeps the chosen shard's.
ShardedCells shard_cells(std::vector<CellSpec> cells, const std::vector<InputFile>& inputs,
                         const ShardChoice& choice);

}  // namespace gcbench::driver
