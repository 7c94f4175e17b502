#pragma once
// The container on the device, for kernels: the decoders' status word, and loads, stores and
// copies at the unaligned offsets the container's layout has. The host-side calls are
// container_device.hpp.
#include <cstdint>

#include "codecs/common/container_device.hpp"

namespace gcbench::cuda {

// First error wins; later ones are dropped.
__device__ __forceinline__ void set_error(DeviceStatus* status, std::uint32_t code,
                                          std::uint64_t detail = 0) {
  if (atomicCAS(&status->error, 0u, code) == 0u) status->detail = detail;
}

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

// Bytes 16 * k + [0, 16) of the 32 in x (low) and y (high), k = 0..15 a byte offset.
__device__ __forceinline__ uint4 bytes_from(uint4 x, uint4 y, std::uint32_t k) {
  const std::uint32_t w[8] = {x.x, x.y, x.z, x.w, y.x, y.y, y.z, y.w};
  std::uint32_t o[5];
  const std::uint32_t q = k / 4;  // whole words; selects, not an indexed array in local memory
#pragma unroll
  for (int m = 0; m < 5; ++m) {
    o[m] = q == 0 ? w[m] : q == 1 ? w[m + 1] : q == 2 ? w[m + 2] : w[m + 3];
  }
  const std::uint32_t r = 8 * (k % 4);
  return make_uint4(__funnelshift_r(o[0], o[1], r), __funnelshift_r(o[1], o[2], r),
                    __funnelshift_r(o[2], o[3], r), __funnelshift_r(o[3], o[4], r));
}

// dst[0, n) = src[0, n) for any alignment of either, by every thread of the grid: 16-byte
// aligned stores, each from the two aligned 16-byte source vectors it straddles; single bytes
// before dst's first aligned vector, after its last, and where the second source vector would
// reach past the source.
__device__ __forceinline__ void copy_bytes(std::uint8_t* __restrict__ dst,
                                           const std::uint8_t* __restrict__ src, std::uint64_t n) {
  using u64 = std::uint64_t;
  const u64 head = min(n, u64{(16 - reinterpret_cast<std::uintptr_t>(dst) % 16) % 16});
  const u64 body = n - head, vectors = body / 16;
  const std::uint8_t* s = src + head;
  const auto k = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(s) % 16);
  const auto* sv = reinterpret_cast<const uint4*>(s - k);
  auto* dv = reinterpret_cast<uint4*>(dst + head);
  // Vector j reads sv[j + 1] when k > 0, which ends at byte 16 j + 32 - k of the body.
  const u64 safe = k == 0 ? vectors : min(vectors, body + k >= 32 ? (body + k - 32) / 16 + 1 : 0);
  const u64 stride = u64{gridDim.x} * blockDim.x;
  const u64 t0 = u64{blockIdx.x} * blockDim.x + threadIdx.x;
  if (t0 < head) dst[t0] = src[t0];
  for (u64 j = t0; j < vectors; j += stride) {
    if (k == 0) {
      dv[j] = sv[j];
    } else if (j < safe) {
      dv[j] = bytes_from(sv[j], sv[j + 1], k);
    } else {
      for (int b = 0; b < 16; ++b) dst[head + 16 * j + b] = s[16 * j + b];
    }
  }
  const u64 done = head + 16 * vectors;
  if (t0 < n - done) dst[done + t0] = src[done + t0];
}

// dst[0, 4 * count) = word(0), ..., word(count - 1) as little-endian words, dst at any
// alignment, by the threads of one block: aligned 4-byte stores, and single bytes in the
// partial words at either end, which the writers of the neighbouring bytes share. word(j) is
// read twice for most j; it must not have side effects.
template <typename Word>
__device__ __forceinline__ void block_store_words(std::uint8_t* dst, std::uint32_t count,
                                                  Word word) {
  const auto s = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(dst) % 4);
  if (s == 0) {
    for (std::uint32_t j = threadIdx.x; j < count; j += blockDim.x) {
      reinterpret_cast<std::uint32_t*>(dst)[j] = word(j);
    }
    return;
  }
  if (count == 0) return;
  if (threadIdx.x < 4 - s) dst[threadIdx.x] = static_cast<std::uint8_t>(word(0) >> 8 * threadIdx.x);
  if (threadIdx.x < s) {
    dst[4 * count - s + threadIdx.x] =
        static_cast<std::uint8_t>(word(count - 1) >> 8 * (4 - s + threadIdx.x));
  }
  auto* words = reinterpret_cast<std::uint32_t*>(dst + 4 - s);
  for (std::uint32_t j = threadIdx.x; j + 1 < count; j += blockDim.x) {
    words[j] = __funnelshift_r(word(j), word(j + 1), 8 * (4 - s));
  }
}

}  // namespace gcbench::cuda
