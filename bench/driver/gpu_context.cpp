// GPU context for builds with CUDA: the device the GPU codecs will use, or why there is none.
#include <cuda_runtime.h>

#include <string>

#include "bench/driver/context.hpp"

namespace gcbench::driver {
namespace {

std::string version_text(int v) {
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

}  // namespace

GpuStatus probe_cuda_gpu() {
  GpuStatus status;
  int runtime = 0;
  if (cudaRuntimeGetVersion(&runtime) == cudaSuccess) {
    status.context.emplace_back("cuda_runtime_version", version_text(runtime));
  }
  int driver = 0;
  if (cudaDriverGetVersion(&driver) == cudaSuccess && driver > 0) {
    status.context.emplace_back("cuda_driver_version", version_text(driver));
  }
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    cudaGetLastError();  // clear the sticky error so the codecs see a clean state
    status.context.emplace_back(
        "gpu", std::string("none: ") + (err != cudaSuccess ? cudaGetErrorString(err)
                                                           : "the runtime reports 0 devices"));
    return status;
  }
  int device = 0;
  cudaDeviceProp prop{};
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
    cudaGetLastError();
    status.context.emplace_back("gpu", "none: cannot read the device properties");
    return status;
  }
  status.usable = true;
  status.context.emplace_back("gpu", prop.name);
  status.context.emplace_back("gpu_sm",
                              std::to_string(prop.major) + "." + std::to_string(prop.minor));
  status.context.emplace_back("gpu_count", std::to_string(count));
  status.context.emplace_back("gpu_memory_bytes", std::to_string(prop.totalGlobalMem));
  return status;
}

}  // namespace gcbench::driver
