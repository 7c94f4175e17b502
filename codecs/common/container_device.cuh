#pragma once
// The container (include/gcbench/container.hpp) on the device: writing its header after a
// compression, checking it at the start of a decompression, the decoders' status word, and a
// byte copy to or from the unaligned offsets the container's layout has.
#include <cuda_runtime.h>

#include <cstdint>

#include "gcbench/container.hpp"
#include "gcbench/device_codec.hpp"

namespace gcbench::cuda {

// First error wins; later ones are dropped.
__device__ __forceinline__ void set_error(DeviceStatus* status, std::uint32_t code,
                                          std::uint64_t detail = 0) {
  if (atomicCAS(&status->error, 0u, code) == 0u) status->detail = detail;
}

// Header at out[0, 32) for a payload of *payload_size bytes (device) and an original of
// `original_size` bytes with CRC-32 *crc (device); *out_size = 32 + *payload_size.
void write_container_header_async(std::uint8_t* out, FormatId codec, std::uint64_t original_size,
                                  const std::uint64_t* payload_size, const std::uint32_t* crc,
                                  std::uint64_t* out_size, cudaStream_t stream);

// Clears *status, then sets kHeaderMismatch if container[0, 32) differs from `planned` (the
// header the plan was made from, on the host).
void begin_decode_async(const std::uint8_t* container, ByteSpan planned, DeviceStatus* status,
                        cudaStream_t stream);

// dst[0, n) = src[0, n) for any alignment of either, in aligned 4-byte stores. The second
// form reads n from device memory (*n <= max_n), for sizes only the device knows.
void copy_bytes_async(std::uint8_t* dst, const std::uint8_t* src, std::uint64_t n,
                      cudaStream_t stream);
void copy_bytes_async(std::uint8_t* dst, const std::uint8_t* src, const std::uint64_t* n,
                      std::uint64_t max_n, cudaStream_t stream);

// dst[0, prefix.size()) = prefix (host bytes, at most 64), then dst[prefix.size() + i] =
// device_tail[i] for i < tail_bytes (at most 64).
void write_prefix_async(std::uint8_t* dst, ByteSpan prefix, const std::uint8_t* device_tail,
                        std::uint32_t tail_bytes, cudaStream_t stream);

// *dst = value, in the stream's order.
void set_u64_async(std::uint64_t* dst, std::uint64_t value, cudaStream_t stream);

// Little-endian loads and stores at any alignment.
template <typename T>
__device__ __forceinline__ T load_le(const std::uint8_t* p) {
  std::uint64_t v = 0;
#pragma unroll
  for (unsigned i = 0; i < sizeof(T); ++i) v |= std::uint64_t{p[i]} << (8 * i);
  return static_cast<T>(v);
}

template <typename T>
__device__ __forceinline__ void store_le(std::uint8_t* p, T value) {
#pragma unroll
  for (unsigned i = 0; i < sizeof(T); ++i) {
    p[i] = static_cast<std::uint8_t>(static_cast<std::uint64_t>(value) >> (8 * i));
  }
}

// dst[0, n) = src[0, n) for any alignment of either, by every thread of the grid: word j of
// dst's aligned part gathers 4 source bytes from two aligned source words; the last words whose
// second source word would reach past the source are copied byte by byte.
__device__ __forceinline__ void copy_bytes(std::uint8_t* __restrict__ dst,
                                           const std::uint8_t* __restrict__ src, std::uint64_t n) {
  using u64 = std::uint64_t;
  const auto head =
      static_cast<std::uint32_t>(min(n, u64{(4 - reinterpret_cast<std::uintptr_t>(dst) % 4) % 4}));
  const u64 words = (n - head) / 4;
  // The second source word of word j ends at byte 4j + 7 - shift <= 4j + 6 of the source part.
  const u64 safe_words = min(words, n - head >= 7 ? (n - head - 7) / 4 + 1 : 0);
  const u64 stride = u64{gridDim.x} * blockDim.x;
  const u64 t0 = u64{blockIdx.x} * blockDim.x + threadIdx.x;
  if (t0 < head) dst[t0] = src[t0];
  const std::uint8_t* s = src + head;
  auto* d = reinterpret_cast<std::uint32_t*>(dst + head);
  const auto shift = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(s) % 4);
  const auto* s_words = reinterpret_cast<const std::uint32_t*>(s - shift);
  for (u64 j = t0; j < words; j += stride) {
    if (shift == 0) {
      d[j] = s_words[j];
    } else if (j < safe_words) {
      d[j] = __funnelshift_r(s_words[j], s_words[j + 1], 8 * shift);
    } else {
      d[j] = load_le<std::uint32_t>(s + 4 * j);
    }
  }
  const u64 done = head + 4 * words;
  if (t0 < n - done) dst[done + t0] = src[done + t0];
}

// dst[0, 4 * count) = src[0, count) as little-endian words, dst at any alignment, by the threads
// of one block: aligned 4-byte stores, and single bytes in the partial words at either end,
// which the writers of the neighbouring bytes share.
__device__ __forceinline__ void block_store_words(std::uint8_t* dst, const std::uint32_t* src,
                                                  std::uint32_t count) {
  const auto s = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(dst) % 4);
  if (s == 0) {
    for (std::uint32_t j = threadIdx.x; j < count; j += blockDim.x) {
      reinterpret_cast<std::uint32_t*>(dst)[j] = src[j];
    }
    return;
  }
  if (count == 0) return;
  if (threadIdx.x < 4 - s) dst[threadIdx.x] = static_cast<std::uint8_t>(src[0] >> 8 * threadIdx.x);
  if (threadIdx.x < s) {
    dst[4 * count - s + threadIdx.x] =
        static_cast<std::uint8_t>(src[count - 1] >> 8 * (4 - s + threadIdx.x));
  }
  auto* words = reinterpret_cast<std::uint32_t*>(dst + 4 - s);
  for (std::uint32_t j = threadIdx.x; j + 1 < count; j += blockDim.x) {
    words[j] = __funnelshift_r(src[j], src[j + 1], 8 * (4 - s));
  }
}

}  // namespace gcbench::cuda
