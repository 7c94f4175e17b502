#pragma once
// gcbench --gpus as the parent runs it (gpus.hpp has the design): checks the request, starts
// the workers, passes their output on, and merges their results into --out-dir.
#include <filesystem>
#include <functional>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "bench/driver/benchmark_out.hpp"
#include "bench/driver/gpus.hpp"
#include "bench/driver/options.hpp"
#include "bench/driver/shard.hpp"

namespace gcbench::driver {

// The flags --gpus cannot go with, each a std::invalid_argument: --shard or a shard from the
// environment (a Slurm or Kubernetes array task: --gpus splits the GPU cells itself), --device
// cpu (no GPU cells), and no --out-dir (the workers record into its .workers folder).
void check_gpus_options(const Options& options, const EnvLookup& env);

// Merges the workers' folders that hold results through the shard merge (which checks that
// every GPU shard's cells are there, unless a worker failed; with `replicas`, each GPU worker's
// cells, keeping every GPU's entries of a cell) into a staging folder beside them, without its
// "merged_from" mark (these are the run's own results: the recorder and --benchmark_out read
// them), then moves each merged file to its place under `out_dir`, where a plain run would have
// written it. With `failed` workers (by name) the others' cells are merged all the same, each
// failed GPU worker's missing cells are named on `err`, and every missing cell is listed in
// `out_dir`/missing-cells.txt (removed by a merge that misses none). Returns 2 (the problems
// said on `err`) when the merge finds bad input, else 0.
int merge_workers(const std::vector<Worker>& workers, const std::filesystem::path& out_dir,
                  const std::set<std::string>& failed, bool replicas, std::ostream& err);

// Where the workers run: the program (gcbench itself) and this host's GPUs, numbered by bus
// (tests fake both).
struct WorkerHost {
  std::filesystem::path program;
  std::function<std::vector<GpuIdentity>()> gpus;
};

// This gcbench (/proc/self/exe) and the GPUs the CUDA runtime lists.
WorkerHost this_host();

// Runs the sweep as --gpus workers, each given `base_args` (worker_base_args) and its own;
// merges their results into options.out_dir and, when `merged_out`, writes every cell recorded
// under it there (as --benchmark_out does for a plain run); with options.harness_file, appends
// one harness line for the whole run (combine_workers). A worker that fails is named with its
// GPU and its missing cells, and the others' results are merged (merge_workers); the same
// command runs again only the cells not recorded (every worker resumes). Returns the exit
// status: the worst of the workers' (2 when one was killed), or 2 when the merge finds bad
// input. Throws
// std::invalid_argument for a request this host cannot serve (no usable GPU, an index it does
// not have).
int run_on_gpus(const std::vector<std::string>& base_args, const Options& options,
                const std::optional<ExportTarget>& merged_out, const WorkerHost& host,
                std::ostream& out, std::ostream& err);

}  // namespace gcbench::driver
