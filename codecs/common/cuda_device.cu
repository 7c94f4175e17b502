#include <string>

#include "cuda_check.hpp"

namespace gcbench::cuda {

bool available() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

void require_device() {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no device" error for later callers
    throw DeviceUnavailable(std::string("no CUDA device: ") + cudaGetErrorString(err));
  }
  if (count == 0) throw DeviceUnavailable("no CUDA device: the runtime reports 0 devices");
}

}  // namespace gcbench::cuda
