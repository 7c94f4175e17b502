#pragma once
// Launches for chains of short kernels on one stream.
#include <cuda_runtime.h>

#include <utility>

#include "src/cuda/cuda_check.hpp"

namespace gcbench::cuda {

// Launches `kernel` so that it may begin while the kernel before it on `stream` still runs
// (Hopper's programmatic dependent launch), once every block of that kernel has called
// cudaTriggerProgrammaticLaunchCompletion(): its launch's latency then hides behind that kernel.
// Every thread must call cudaGridDependencySynchronize() before it reads what the kernel before
// wrote. Without a trigger, or before Hopper, it runs after that kernel as a plain launch does.
template <typename... Params, typename... Args>
void launch_overlapping(void (*kernel)(Params...), dim3 grid, dim3 block, cudaStream_t stream,
                        Args&&... args) {
  cudaLaunchAttribute overlap{};
  overlap.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  overlap.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = block;
  config.stream = stream;
  config.attrs = &overlap;
  config.numAttrs = 1;
  GCB_CUDA(cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...));
}

}  // namespace gcbench::cuda
