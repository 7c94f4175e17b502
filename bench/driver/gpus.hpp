#pragma once
// --gpus all|LIST: the sweep's GPU cells on several GPUs of this host at once. gcbench starts
// itself once per GPU (named by UUID in CUDA_VISIBLE_DEVICES, --shard k/N over the GPU cells) and
// once for the CPU cells, each worker on its own share of the cores and recording into
// OUT/.workers/<name>, then merges them into OUT (gpus_run.hpp); this file holds the pure parts.
// The CPU cells are a queue (cell_queue.hpp): as each GPU worker ends, a helper worker on its
// cores takes CPU cells from it too, so no core idles while CPU cells wait.
// With --gpu-replicas every GPU worker runs all GPU cells, to measure GPU-to-GPU spread, and the
// merge keeps each GPU's entries (src/results/shard_merge.hpp).
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bench/driver/provenance.hpp"

namespace gcbench::driver {
struct Options;
}

namespace gcbench::driver {

// --gpus's value: "all", or distinct GPUs, each named by its index as nvidia-smi numbers them
// or by its UUID ("GPU-<hex>", as nvidia-smi -L prints it).
struct GpuRequest {
  bool all = false;
  std::vector<std::string> gpus;  // indices ("2") and UUIDs (hex in lower case), in the order given
};

// Throws std::invalid_argument naming the problem: neither an index nor a UUID, negative, the
// same index or UUID twice.
GpuRequest parse_gpus(std::string_view text);

// `gpus` (as the CUDA runtime lists them) ordered by PCI bus id and numbered from 0 in that
// order: nvidia-smi's numbering, whatever CUDA_DEVICE_ORDER says.
std::vector<GpuIdentity> number_by_bus(std::vector<GpuIdentity> gpus);

// The GPUs of `present` (numbered) that `request` names, in its order. Throws
// std::invalid_argument for an index or a UUID this host does not have, naming what it has,
// and for one GPU named twice (by its index and by its UUID).
std::vector<GpuIdentity> choose_gpus(const GpuRequest& request,
                                     const std::vector<GpuIdentity>& present);

// A GPU worker's cores at most: the pipeline's staging copies saturate a PCIe link with about
// eight threads (src/gpu/pipeline.cpp), plus the threads issuing and draining chunks.
inline constexpr int kMaxGpuWorkerCores = 10;

struct CoreSplit {
  std::vector<std::vector<int>> gpu_workers;  // one core list per GPU worker
  std::vector<int> cpu_worker;                // empty when there is no CPU worker
  bool shared = false;  // too few cores to split: every worker runs on all of them
};

// Splits `cores` (this process's, ascending) into contiguous blocks: each GPU worker gets
// cores / (workers + 1) of them, at most kMaxGpuWorkerCores, and the CPU worker the rest (with
// no CPU worker the GPU workers split all of them evenly). With fewer cores than workers,
// every worker gets every core and `shared` says so.
CoreSplit split_cores(const std::vector<int>& cores, int gpu_workers, bool cpu_worker);

// "0-7,16,18-19" for {0..7, 16, 18, 19} (ascending).
std::string format_core_list(const std::vector<int>& cores);

// This thread's affinity mask as core ids, ascending.
std::vector<int> affinity_cores();

struct Worker {
  std::string name;                // "gpu<index>" or "cpu"
  std::optional<GpuIdentity> gpu;  // none for the CPU worker
  std::vector<int> cores;
  std::filesystem::path out_dir;       // OUT/.workers/<name>
  std::filesystem::path harness_file;  // OUT/.workers/<name>.harness: its run's harness line
  std::vector<std::string> args;       // gcbench's arguments, without the program
  std::vector<std::pair<std::string, std::string>> env;  // set on top of the parent's
};

// OUT/.workers: hidden, so that the report tool and the recorder, which skip hidden folders,
// read OUT's merged results and not the workers' as well.
std::filesystem::path workers_dir(const std::filesystem::path& out_dir);

// What every worker is given: `benchmark_args` (the Google Benchmark flags the user gave, but
// --benchmark_out and --benchmark_out_format, which the parent handles), then the gcbench flags
// that `options` was given, each as one "--flag=value" argument, but those the parent sets per
// worker or handles itself: --gpus, --gpu-replicas, --out-dir, --device, --harness-file.
std::vector<std::string> worker_base_args(const Options& options,
                                          const std::vector<std::string>& benchmark_args);

// Where the workers that run CPU cells claim them (cell_queue.hpp): OUT/.workers/.cpu-claims.
std::filesystem::path claims_dir(const std::filesystem::path& out_dir);

// The name of the worker that takes CPU cells on `gpu_worker`'s cores once its GPU cells are
// done: "cpu-" + its name.
std::string queue_helper_name(const std::string& gpu_worker);

// That worker, for the GPU worker `freed` of plan_workers: `base_args` and the CPU worker's
// device and claim folder, its own --out-dir and --harness-file, and --also-recorded the CPU
// worker's folder (`cpu`), into which its results are folded at the end of the run.
Worker queue_helper(const std::vector<std::string>& base_args, const Worker& freed,
                    const Worker& cpu, const std::filesystem::path& out_dir);

// One worker per GPU in `gpus` (shard k of gpus.size(), or with `replicas` each --shard 1/1:
// all GPU cells), then the CPU worker when `cpu_worker`, each with its cores from `split` and
// `base_args` (worker_base_args) before its own. The CPU worker takes its cells from the queue
// in claims_dir, which queue_helper workers share.
std::vector<Worker> plan_workers(const std::vector<std::string>& base_args,
                                 const std::vector<GpuIdentity>& gpus, const CoreSplit& split,
                                 const std::filesystem::path& out_dir, bool cpu_worker,
                                 bool replicas);

}  // namespace gcbench::driver
