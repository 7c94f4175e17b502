#include "bench/driver/gpus_run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <set>
#include <stdexcept>

#include "bench/driver/benchmark_out.hpp"
#include "bench/driver/cells.hpp"
#include "bench/driver/context.hpp"
#include "bench/driver/gpus.hpp"
#include "bench/driver/harness.hpp"
#include "bench/driver/processes.hpp"
#include "gcbench/registry.hpp"
#include "src/results/result_files.hpp"
#include "src/results/shard_merge.hpp"

namespace gcbench::driver {
namespace fs = std::filesystem;

namespace {

// Whether the sweep has CPU cells, so a CPU worker (and its share of the cores) is needed. A
// preset picks its own codecs: it gets one.
bool has_cpu_cells(const Options& options) {
  if (options.preset) return true;
  return !select_codecs(registered_codecs(), options.codecs, "cpu").empty();
}

std::string describe(const Worker& w) {
  std::string text = w.name + " (";
  if (w.gpu) text += fmt::format("{}, {}, ", w.gpu->name, w.gpu->pci_bus_id);
  return text + "cores " + format_core_list(w.cores) + ")";
}

bool holds_results(const fs::path& dir) {
  return fs::is_directory(dir) &&
         (!results::json_files_under(dir).empty() || fs::exists(dir / results::kPlanFileName));
}

// Each worker's harness line (a worker that wrote none, e.g. one that failed early, counts as
// nothing, and is named on `err`).
std::vector<HarnessSummary> read_harness_lines(const std::vector<Worker>& workers,
                                               std::ostream& err) {
  std::vector<HarnessSummary> lines;
  for (const Worker& w : workers) {
    std::ifstream in(w.harness_file);
    std::string line;
    std::optional<HarnessSummary> summary;
    if (std::getline(in, line)) summary = parse_harness_line(line);
    if (summary) {
      lines.push_back(*summary);
    } else {
      err << "[gcbench] --gpus: worker " << w.name << " wrote no harness line ("
          << w.harness_file.string() << "): its timed seconds are not counted\n";
    }
  }
  return lines;
}

// The cells of failed worker workers[at] that no worker recorded, from the merge's missing
// shards: the k-th GPU worker runs shard k (plan_workers); with replicas each its folder's.
void name_missing_cells(const std::vector<Worker>& workers, std::size_t at,
                        const std::vector<results::MissingShard>& missing, bool replicas,
                        const fs::path& out_dir, std::ostream& err) {
  const Worker& w = workers[at];
  if (!w.gpu) {
    err << "[gcbench] --gpus: the CPU worker's cells not recorded are not known (it runs without "
           "a shard plan); the same command runs them\n";
    return;
  }
  const results::Shard shard{
      static_cast<int>(at) + 1,
      static_cast<int>(std::count_if(workers.begin(), workers.end(),
                                     [](const Worker& o) { return o.gpu.has_value(); }))};
  const auto of_worker = std::find_if(missing.begin(), missing.end(), [&](const auto& m) {
    return replicas ? m.input == w.out_dir : m.scope.empty() && m.shard == shard;
  });
  if (of_worker == missing.end()) {
    err << (fs::exists(w.out_dir / results::kPlanFileName)
                ? fmt::format("[gcbench] --gpus: worker {} recorded every cell of its shard "
                              "before it failed\n",
                              w.name)
                : fmt::format("[gcbench] --gpus: worker {} failed before writing its shard plan: "
                              "its cells not recorded are not known; the same command runs them\n",
                              w.name));
    return;
  }
  err << fmt::format(
      "[gcbench] --gpus: worker {}'s cells not recorded ({} of its {}; every missing cell is "
      "listed in {}): {}\n",
      w.name, of_worker->cells.size(), of_worker->planned,
      (out_dir / results::kMissingCellsFile).string(), fmt::join(of_worker->cells, ", "));
}

}  // namespace

int merge_workers(const std::vector<Worker>& workers, const fs::path& out_dir,
                  const std::set<std::string>& failed, bool replicas, std::ostream& err) {
  std::vector<fs::path> inputs;
  std::vector<std::string> names;
  for (const Worker& w : workers) {
    if (!holds_results(w.out_dir)) continue;
    inputs.push_back(w.out_dir);
    names.push_back(w.name);
  }
  if (inputs.empty()) {
    err << "[gcbench] --gpus: no worker recorded any cell\n";
    return 2;
  }
  const fs::path staging = workers_dir(out_dir) / ".merged";
  fs::remove_all(staging);
  results::ShardMergeOptions merge;
  merge.allow_missing = !failed.empty();
  merge.gpu_replicas = replicas;
  merge.mark_merged_from = false;
  merge.context["gpus_workers"] =
      fmt::format("{} ({})", fmt::join(names, ", "), workers_dir(out_dir).string());
  results::ShardMergeResult merged;
  try {
    merged = results::merge_shards(inputs, staging, merge);
  } catch (const results::ShardMergeError& e) {
    err << "[gcbench] --gpus: the workers' results cannot be merged:\n" << e.what() << "\n";
    return 2;
  }
  for (const std::string& note : merged.notes) err << "[gcbench] merge: " << note << "\n";
  std::vector<fs::path> files = results::json_files_under(staging);
  const fs::path missing_list = staging / results::kMissingCellsFile;
  if (fs::exists(missing_list)) files.push_back(missing_list);
  fs::remove(out_dir / missing_list.filename());  // an earlier run's
  for (const fs::path& file : files) {
    const fs::path to = out_dir / file.lexically_relative(staging);
    fs::create_directories(to.parent_path());
    fs::rename(file, to);  // one file system: a reader sees the old file or the new one whole
  }
  for (std::size_t i = 0; i < workers.size(); ++i) {
    if (failed.count(workers[i].name))
      name_missing_cells(workers, i, merged.missing_shards, replicas, out_dir, err);
  }
  fs::remove_all(staging);
  err << fmt::format("[gcbench] --gpus: {} cells of {} workers merged into {}\n", merged.cells,
                     inputs.size(), out_dir.string());
  return 0;
}

void check_gpus_options(const Options& options, const EnvLookup& env) {
  if (options.shard) {
    throw std::invalid_argument(
        "--gpus and --shard cannot be combined: --gpus splits the GPU cells among its GPUs "
        "itself (to split a sweep over hosts, give each host its own --shard and no --gpus)");
  }
  if (auto from_env = shard_from_environment(env)) {
    throw std::invalid_argument("--gpus cannot run as one shard of " + from_env->source +
                                ": --gpus splits the GPU cells among its GPUs itself");
  }
  if (options.device == "cpu") {
    throw std::invalid_argument(
        "--gpus runs the GPU cells on several GPUs, and --device cpu has none: drop --gpus");
  }
  if (!options.out_dir) {
    throw std::invalid_argument(
        "--gpus needs --out-dir DIR: each worker records into DIR/.workers/<worker>, and the "
        "results are merged into DIR");
  }
}

WorkerHost this_host() {
  return {fs::read_symlink("/proc/self/exe"), [] { return number_by_bus(list_gpus()); }};
}

int run_on_gpus(const std::vector<std::string>& base_args, const Options& options,
                const std::optional<ExportTarget>& merged_out, const WorkerHost& host,
                std::ostream& out, std::ostream& err) {
  const auto start = std::chrono::steady_clock::now();
  check_gpus_options(options, [](const char* name) { return std::getenv(name); });
  std::vector<GpuIdentity> present;
  try {
    present = host.gpus();
  } catch (const std::runtime_error& e) {
    throw std::invalid_argument(std::string("--gpus: no usable GPU (") + e.what() + ")");
  }
  const std::vector<GpuIdentity> gpus = choose_gpus(*options.gpus, present);
  const bool cpu_worker = options.device == "all" && has_cpu_cells(options);
  const CoreSplit split = split_cores(affinity_cores(), static_cast<int>(gpus.size()), cpu_worker);
  const std::vector<Worker> workers =
      plan_workers(base_args, gpus, split, *options.out_dir, cpu_worker, options.gpu_replicas);

  std::vector<std::string> described;
  for (const Worker& w : workers) described.push_back(describe(w));
  err << fmt::format("[gcbench] --gpus{}: {} workers, results in {}: {}\n",
                     options.gpu_replicas ? " --gpu-replicas (every GPU runs every GPU cell)" : "",
                     workers.size(), workers_dir(*options.out_dir).string(),
                     fmt::join(described, "; "));
  if (split.shared) {
    err << "[gcbench] --gpus: fewer cores than workers: they share every core, and the CPU "
           "cells disturb the GPU cells' timings\n";
  }
  std::vector<ProcessSpec> specs;
  for (const Worker& w : workers) {
    fs::create_directories(w.harness_file.parent_path());
    fs::remove(w.harness_file);  // this run's line alone
    ProcessSpec spec{w.name, {host.program.string()}, w.env, w.cores};
    spec.argv.insert(spec.argv.end(), w.args.begin(), w.args.end());
    specs.push_back(std::move(spec));
  }
  const std::vector<ProcessExit> exits = run_processes(specs, out, err);

  int status = 0;
  std::set<std::string> failed;
  for (std::size_t i = 0; i < exits.size(); ++i) {
    if (exits[i].status == 0) continue;
    failed.insert(workers[i].name);
    err << fmt::format(
        "[gcbench] worker {} failed: {}; its finished cells stay in {}, and the same command "
        "resumes it\n",
        describe(workers[i]), exits[i].description, workers[i].out_dir.string());
    status = std::max(status, exits[i].status > 2 ? 2 : exits[i].status);
  }
  const int merge_status =
      merge_workers(workers, *options.out_dir, failed, options.gpu_replicas, err);
  if (merge_status == 0 && merged_out) write_export(*options.out_dir, *merged_out, err);
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  const HarnessSummary summary = combine_workers(read_harness_lines(workers, err), took.count());
  err << format_summary(summary, {});
  if (options.harness_file) append_harness_line(*options.harness_file, summary);
  err << fmt::format("[gcbench] --gpus: {} workers done in {:.1f} s wall\n", workers.size(),
                     took.count());
  return std::max(status, merge_status);
}

}  // namespace gcbench::driver
