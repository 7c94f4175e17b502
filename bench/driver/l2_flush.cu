#include "bench/driver/l2_flush.hpp"

#include <algorithm>

namespace gcbench::driver {
namespace {

// Reads every 16-byte word of `words`; the XOR of all is never the sentinel (the buffer is
// zeroed), but the compiler cannot know, so no load is dropped.
__global__ void read_all(const uint4* words, std::uint64_t count, std::uint32_t sentinel,
                         std::uint32_t* sink) {
  std::uint32_t acc = 0;
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count;
       i += stride) {
    const uint4 w = words[i];
    acc ^= w.x ^ w.y ^ w.z ^ w.w;
  }
  if (acc == sentinel) *sink = acc;
}

}  // namespace

L2Flush::L2Flush() {
  int device = 0;
  GCB_CUDA(cudaGetDevice(&device));
  int l2 = 0, sms = 0;
  GCB_CUDA(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
  GCB_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  blocks_ = 4 * std::max(sms, 1);
  l2_bytes_ = static_cast<std::uint64_t>(l2);
  // At least 1 MiB, in whole 16-byte words.
  buffer_.resize(std::max<std::uint64_t>(2 * l2_bytes_, std::uint64_t{1} << 20) / 16 * 16);
  GCB_CUDA(cudaMemset(buffer_.data(), 0, buffer_.bytes()));
}

void L2Flush::enqueue(cudaStream_t stream) {
  const std::uint64_t words = buffer_.bytes() / 16;
  read_all<<<blocks_, 256, 0, stream>>>(reinterpret_cast<const uint4*>(buffer_.data()), words, 1,
                                        sink_.data());
  GCB_CUDA_LAUNCHED();
}

}  // namespace gcbench::driver
