#pragma once
// The machine and build context recorded with every result (Google Benchmark's
// AddCustomContext): GPU, CUDA versions, CPU, threads, git revision, zlib, corpus manifest.
#include <string>
#include <utility>
#include <vector>

#include "bench/driver/inputs.hpp"

namespace gcbench::driver {

using ContextEntries = std::vector<std::pair<std::string, std::string>>;

struct GpuStatus {
  bool usable = false;
  ContextEntries context;  // "gpu" is the device name, or "none: <reason>"
};

GpuStatus probe_gpu();
#if GCBENCH_HAVE_CUDA
GpuStatus probe_cuda_gpu();  // gpu_context.cpp, built only with CUDA
#endif

// Everything but the GPU: versions, CPU, the corpora and their missing files, the codecs.
ContextEntries host_context(const Inputs& inputs, const std::vector<std::string>& corpora);

}  // namespace gcbench::driver
