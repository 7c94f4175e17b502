#pragma once
// The CRC-32 of a tile of data that a block of kCrcThreads threads holds in registers, for
// kernels that read or write the data anyway (the CRC then costs no memory traffic) and for
// crc32.cu's own pass, on the tensor cores: b1 MMAs (AND + POPC) multiply the data's bits by
// the CRC's matrix, 4 MMAs per 512 bytes of a warp (crc32_mma_tables.hpp says how); table
// look-ups per byte bound every fused kernel (bench/NOTES.md, "CRC-32 on the tensor cores").
// Two layouts of a tile:
//   RowsCrc<R>:    R rows of kCrcThreads 16-byte vectors, row after row in memory; thread t
//                  holds vector t of every row (coalesced loads and stores);
//   BlockedCrc<S>: thread t holds bytes [t * S, (t + 1) * S) of the tile, S a multiple of 8.
// Every lane of a warp must make the same calls (mma.sync is warp-wide): a kernel computes a
// tile's CRC only where the whole block holds a whole tile. The A operands are read through
// L1 (a few KiB, hot in every SM) and each warp XORs its part into the tile's slot, which
// crc32_fused_tiles() zeroed: no shared memory, no prologue and no block barrier.
#include <cuda_runtime.h>

#include <cstdint>

#include "codecs/common/crc32_mma_tables.hpp"
#include "codecs/common/device_elements.cuh"

namespace gcbench::cuda {

inline constexpr std::uint32_t kCrcThreads = crc::mma::kThreads;
inline constexpr std::uint32_t kCrcVector = 16;

namespace crc_detail {

// One copy per translation unit and geometry, computed by the compiler.
template <typename G>
static __device__ const crc::mma::Operands<G> kOperands = crc::mma::make_operands<G>();
template <typename G>
static __device__ const crc::mma::ReduceOperands<G> kReduce = crc::mma::make_reduce_operands<G>();

__device__ __forceinline__ void mma_b1(std::uint32_t (&c)[4], uint4 a, std::uint32_t b0,
                                       std::uint32_t b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc {%0,%1,%2,%3}, "
      "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
      : "+r"(c[0]), "+r"(c[1]), "+r"(c[2]), "+r"(c[3])
      : "r"(a.x), "r"(a.y), "r"(a.z), "r"(a.w), "r"(b0), "r"(b1));
}

}  // namespace crc_detail

template <typename G>
class TileCrc {
 public:
  // Step s of the tile (crc32_mma_tables.hpp): two words of this lane's data.
  __device__ __forceinline__ void add_step(std::uint32_t step, std::uint32_t b0, std::uint32_t b1) {
    const std::uint32_t lane = threadIdx.x % 32;
    const auto* a = reinterpret_cast<const uint4*>(crc_detail::kOperands<G>.a[step]);
    crc_detail::mma_b1(acc_[0], __ldg(a + lane), b0, b1);
    crc_detail::mma_b1(acc_[1], __ldg(a + 32 + lane), b0, b1);
  }

  // XORs this warp's part of the tile's raw CRC into *slot (zeroed before the kernel). Every
  // lane of the warp calls it.
  __device__ __forceinline__ void reduce_into(std::uint32_t* slot) const {
    reduce_into(slot, threadIdx.x / 32);
  }

  // The same for the part of warp `warp` of the tile's block, where the kernel's warps are not
  // the tile's (a warp whose data is that part).
  __device__ __forceinline__ void reduce_into(std::uint32_t* slot, std::uint32_t warp) const {
    const std::uint32_t lane = threadIdx.x % 32;
    const std::uint32_t g = lane / 4;
    // This lane's parities of columns 2t and 2t + 1 at their CRC bits' places, carried to the
    // tile's end by one more MMA a half: 2 MMAs where a reduction of the columns across the
    // lanes, then a shift by a table look-up per bit, took about 75 instructions a warp.
    std::uint32_t even = 0, odd = 0;
#pragma unroll
    for (std::uint32_t h = 0; h < 2; ++h) {
      even |= (acc_[h][0] & 1u) << (16 * h + g) | (acc_[h][2] & 1u) << (16 * h + g + 8);
      odd |= (acc_[h][1] & 1u) << (16 * h + g) | (acc_[h][3] & 1u) << (16 * h + g + 8);
    }
    const auto* a = reinterpret_cast<const uint4*>(crc_detail::kReduce<G>.a[warp]);
    std::uint32_t c[2][4] = {};
    crc_detail::mma_b1(c[0], __ldg(a + lane), even, odd);
    crc_detail::mma_b1(c[1], __ldg(a + 32 + lane), even, odd);
    // Bit m of the result: the parity of row m over the 8 columns (lanes of one g hold two each).
    std::uint32_t y = 0;
#pragma unroll
    for (std::uint32_t h = 0; h < 2; ++h) {
      const std::uint32_t row_g = (c[h][0] ^ c[h][1]) & 1u, row_g8 = (c[h][2] ^ c[h][3]) & 1u;
      y |= row_g << (16 * h + g) | row_g8 << (16 * h + g + 8);
    }
    y = __reduce_xor_sync(0xFFFFFFFFu, y);
    if (lane == 0) atomicXor(slot, y);
  }

 protected:
  std::uint32_t acc_[2][4] = {};
};

template <std::uint32_t R>
using RowsGeometry = crc::mma::RowsGeometry<R>;
template <std::uint32_t S>
using BlockedGeometry = crc::mma::BlockedGeometry<S>;

template <std::uint32_t R>
class RowsCrc : public TileCrc<RowsGeometry<R>> {
 public:
  // Row r of the tile: this thread's vector of it.
  __device__ __forceinline__ void add_row(std::uint32_t r, uint4 v) {
    this->add_step(2 * r, v.x, v.y);
    this->add_step(2 * r + 1, v.z, v.w);
  }
};

// A decoder's row r of a tile: this thread's vector of it stored (the elements below n) and, in
// a tile whose CRC the kernel computes, added to it.
template <typename T, std::uint32_t R>
__device__ __forceinline__ void store_row(T* out, std::uint64_t n, std::uint64_t i0,
                                          std::uint32_t r, const T (&v)[kPerVector<T>],
                                          bool crc_tile, RowsCrc<R>& crc) {
  store_vector_within(out, n, i0, v);
  if (crc_tile) crc.add_row(r, to_vector(v));
}

// Blocked: K elements of T (K * sizeof(T) a multiple of 8) as the thread's segment; the
// tile's CRC XORed into *slot as TileCrc::reduce_into() does, for the part of warp `warp`.
template <typename T, int K>
__device__ __forceinline__ void blocked_crc_into(const T (&v)[K], std::uint32_t* slot,
                                                 std::uint32_t warp = threadIdx.x / 32) {
  constexpr int kPerWord = 4 / sizeof(T);
  constexpr int kWords = K / kPerWord;
  static_assert(K % kPerWord == 0 && kWords % 2 == 0);
  std::uint32_t words[kWords];
#pragma unroll
  for (int w = 0; w < kWords; ++w) {
    std::uint32_t word = 0;
#pragma unroll
    for (int k = 0; k < kPerWord; ++k) {
      word |= static_cast<std::uint32_t>(v[w * kPerWord + k]) << (8 * sizeof(T) * k);
    }
    words[w] = word;
  }
  TileCrc<BlockedGeometry<K * sizeof(T)>> crc;
#pragma unroll
  for (int p = 0; p < kWords / 2; ++p) crc.add_step(p, words[2 * p], words[2 * p + 1]);
  crc.reduce_into(slot, warp);
}

}  // namespace gcbench::cuda
