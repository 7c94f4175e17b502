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
#include "src/results/fold_results.hpp"
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

// Folds every queue helper's folder under `workers` into the CPU worker's folder `cpu`.
void fold_helpers(const fs::path& workers, const fs::path& cpu, std::ostream& err) {
  if (!fs::is_directory(workers)) return;
  for (const fs::directory_entry& entry : fs::directory_iterator(workers)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_directory() || !name.starts_with(queue_helper_name(""))) continue;
    try {
      results::fold_results(entry.path(), cpu);
    } catch (const std::runtime_error& e) {
      err << "[gcbench] --gpus: " << name << "'s results stay in " << entry.path().string() << " ("
          << e.what() << "); the next run with this --out-dir folds them\n";
    }
  }
}

// Each worker's span and which ended last: what bounded the run's wall time.
std::string bounding_line(const std::vector<ProcessExit>& exits) {
  if (exits.empty()) return "";
  std::vector<std::string> spans;
  const ProcessExit* last = &exits.front();
  for (const ProcessExit& e : exits) {
    spans.push_back(fmt::format("{} {:.1f}-{:.1f}", e.name, e.started_s, e.ended_s));
    if (e.ended_s > last->ended_s) last = &e;
  }
  return fmt::format("[gcbench] --gpus: workers' seconds {}; the last, {}, bounded the run\n",
                     fmt::join(spans, ", "), last->name);
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
  const Worker* cpu = cpu_worker ? &workers.back() : nullptr;
  if (cpu != nullptr) {
    // A run killed before its end left helpers' folders: theirs are CPU cells like the CPU
    // worker's, which resumes them. The queue starts empty: what is recorded is skipped.
    fold_helpers(workers_dir(*options.out_dir), cpu->out_dir, err);
    fs::remove_all(claims_dir(*options.out_dir));
  }
  const auto spec_of = [&host](const Worker& w) {
    fs::create_directories(w.harness_file.parent_path());
    fs::remove(w.harness_file);  // this run's line alone
    ProcessSpec spec{w.name, {host.program.string()}, w.env, w.cores};
    spec.argv.insert(spec.argv.end(), w.args.begin(), w.args.end());
    return spec;
  };
  std::vector<ProcessSpec> specs;
  for (const Worker& w : workers) specs.push_back(spec_of(w));
  // Every worker that ran, helpers included, in the order they started (as run_processes
  // returns their exits).
  std::vector<Worker> ran = workers;
  bool cpu_done = false;
  const auto on_exit = [&](const ProcessExit& e) -> std::vector<ProcessSpec> {
    if (cpu == nullptr || cpu_done) return {};
    if (e.name == cpu->name) {
      cpu_done = true;  // the queue is empty: every CPU cell is claimed
      return {};
    }
    const auto freed = std::find_if(workers.begin(), workers.end(),
                                    [&](const Worker& w) { return w.name == e.name && w.gpu; });
    if (freed == workers.end()) return {};
    ran.push_back(queue_helper(base_args, *freed, *cpu, *options.out_dir));
    err << fmt::format("[gcbench] --gpus: {} done at {:.1f} s; {} takes CPU cells on its cores\n",
                       e.name, e.ended_s, describe(ran.back()));
    return {spec_of(ran.back())};
  };
  const std::vector<ProcessExit> exits = run_processes(specs, out, err, on_exit);

  int status = 0;
  std::set<std::string> failed;
  for (std::size_t i = 0; i < exits.size(); ++i) {
    if (exits[i].status == 0) continue;
    failed.insert(ran[i].name);
    // A queue helper's cells are folded into the CPU worker's folder below.
    const bool helper = cpu != nullptr && i >= workers.size();
    err << fmt::format(
        "[gcbench] worker {} failed: {}; its finished cells {} {}, and the same command "
        "resumes it\n",
        describe(ran[i]), exits[i].description, helper ? "go to" : "stay in",
        (helper ? cpu->out_dir : ran[i].out_dir).string());
    status = std::max(status, exits[i].status > 2 ? 2 : exits[i].status);
  }
  err << bounding_line(exits);
  if (cpu != nullptr) fold_helpers(workers_dir(*options.out_dir), cpu->out_dir, err);
  const int merge_status =
      merge_workers(workers, *options.out_dir, failed, options.gpu_replicas, err);
  if (merge_status == 0 && merged_out) write_export(*options.out_dir, *merged_out, err);
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  const HarnessSummary summary = combine_workers(read_harness_lines(ran, err), took.count());
  err << format_summary(summary, {});
  if (options.harness_file) append_harness_line(*options.harness_file, summary);
  err << fmt::format("[gcbench] --gpus: {} workers done in {:.1f} s wall\n", workers.size(),
                     took.count());
  return std::max(status, merge_status);
}

}  // namespace gcbench::driver
