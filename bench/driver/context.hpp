#pragma once
// The machine and build context recorded with every result (Google Benchmark's
// AddCustomContext): GPU, CUDA versions, CPU, threads, git revision, zlib, corpus manifest.
#include <string>
#include <utility>
#include <vector>

#include "bench/driver/inputs.hpp"

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
};

// `ceilings`: also measure the copy ceilings (a second or so; a sweep without GPU cells
// needs none, and records none).
GpuStatus probe_gpu(bool ceilings = true);
#if GCBENCH_HAVE_CUDA
GpuStatus probe_cuda_gpu(bool ceilings);  // gpu_context.cpp, built only with CUDA
#endif

// Everything but the GPU: versions, CPU, the corpora and their missing files, the codecs.
ContextEntries host_context(const Inputs& inputs, const std::vector<std::string>& corpora);

}  // namespace gcbench::driver
