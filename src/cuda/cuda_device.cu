#include <string>

#include "src/cuda/cuda_check.hpp"

namespace gcbench::cuda {

bool available() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

std::string no_device_reason() {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err == cudaSuccess && count > 0) return "";
  cudaGetLastError();  // the sticky "no device" error, for later callers
  // The runtime's words for a machine without a driver ("CUDA driver version is insufficient
  // for CUDA runtime version") read like a version problem.
  const std::string detail = err == cudaErrorInsufficientDriver ? "no NVIDIA driver on this machine"
                             : err == cudaErrorNoDevice || err == cudaSuccess
                                 ? "no GPU visible to this process"
                                 : cudaGetErrorString(err);
  return "no CUDA device (" + detail + ")";
}

void require_device() {
  if (const std::string why = no_device_reason(); !why.empty()) throw DeviceUnavailable(why);
}

}  // namespace gcbench::cuda
