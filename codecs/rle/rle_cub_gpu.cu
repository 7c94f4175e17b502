// rle-cub: the baseline GPU RLE compressor, cub::DeviceRunLengthEncode::Encode, writing the
// same container as rle (its assembly and decoders are rle's; the codec class is rle_gpu.cpp).
#include <cub/device/device_run_length_encode.cuh>

#include "src/cuda/cuda_check.hpp"
#include "codecs/common/device_elements.cuh"
#include "codecs/common/elements.hpp"
#include "codecs/rle/detail/long_runs.cuh"
#include "codecs/rle/rle_gpu.hpp"

namespace gcbench::rle::gpu {
namespace {

using cuda::kBlockThreads;
using detail::u32;
using detail::u64;

// Counts of a CUB encoding are true lengths: clamp the long ones and list them.
__global__ void clamp_kernel(u32* counts, const u64* run_count, u64 max_count,
                             detail::LongRun* long_runs, u32* long_count, u32 capacity) {
  const u64 runs = *run_count;
  for (u64 r = u64{blockIdx.x} * kBlockThreads + threadIdx.x; r < runs;
       r += u64{gridDim.x} * kBlockThreads) {
    counts[r] = detail::clamp_count(r, counts[r], max_count, long_runs, long_count, capacity);
  }
}

}  // namespace

std::size_t cub_encode_temp_bytes(std::uint64_t n, std::uint32_t width) {
  std::size_t bytes = 0;
  with_element_type(width, [&](auto tag) {
    using T = decltype(tag);
    GCB_CUDA(cub::DeviceRunLengthEncode::Encode(
        nullptr, bytes, static_cast<const T*>(nullptr), static_cast<T*>(nullptr),
        static_cast<std::uint32_t*>(nullptr), static_cast<std::uint64_t*>(nullptr),
        static_cast<int>(n)));
  });
  return bytes;
}

void cub_encode(const std::uint8_t* in, std::uint64_t n, std::uint32_t width, void* temp,
                std::size_t temp_bytes, std::uint32_t* counts, std::uint8_t* values,
                std::uint64_t* run_count, const LongRuns& long_runs, cudaStream_t stream) {
  with_element_type(width, [&](auto tag) {
    using T = decltype(tag);
    GCB_CUDA(cub::DeviceRunLengthEncode::Encode(temp, temp_bytes, reinterpret_cast<const T*>(in),
                                                reinterpret_cast<T*>(values), counts, run_count,
                                                static_cast<int>(n), stream));
  });
  if (long_runs.max_count < n) {
    clamp_kernel<<<cuda::persistent_grid(), kBlockThreads, 0, stream>>>(
        counts, run_count, long_runs.max_count, long_runs.runs, long_runs.count,
        long_runs.capacity);
    GCB_CUDA_LAUNCHED();
  }
}

}  // namespace gcbench::rle::gpu
