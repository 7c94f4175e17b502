#pragma once
// Device helpers shared by the FL and RLE kernels: element types by width, 16-byte vector
// loads and stores of whole element groups, cheap division, launch sizes and shared-memory
// padding.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "codecs/common/elements.hpp"
#include "src/cuda/cuda_check.hpp"

namespace gcbench::cuda {

inline constexpr int kBlockThreads = 256;

using gcbench::with_element_type;

// Index k of a shared array with one word of padding after every 32: a thread that fills a
// run of consecutive words, with the lanes' runs m words apart, puts each store of a warp on
// its own bank instead of 32 / m lanes on one (for word-sized elements).
__host__ __device__ constexpr std::uint32_t bank_padded(std::uint32_t k) {
  return k + k / 32;
}

// *p = v where `when` holds, as one predicated shared-memory store: in an unrolled loop that
// stores at a few of its steps, a branch around each store costs more than the store.
template <typename T>
__device__ __forceinline__ void store_shared_if(bool when, T* p, T v) {
  const auto at = static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
  const auto q = static_cast<std::uint32_t>(when);
  const auto x = static_cast<std::uint32_t>(v);  // PTX stores 8 and 16 bits from 32-bit registers
  if constexpr (sizeof(T) == 4) {
    asm volatile("{.reg .pred q; setp.ne.u32 q, %0, 0; @q st.shared.b32 [%1], %2;}" ::"r"(q),
                 "r"(at), "r"(x)
                 : "memory");
  } else if constexpr (sizeof(T) == 2) {
    asm volatile("{.reg .pred q; setp.ne.u32 q, %0, 0; @q st.shared.b16 [%1], %2;}" ::"r"(q),
                 "r"(at), "r"(x)
                 : "memory");
  } else {
    static_assert(sizeof(T) == 1);
    asm volatile("{.reg .pred q; setp.ne.u32 q, %0, 0; @q st.shared.b8 [%1], %2;}" ::"r"(q),
                 "r"(at), "r"(x)
                 : "memory");
  }
}

// Largest i in [lo, hi] with offsets[i] <= x, for strictly increasing offsets (validated) and
// offsets[lo] <= x: the frame holding a bit (FL) or the run holding an element (RLE). Offsets: a
// pointer or a view with operator[].
template <typename Offsets>
__device__ __forceinline__ std::uint64_t last_at_or_below(Offsets offsets, std::uint64_t lo,
                                                          std::uint64_t hi, std::uint64_t x) {
  while (lo < hi) {
    std::uint64_t mid = lo + (hi - lo + 1) / 2;
    if (offsets[mid] <= x) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

// Blocks of kBlockThreads for `threads` threads; throws when the grid would exceed CUDA's limit.
inline unsigned grid_for(std::uint64_t threads) {
  std::uint64_t blocks = (threads + kBlockThreads - 1) / kBlockThreads;
  if (blocks > 0x7FFFFFFFull) throw std::runtime_error("input too large for one CUDA grid");
  return static_cast<unsigned>(blocks == 0 ? 1 : blocks);
}

// A grid that fills the device a few times over, for grid-stride kernels.
inline unsigned persistent_grid() {
  int device = 0, sms = 0;
  GCB_CUDA(cudaGetDevice(&device));
  GCB_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return static_cast<unsigned>(sms) * 8;
}

// A grid of blocks that are all resident at once, one wave, for a grid-stride kernel over
// `work` items: SMs times the kernel's occupancy. persistent_grid's 8 blocks an SM leave a
// partial last wave where the blocks resident on an SM do not divide 8 (bench/NOTES.md, "the RLE
// flood decoder in one pass").
template <typename Kernel>
unsigned resident_grid(Kernel kernel, int block_threads, std::uint64_t work,
                       std::size_t dynamic_shared_bytes = 0) {
  int device = 0, sms = 0, per_sm = 0;
  GCB_CUDA(cudaGetDevice(&device));
  GCB_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  GCB_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block_threads,
                                                         dynamic_shared_bytes));
  return static_cast<unsigned>(
      std::max<std::uint64_t>(1, std::min<std::uint64_t>(work, std::uint64_t(sms) * per_sm)));
}

// a / b with 32-bit hardware division whenever a fits (64-bit division is a long emulation).
__device__ __forceinline__ std::uint64_t div_u64(std::uint64_t a, std::uint32_t b) {
  if ((a >> 32) == 0) return static_cast<std::uint32_t>(a) / b;
  return a / b;
}

// 16 bytes of elements T: loaded and stored as one uint4 (the pointer must be 16-byte aligned).
template <typename T>
inline constexpr int kPerVector = 16 / static_cast<int>(sizeof(T));

// The kPerVector<T> elements of 16 bytes as they lie in memory.
template <typename T>
__device__ __forceinline__ void from_vector(uint4 v, T (&out)[kPerVector<T>]) {
  const std::uint32_t words[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
  for (int k = 0; k < kPerVector<T>; ++k) {
    constexpr int kPerWord = 4 / sizeof(T);
    out[k] = static_cast<T>(words[k / kPerWord] >> (8 * sizeof(T) * (k % kPerWord)));
  }
}

template <typename T>
__device__ __forceinline__ void load_vector(const T* p, T (&out)[kPerVector<T>]) {
  from_vector(__ldg(reinterpret_cast<const uint4*>(p)), out);
}

// The 16 bytes of kPerVector<T> elements, as they lie in memory.
template <typename T>
__device__ __forceinline__ uint4 to_vector(const T (&in)[kPerVector<T>]) {
  std::uint32_t words[4] = {0, 0, 0, 0};
#pragma unroll
  for (int k = 0; k < kPerVector<T>; ++k) {
    constexpr int kPerWord = 4 / sizeof(T);
    words[k / kPerWord] |= static_cast<std::uint32_t>(in[k]) << (8 * sizeof(T) * (k % kPerWord));
  }
  return make_uint4(words[0], words[1], words[2], words[3]);
}

template <typename T>
__device__ __forceinline__ void store_vector(T* p, const T (&in)[kPerVector<T>]) {
  *reinterpret_cast<uint4*>(p) = to_vector(in);
}

// A thread's vector of elements i0 on, in `out` of n elements: those past n are dropped.
// Constant indices in the partial case keep `in` in registers (a loop bounded by n indexes it
// with a variable, which puts it on the stack for every call: bench/NOTES.md, "FL decompression
// staged in shared memory").
template <typename T>
__device__ __forceinline__ void store_vector_within(T* out, std::uint64_t n, std::uint64_t i0,
                                                    const T (&in)[kPerVector<T>]) {
  if (i0 + kPerVector<T> <= n) {
    store_vector(out + i0, in);
    return;
  }
#pragma unroll
  for (int k = 0; k < kPerVector<T>; ++k) {
    if (i0 + k < n) out[i0 + k] = in[k];
  }
}

// K elements from i0 on (K a multiple of kPerVector<T>, i0 a multiple of K), zero past n.
template <int K, typename T>
__device__ __forceinline__ void load_items(const T* in, std::uint64_t n, std::uint64_t i0,
                                           T (&v)[K]) {
  constexpr int kPer = kPerVector<T>;
  static_assert(K % kPer == 0);
  if (i0 + K <= n) {
#pragma unroll
    for (int c = 0; c < K / kPer; ++c) {
      T part[kPer];
      load_vector(in + i0 + c * kPer, part);
#pragma unroll
      for (int k = 0; k < kPer; ++k) v[c * kPer + k] = part[k];
    }
  } else {
#pragma unroll
    for (int k = 0; k < K; ++k) v[k] = i0 + k < n ? in[i0 + k] : T{0};
  }
}

}  // namespace gcbench::cuda
