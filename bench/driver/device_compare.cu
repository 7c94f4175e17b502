#include "bench/driver/device_compare.hpp"

#include <algorithm>

#include "src/cuda/cuda_check.hpp"
#include "src/cuda/device_buffer.hpp"

namespace gcbench::driver {
namespace {

// The lowest offset where a and b differ, into *first (which starts at n): each thread compares
// 16-byte words where both are aligned alike, bytes otherwise, and keeps its lowest difference.
// One pass over both buffers, no temporary storage to read back but one u64 (thrust::mismatch
// reduced over tuples whose padding compute-sanitizer's initcheck reports as uninitialized).
__global__ void first_difference_kernel(const std::uint8_t* a, const std::uint8_t* b,
                                        std::uint64_t n, unsigned long long* first) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  const std::uint64_t start = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  constexpr std::uint64_t kWord = 16;
  const bool aligned = reinterpret_cast<std::uintptr_t>(a) % kWord == 0 &&
                       reinterpret_cast<std::uintptr_t>(b) % kWord == 0;
  const std::uint64_t words = aligned ? n / kWord : 0;
  for (std::uint64_t w = start; w < words; w += stride) {
    const uint4 x = reinterpret_cast<const uint4*>(a)[w];
    const uint4 y = reinterpret_cast<const uint4*>(b)[w];
    if (x.x != y.x || x.y != y.y || x.z != y.z || x.w != y.w) {
      for (std::uint64_t i = w * kWord; i < (w + 1) * kWord; ++i) {
        if (a[i] != b[i]) {
          atomicMin(first, static_cast<unsigned long long>(i));
          break;
        }
      }
      return;  // later words of this thread lie past this difference
    }
  }
  for (std::uint64_t i = words * kWord + start; i < n; i += stride) {
    if (a[i] != b[i]) {
      atomicMin(first, static_cast<unsigned long long>(i));
      return;
    }
  }
}

}  // namespace

std::optional<std::uint64_t> first_device_difference(const std::uint8_t* a, const std::uint8_t* b,
                                                     std::uint64_t n, cudaStream_t stream) {
  if (n == 0) return std::nullopt;
  cuda::DeviceBuffer<unsigned long long> first(1);
  const unsigned long long none = n;
  GCB_CUDA(cudaMemcpyAsync(first.data(), &none, sizeof none, cudaMemcpyHostToDevice, stream));
  const std::uint64_t blocks = std::min<std::uint64_t>((n / 16 + 255) / 256 + 1, 4096);
  first_difference_kernel<<<static_cast<unsigned>(blocks), 256, 0, stream>>>(a, b, n, first.data());
  GCB_CUDA_LAUNCHED();
  unsigned long long at = n;
  GCB_CUDA(cudaMemcpyAsync(&at, first.data(), sizeof at, cudaMemcpyDeviceToHost, stream));
  GCB_CUDA(cudaStreamSynchronize(stream));
  if (at >= n) return std::nullopt;
  return static_cast<std::uint64_t>(at);
}

namespace {

// The sentinels as a kernel parameter (576 bytes, within the 4 KiB a launch takes).
struct SentinelArgs {
  std::uint64_t at[kSentinels];
  std::uint8_t value[kSentinels];
  unsigned count;
};

__global__ void plant(std::uint8_t* output, SentinelArgs s) {
  if (threadIdx.x < s.count) output[s.at[threadIdx.x]] = s.value[threadIdx.x];
}

}  // namespace

void plant_sentinels_async(std::uint8_t* output, const Sentinels& sentinels, cudaStream_t stream) {
  SentinelArgs args{};
  args.count = static_cast<unsigned>(std::min(sentinels.positions().size(), kSentinels));
  if (args.count == 0) return;
  std::copy_n(sentinels.positions().begin(), args.count, args.at);
  std::copy_n(sentinels.values().begin(), args.count, args.value);
  plant<<<1, kSentinels, 0, stream>>>(output, args);
  GCB_CUDA_LAUNCHED();
}

}  // namespace gcbench::driver
