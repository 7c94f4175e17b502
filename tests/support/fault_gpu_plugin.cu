// A GPU codec plugin that misbehaves on request, for the GPU guest tests: a device copy codec
// (an 8-byte size, then the bytes) whose `fault` axis makes both directions skip the work of a
// call repeated on the same buffers, write 8 bytes past their output, or fault on an illegal
// address (a sticky error: the CUDA context is lost). GPU path only.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

#include "gcbench/plugin.h"

namespace {

enum Fault : std::int64_t { kNone, kSkipRepeat, kOverflow, kIllegalAddress };

constexpr std::uint64_t kSizeBytes = 8;

struct LastCall {
  const void* from = nullptr;
  const void* to = nullptr;
};
LastCall last_compress, last_decompress;

bool skip(std::int64_t fault, LastCall& last, const void* from, const void* to) {
  const bool same = last.from == from && last.to == to;
  last = {from, to};
  return fault == kSkipRepeat && same;
}

// The container's size field and the size output, written on the device.
__global__ void write_sizes(std::uint8_t* header, std::uint64_t* output_size, std::uint64_t size) {
  for (int i = 0; i < 8; ++i) header[i] = static_cast<std::uint8_t>(size >> (8 * i));
  *output_size = kSizeBytes + size;
}

__global__ void set_status(gcbench_plugin_device_status* status, std::uint64_t size) {
  *status = {0, 0, 0, size};
}

__global__ void touch(std::uint8_t* p) {
  *p = 1;  // an address no allocation holds: the kernel faults
}

int status_of(cudaError_t e, char* message, std::size_t capacity) {
  if (e == cudaSuccess) return GCBENCH_PLUGIN_OK;
  std::snprintf(message, capacity, "%s", cudaGetErrorString(e));
  return GCBENCH_PLUGIN_ERROR_INTERNAL;
}

// The faults both directions commit after their work.
cudaError_t misbehave(std::int64_t fault, std::uint8_t* output, std::uint64_t capacity,
                      cudaStream_t stream) {
  if (fault == kOverflow) return cudaMemsetAsync(output + capacity, 0x5a, 8, stream);
  if (fault == kIllegalAddress) {
    touch<<<1, 1, 0, stream>>>(reinterpret_cast<std::uint8_t*>(std::uintptr_t{1} << 46));
    return cudaGetLastError();
  }
  return cudaSuccess;
}

std::uint64_t max_compressed_size(const std::int64_t*, std::uint64_t input_size) {
  return kSizeBytes + input_size;
}

std::size_t compress_temp_bytes(const std::int64_t*, std::uint64_t) {
  return 0;
}

int compress_async(const std::int64_t* params, const std::uint8_t* input, std::uint64_t input_size,
                   void*, std::size_t, std::uint8_t* output, std::uint64_t* output_size,
                   void* stream_ptr, char* message, std::size_t capacity) {
  auto stream = static_cast<cudaStream_t>(stream_ptr);
  if (skip(params[0], last_compress, input, output)) return GCBENCH_PLUGIN_OK;
  write_sizes<<<1, 1, 0, stream>>>(output, output_size, input_size);
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess && input_size > 0) {
    e = cudaMemcpyAsync(output + kSizeBytes, input, input_size, cudaMemcpyDeviceToDevice, stream);
  }
  if (e == cudaSuccess) e = misbehave(params[0], output, kSizeBytes + input_size, stream);
  return status_of(e, message, capacity);
}

int plan_decompress(const std::int64_t*, const std::uint8_t* container, std::uint64_t size,
                    gcbench_plugin_plan* plan, char* message, std::size_t capacity) {
  std::uint64_t claimed = 0;
  if (size < kSizeBytes) {
    std::snprintf(message, capacity, "shorter than its size field");
    return GCBENCH_PLUGIN_ERROR_CORRUPT;
  }
  std::memcpy(&claimed, container, kSizeBytes);
  if (claimed != size - kSizeBytes) {
    std::snprintf(message, capacity, "its size field does not match");
    return GCBENCH_PLUGIN_ERROR_CORRUPT;
  }
  *plan = {};
  plan->decompressed_size = claimed;
  return GCBENCH_PLUGIN_OK;
}

int decompress_async(const std::int64_t* params, const gcbench_plugin_plan* plan,
                     const std::uint8_t* container, std::uint64_t, void*, std::size_t,
                     std::uint8_t* output, gcbench_plugin_device_status* status, void* stream_ptr,
                     char* message, std::size_t capacity) {
  auto stream = static_cast<cudaStream_t>(stream_ptr);
  if (skip(params[0], last_decompress, container, output)) return GCBENCH_PLUGIN_OK;
  cudaError_t e = cudaSuccess;
  if (plan->decompressed_size > 0) {
    e = cudaMemcpyAsync(output, container + kSizeBytes, plan->decompressed_size,
                        cudaMemcpyDeviceToDevice, stream);
  }
  if (e == cudaSuccess) {
    set_status<<<1, 1, 0, stream>>>(status, plan->decompressed_size);
    e = cudaGetLastError();
  }
  if (e == cudaSuccess) e = misbehave(params[0], output, plan->decompressed_size, stream);
  return status_of(e, message, capacity);
}

const char* const kFaultNames[] = {"none", "skip_repeat", "overflow", "illegal_address"};
const gcbench_plugin_axis kAxes[] = {
    {"fault", "what the codec does wrong", kNone, 0, 3, nullptr, 0, kFaultNames, 4, 0, nullptr, 0},
};
const gcbench_plugin_gpu kGpu = {max_compressed_size, compress_temp_bytes, compress_async,
                                 plan_decompress, decompress_async};
const gcbench_plugin kPlugin = {GCBENCH_PLUGIN_ABI_VERSION,
                                "faulty-gpu",
                                "1",
                                "misbehaves on the GPU on request",
                                kAxes,
                                1,
                                nullptr,
                                &kGpu,
                                0};

}  // namespace

extern "C" const gcbench_plugin* gcbench_plugin_entry(void) {
  return &kPlugin;
}
