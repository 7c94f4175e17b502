#pragma once
// The CRC-32 of a tile of data that a block of kCrcThreads threads holds in registers, for
// kernels that read or write the data anyway (the CRC then costs no memory traffic) and for
// crc32.cu's own pass. Two layouts of a tile:
//   rows:    `rows` rows of kCrcThreads 16-byte vectors, row after row in memory; thread t
//            holds vector t of every row (coalesced loads and stores);
//   blocked: thread t holds bytes [t * S, (t + 1) * S) of the tile, S a multiple of 4.
// Each thread folds its bytes into one raw CRC (in rows, as if the other threads' bytes
// between its vectors were zeros: the gap is one table multiplication by a power of x), and
// the block combines the threads' CRCs, each shifted by the bytes after its last, by a tree of
// shuffles. Tables: those of the per-byte work in shared memory, the tree's in global memory
// (read once per thread per tile).
#include <cuda_runtime.h>

#include <cstdint>

#include "codecs/common/crc32_math.hpp"

namespace gcbench::cuda {

inline constexpr std::uint32_t kCrcThreads = 256;
inline constexpr std::uint32_t kCrcVector = 16;

namespace crc_detail {

inline constexpr std::uint32_t kWarps = kCrcThreads / 32;
static_assert(kWarps == 8, "the warp tree has three levels");

// x^32 (a 4-byte word), then for rows the gap: a row's last word and the other threads'
// vectors up to the thread's next one.
struct alignas(16) StepTables {
  crc::MulTable t[2];
};

// Shifts of 2^l threads' strides (lanes), then of 2^l warps' (warps).
struct TreeTables {
  crc::MulTable lane[5];
  crc::MulTable warp[3];
};

constexpr StepTables make_step_tables() {
  return {{crc::mul_table(crc::x8nmodp(4)),
           crc::mul_table(crc::x8nmodp(4 + kCrcVector * (kCrcThreads - 1)))}};
}

constexpr TreeTables make_tree_tables(std::uint32_t stride) {
  TreeTables t{};
  for (std::uint32_t l = 0; l < 5; ++l) t.lane[l] = crc::mul_table(crc::x8nmodp(stride << l));
  for (std::uint32_t l = 0; l < 3; ++l) t.warp[l] = crc::mul_table(crc::x8nmodp(32 * stride << l));
  return t;
}

// One copy per translation unit, computed by the compiler.
static __device__ const StepTables kStep = make_step_tables();
template <std::uint32_t Stride>
static __device__ const TreeTables kTree = make_tree_tables(Stride);

__device__ __forceinline__ std::uint32_t mul_global(const crc::MulTable& m, std::uint32_t c) {
  return __ldg(&m.t[0][c & 0xFF]) ^ __ldg(&m.t[1][(c >> 8) & 0xFF]) ^
         __ldg(&m.t[2][(c >> 16) & 0xFF]) ^ __ldg(&m.t[3][c >> 24]);
}

}  // namespace crc_detail

// Shared memory of a kernel that computes tile CRCs: the step tables it needs (2 for rows, 1
// for blocked) and the tree's scratch.
template <int Tables>
struct alignas(16) CrcSharedOf {
  crc::MulTable table[Tables];
  std::uint32_t warp_crc[crc_detail::kWarps];
};
using RowsCrcShared = CrcSharedOf<2>;
using BlockedCrcShared = CrcSharedOf<1>;

// Fills `s` from the global tables; every thread of the block calls it, then __syncthreads().
template <int Tables>
__device__ __forceinline__ void load_crc_tables(CrcSharedOf<Tables>& s) {
  constexpr std::uint32_t kVectors = Tables * sizeof(crc::MulTable) / 16;
  static_assert(kVectors % kCrcThreads == 0);
  const auto* src = reinterpret_cast<const uint4*>(&crc_detail::kStep);
  auto* dst = reinterpret_cast<uint4*>(s.table);
#pragma unroll
  for (std::uint32_t k = 0; k < kVectors / kCrcThreads; ++k) {
    dst[k * kCrcThreads + threadIdx.x] = __ldg(src + k * kCrcThreads + threadIdx.x);
  }
}

// One thread's share of a tile's CRC; Stride is the distance between two threads' last bytes
// (kCrcVector for rows, S for blocked).
template <std::uint32_t Stride>
class TileCrc {
 public:
  // Rows: the thread's vector of the tile's next row; `last_row` for the tile's last.
  __device__ __forceinline__ void add_row(const RowsCrcShared& s, uint4 v, bool last_row) {
    static_assert(Stride == kCrcVector);
    add_word(s, v.x);
    add_word(s, v.y);
    add_word(s, v.z);
    c_ = crc::mul(s.table[last_row ? 0 : 1].t, c_ ^ v.w);
  }

  // Blocked: the next 4 bytes of the thread's segment (little-endian).
  template <int Tables>
  __device__ __forceinline__ void add_word(const CrcSharedOf<Tables>& s, std::uint32_t w) {
    c_ = crc::mul(s.table[0].t, c_ ^ w);
  }

  // The tile's raw CRC, valid in thread 0. Every thread of the block calls it.
  template <int Tables>
  __device__ __forceinline__ std::uint32_t reduce(CrcSharedOf<Tables>& s) const {
    using crc_detail::mul_global;
    const crc_detail::TreeTables& tree = crc_detail::kTree<Stride>;
    const std::uint32_t lane = threadIdx.x % 32;
    std::uint32_t c = c_;
#pragma unroll
    for (std::uint32_t l = 0; l < 5; ++l) {
      const std::uint32_t right = __shfl_down_sync(0xFFFFFFFFu, c, 1u << l);
      if (lane % (2u << l) == 0) c = mul_global(tree.lane[l], c) ^ right;
    }
    if (lane == 0) s.warp_crc[threadIdx.x / 32] = c;
    __syncthreads();
    if (threadIdx.x < 32) {
      c = lane < crc_detail::kWarps ? s.warp_crc[lane] : 0;
#pragma unroll
      for (std::uint32_t l = 0; l < 3; ++l) {
        const std::uint32_t right = __shfl_down_sync(0xFFFFFFFFu, c, 1u << l);
        if (lane % (2u << l) == 0) c = mul_global(tree.warp[l], c) ^ right;
      }
    }
    __syncthreads();  // warp_crc is free again
    return c;
  }

 private:
  std::uint32_t c_ = 0;
};

using RowsCrc = TileCrc<kCrcVector>;

// Blocked: K elements of T (K * sizeof(T) a multiple of 4) as the thread's segment.
template <typename T, int K>
__device__ __forceinline__ void add_items(TileCrc<K * sizeof(T)>& crc, const BlockedCrcShared& s,
                                          const T (&v)[K]) {
  constexpr int kPerWord = 4 / sizeof(T);
  static_assert(K % kPerWord == 0);
#pragma unroll
  for (int w = 0; w < K / kPerWord; ++w) {
    std::uint32_t word = 0;
#pragma unroll
    for (int k = 0; k < kPerWord; ++k) {
      word |= static_cast<std::uint32_t>(v[w * kPerWord + k]) << (8 * sizeof(T) * k);
    }
    crc.add_word(s, word);
  }
}

}  // namespace gcbench::cuda
