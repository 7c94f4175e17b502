#pragma once
// A sharded sweep's plan, written by every shard into its --out-dir (DIR/gcbench.plan, JSON)
// and read by gcbench-report --merge-shards: which shard this directory holds (K of N) and
// every cell of the whole sweep, in run order, with the shard it belongs to. With it a shard
// merge can name the shards and cells that are missing.
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gcbench::results {

// Not *.json: the recorder and the report tool read every *.json under a results directory as
// a Google Benchmark file.
inline constexpr const char* kPlanFileName = "gcbench.plan";

// The K-th (1-based) of N parts of a sweep.
struct Shard {
  int index = 1;
  int count = 1;
  std::string to_string() const;  // "K/N"
  bool operator==(const Shard&) const = default;
};

struct ShardPlan {
  Shard shard;
  std::vector<std::pair<std::string, int>> cells;  // cell name -> its shard (1-based), run order
};

// Writes `dir`/gcbench.plan atomically (a temp file renamed over it).
void write_plan(const std::filesystem::path& dir, const ShardPlan& plan);

// The plan in `dir`, nullopt when there is none. Throws std::runtime_error naming the file when
// it is not a plan this version wrote.
std::optional<ShardPlan> read_plan(const std::filesystem::path& dir);

// The folders under `dir`, itself included, that hold a plan, sorted.
std::vector<std::filesystem::path> plan_folders_under(const std::filesystem::path& dir);

}  // namespace gcbench::results
