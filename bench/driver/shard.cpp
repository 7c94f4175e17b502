#include "bench/driver/shard.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <numeric>
#include <stdexcept>

#include "bench/driver/estimate.hpp"

namespace gcbench::driver {
namespace {

std::optional<int> to_int(std::string_view text) {
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// The integer in variable `name`, or std::invalid_argument naming it.
int env_int(const EnvLookup& env, const char* name) {
  const char* text = env(name);
  if (text == nullptr) throw std::invalid_argument(std::string(name) + " is not set");
  const std::optional<int> value = to_int(text);
  if (!value) {
    throw std::invalid_argument(fmt::format("{}='{}' is not an integer", name, text));
  }
  return *value;
}

std::optional<ShardChoice> slurm_shard(const EnvLookup& env) {
  if (env("SLURM_ARRAY_TASK_ID") == nullptr) return std::nullopt;
  const int id = env_int(env, "SLURM_ARRAY_TASK_ID");
  if (env("SLURM_ARRAY_TASK_COUNT") == nullptr) {
    throw std::invalid_argument(
        "SLURM_ARRAY_TASK_ID is set (a Slurm job array task) but SLURM_ARRAY_TASK_COUNT is not: "
        "pass --shard K/N (--shard 1/1 runs every cell)");
  }
  const int count = env_int(env, "SLURM_ARRAY_TASK_COUNT");
  const int min = env("SLURM_ARRAY_TASK_MIN") != nullptr ? env_int(env, "SLURM_ARRAY_TASK_MIN") : 0;
  const int step =
      env("SLURM_ARRAY_TASK_STEP") != nullptr ? env_int(env, "SLURM_ARRAY_TASK_STEP") : 1;
  std::string vars;  // the variables as set, for the messages
  for (const char* name : {"SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN",
                           "SLURM_ARRAY_TASK_STEP"}) {
    if (const char* value = env(name))
      vars += fmt::format("{}{}={}", vars.empty() ? "" : ", ", name, value);
  }
  if (count < 1 || step < 1 || id < min || (id - min) % step != 0 || (id - min) / step >= count) {
    throw std::invalid_argument(
        "this Slurm job array task has no shard (" + vars +
        "): submit a contiguous array, e.g. --array=0-7 for 8 shards, or pass --shard K/N");
  }
  return ShardChoice{{(id - min) / step + 1, count}, "the Slurm job array (" + vars + ")"};
}

std::optional<ShardChoice> kubernetes_shard(const EnvLookup& env) {
  if (env("JOB_COMPLETION_INDEX") == nullptr) return std::nullopt;
  const int index = env_int(env, "JOB_COMPLETION_INDEX");
  if (env("GCBENCH_SHARD_COUNT") == nullptr) {
    throw std::invalid_argument(
        "JOB_COMPLETION_INDEX is set (a Kubernetes Indexed Job) but GCBENCH_SHARD_COUNT is not: "
        "set it to the job's completions, or pass --shard K/N (--shard 1/1 runs every cell)");
  }
  const int count = env_int(env, "GCBENCH_SHARD_COUNT");
  const std::string vars =
      fmt::format("JOB_COMPLETION_INDEX={}, GCBENCH_SHARD_COUNT={}", index, count);
  if (count < 1 || index < 0 || index >= count) {
    throw std::invalid_argument("JOB_COMPLETION_INDEX must be from 0 to GCBENCH_SHARD_COUNT - 1 (" +
                                vars + ")");
  }
  return ShardChoice{{index + 1, count}, "the Kubernetes Indexed Job (" + vars + ")"};
}

}  // namespace

results::Shard parse_shard(std::string_view text) {
  const std::string quoted = fmt::format("'{}'", text);
  const std::size_t slash = text.find('/');
  const std::optional<int> k =
      slash == std::string_view::npos ? std::nullopt : to_int(text.substr(0, slash));
  const std::optional<int> n =
      slash == std::string_view::npos ? std::nullopt : to_int(text.substr(slash + 1));
  if (!k || !n) throw std::invalid_argument(quoted + ": expected K/N, e.g. --shard 3/8");
  if (*n < 1) throw std::invalid_argument(quoted + ": the shard count N must be at least 1");
  if (*k < 1 || *k > *n) {
    throw std::invalid_argument(fmt::format(
        "{}: the shard K must be from 1 to N = {} (shards are numbered from 1)", quoted, *n));
  }
  return {*k, *n};
}

std::optional<ShardChoice> shard_from_environment(const EnvLookup& env) {
  if (auto slurm = slurm_shard(env)) return slurm;
  return kubernetes_shard(env);
}

std::optional<ShardChoice> choose_shard(const std::optional<results::Shard>& flag,
                                        const EnvLookup& env) {
  if (flag) return ShardChoice{*flag, "--shard"};
  return shard_from_environment(env);
}

std::vector<int> assign_shards(const std::vector<double>& costs,
                               const std::vector<std::string>& names, int count) {
  std::vector<std::size_t> order(costs.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (costs[a] != costs[b]) return costs[a] > costs[b];
    return names[a] < names[b];
  });
  std::vector<double> load(static_cast<std::size_t>(count), 0.0);
  std::vector<int> shard_of(costs.size(), 0);
  for (std::size_t cell : order) {
    const auto least = std::min_element(load.begin(), load.end());  // the first of equals
    *least += costs[cell];
    shard_of[cell] = static_cast<int>(least - load.begin()) + 1;
  }
  return shard_of;
}

ShardedCells shard_cells(std::vector<CellSpec> cells, const std::vector<InputFile>& inputs,
                         const ShardChoice& choice) {
  std::vector<double> costs;
  std::vector<std::string> names;
  for (const CellSpec& cell : cells) {
    costs.push_back(estimate_cell_s(cell, inputs.at(cell.input).size, kPlanThreads));
    names.push_back(cell.name);
  }
  const std::vector<int> shard_of = assign_shards(costs, names, choice.shard.count);
  ShardedCells out{{choice.shard, {}}, {}, ""};
  double mine = 0, all = 0;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    out.plan.cells.emplace_back(names[i], shard_of[i]);
    all += costs[i];
    if (shard_of[i] != choice.shard.index) continue;
    mine += costs[i];
    out.cells.push_back(std::move(cells[i]));
  }
  out.summary = fmt::format("shard {} from {}: {} of {} cells, {:.1f}% of the estimated cost",
                            choice.shard.to_string(), choice.source, out.cells.size(),
                            out.plan.cells.size(), all > 0 ? 100 * mine / all : 0.0);
  if (choice.source != "--shard") out.summary += " (--shard 1/1 runs every cell)";
  return out;
}

}  // namespace gcbench::driver
