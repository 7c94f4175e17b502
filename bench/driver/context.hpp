#pragma once
// The machine and build context recorded with every result (Google Benchmark's
// AddCustomContext): GPU, CUDA versions, CPU, threads, git revision, zlib, corpus manifest;
// and the provenance each recorded cell carries.
#include <array>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bench/driver/inputs.hpp"
#include "bench/driver/provenance.hpp"

namespace gcbench::driver {

using ContextEntries = std::vector<std::pair<std::string, std::string>>;

// What the GPU's links and memory can do at best, measured once per run (GB/s of bytes
// copied; 0 = not measured): cells state their throughput as a share of these.
struct GpuCeilings {
  double copy_gbps = 0, h2d_pinned_gbps = 0, d2h_pinned_gbps = 0, h2d_pageable_gbps = 0;
};

struct GpuStatus {
  bool usable = false;
  ContextEntries context;  // "gpu" is the device name, or "none: <reason>"
  GpuCeilings ceilings{};  // filled when usable and the measurement succeeded
  std::string uuid;        // "GPU-<hex>", as nvidia-smi names it; empty when not usable
  std::optional<GpuIdentity> identity;  // when usable
};

// The GPU fields read through NVML (gpu_context.cpp): each is in every run's context, as
// "unavailable: <reason>" when there is no GPU or NVML cannot tell.
inline constexpr std::array<const char*, 12> kNvmlFields = {
    "nvidia_driver_version", "gpu_sm_clock_mhz",  "gpu_sm_clock_max_mhz", "gpu_mem_clock_mhz",
    "gpu_mem_clock_max_mhz", "gpu_power_limit_w", "gpu_ecc_mode",         "gpu_persistence_mode",
    "gpu_pcie_gen",          "gpu_pcie_gen_max",  "gpu_pcie_width",       "gpu_pcie_width_max"};
ContextEntries unavailable_nvml_fields(const std::string& reason);

// `ceilings`: also measure the copy ceilings (a second or so; a sweep without GPU cells
// needs none, and records none).
GpuStatus probe_gpu(bool ceilings = true);
#if GCBENCH_HAVE_CUDA
GpuStatus probe_cuda_gpu(bool ceilings);  // gpu_context.cpp, built only with CUDA
#endif

// --cold-l2 for a run with `gpu_cells` GPU cells: whether to flush the L2 before their timed
// calls; when not, the run context's "cold_l2" entry (when flushing, the flush describes
// itself: DeviceCells::l2_flush_context), and for --cold-l2 without GPU cells a note to print
// (it is not an error: the CPU cells run as asked).
struct ColdL2Plan {
  bool flush = false;
  std::string context;
  std::optional<std::string> note;
};
ColdL2Plan plan_cold_l2(bool requested, std::size_t gpu_cells, const std::string& gpu);

// Set by gcbench --gpus for each GPU worker: the worker's GPU in the parent's numbering.
inline constexpr const char* kGpuIndexVariable = "GCBENCH_GPU_INDEX";

// Every GPU the CUDA runtime shows this process (CUDA_VISIBLE_DEVICES applies), in CUDA's
// order, index = the CUDA ordinal. Throws std::runtime_error saying why there is none (built
// without CUDA, no driver, no device).
std::vector<GpuIdentity> list_gpus();
#if GCBENCH_HAVE_CUDA
std::vector<GpuIdentity> list_cuda_gpus();  // gpu_context.cpp
#endif

// The source's revision, read once at run time: "<commit>[-dirty-<digest>]", "<commit>
// (snapshot)", or kUnknownRevision with the reason.
std::string git_revision();

#if GCBENCH_HAVE_CUDA
// "cub_version" (compiled against), "cuda_runtime_version" and, where a driver is installed,
// "cuda_driver_api_version" (the CUDA API level it supports): cheap, no device is opened
// (gpu_context.cpp).
ContextEntries cuda_versions();
// "3.0.1": CUB_VERSION as nvcc saw it (cub_version.cu).
std::string cub_version();
#endif

// Everything but the GPU: versions, CPU, the corpora and their missing files, the codecs, and
// slurm_context's entries inside a Slurm job.
ContextEntries host_context(const Inputs& inputs, const std::vector<std::string>& corpora);

// Inside a Slurm job: "slurm_node", the node's name in Slurm (SLURMD_NODENAME, which tells
// nodes apart that share a host name), and "slurm_job", the array job and task ("17_3 (job
// 20)") or the job id. Nothing outside Slurm. `env`: std::getenv in the driver, a map in tests.
ContextEntries slurm_context(const std::function<const char*(const char*)>& env);

// What this run records its cells under: the source's revision, this binary's build type,
// the registered codecs' versions and the GPU's UUID.
RunProvenance run_provenance(const GpuStatus& gpu);

}  // namespace gcbench::driver
