#pragma once
// Checks for every CUDA runtime call and launch; failures become exceptions with the call site.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "gcbench/errors.hpp"

namespace gcbench::cuda {

[[noreturn]] inline void fail(cudaError_t err, const char* what, const char* file, int line) {
  throw std::runtime_error(std::string("CUDA error ") + cudaGetErrorName(err) + " (" +
                           cudaGetErrorString(err) + ") in " + what + " at " + file + ":" +
                           std::to_string(line));
}

// True when at least one CUDA device can be used by this process.
bool available();

// Why none can, in the one phrase every place says it ("no CUDA device (no NVIDIA driver on this
// machine)"); empty when one can. Clears the runtime's sticky error for later callers.
std::string no_device_reason();

// Throws DeviceUnavailable with the runtime's reason when there is no usable device.
void require_device();

}  // namespace gcbench::cuda

#define GCB_CUDA(call)                                                                       \
  do {                                                                                       \
    cudaError_t gcb_err_ = (call);                                                           \
    if (gcb_err_ != cudaSuccess) ::gcbench::cuda::fail(gcb_err_, #call, __FILE__, __LINE__); \
  } while (0)

// After a <<<...>>> launch: catches bad configurations at once (asynchronous faults surface
// at the next synchronizing call, which is itself checked).
#define GCB_CUDA_LAUNCHED() GCB_CUDA(cudaGetLastError())
