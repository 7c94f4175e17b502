#pragma once
// The warp design of GPU LZ77 compression: one warp per chunk runs the greedy parse itself and
// finds a match only at the positions the parse visits (1 in 4-12 on Silesia), the 32 lanes
// testing 32 candidates at a time, nearest first. The chunk is cut into segments of kSegment
// positions; each segment stages its window and look-ahead in shared memory. For hash the
// segment's positions are also sorted by 3-byte hash (stable), so that a position's chain is
// one contiguous, position-ordered run of a bucket instead of a linked list: lanes read 32
// candidates at once. brute tests 32 window distances at once. Included by compress_gpu.cu only.
#include <cstdint>

#include "codecs/common/cuda_check.hpp"
#include "codecs/lz77/gpu_finders.cuh"
#include "codecs/lz77/gpu_layout.cuh"
#include "codecs/lz77/triple.hpp"

namespace gcbench::lz77::gpu::warp {

using u8 = std::uint8_t;
using u16 = std::uint16_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

constexpr u32 kFull = 0xFFFFFFFFu;
constexpr u32 kSegment = 4096;  // positions per staged segment (the default chunk)
// Buckets of the index. Any hash of the 3 bytes gives the same matches; 11 bits (not the CPU's
// 12) keep a warp's shared memory under 32 KB: 7 warps per SM instead of 6.
constexpr u32 kBucketBits = 11;
constexpr u32 kBuckets = 1u << kBucketBits;

__device__ __forceinline__ u32 bucket3(const u8* p) {
  constexpr u32 shift = (kBucketBits + kMinMatch - 1) / kMinMatch;
  return ((u32{p[0]} << (2 * shift)) ^ (u32{p[1]} << shift) ^ p[2]) & (kBuckets - 1);
}

constexpr u32 round16(u32 n) {
  return (n + 15) / 16 * 16;
}

// Shared memory of one warp: the staged bytes (8 bytes of slack: prefix() reads whole words),
// then (hash) the positions sorted by hash and the bucket bounds. Positions fit u16: the
// region is at most 32767 + 4096 + 257 bytes.
struct Smem {
  u32 region_capacity;  // window + segment + look-ahead
  bool index;

  __host__ __device__ u32 sorted_at() const { return round16(region_capacity + 8); }
  __host__ __device__ u32 starts_at() const { return sorted_at() + round16(2 * region_capacity); }
  __host__ __device__ u32 total() const {
    return index ? starts_at() + round16(2 * (kBuckets + 1)) : sorted_at();
  }
};

// Sorts positions [0, count) by bucket3, stable, into `sorted`; bucket h is then
// sorted[starts[h] .. starts[h + 1]). A counting sort, 32 positions per step: lanes with equal
// hashes find each other with __match_any_sync and the highest of them bumps the bucket.
__device__ inline void build_index(const u8* bytes, u32 count, u16* sorted, u16* starts) {
  const u32 lane = threadIdx.x & 31;
  const u32 below = (1u << lane) - 1;
  for (u32 h = lane; h <= kBuckets; h += 32) starts[h] = 0;
  __syncwarp();
  // Counts of bucket h in starts[h + 1].
  for (u32 base = 0; base < count; base += 32) {
    const u32 r = base + lane;
    const u32 h = r < count ? bucket3(bytes + r) : kBuckets + lane;  // idle lanes: unique keys
    const u32 same = __match_any_sync(kFull, h);
    if (r < count && (same >> lane) == 1u)
      starts[h + 1] = static_cast<u16>(starts[h + 1] + __popc(same));
    __syncwarp();
  }
  // Exclusive prefix sum in place, kPer buckets per lane: starts[h + 1] becomes the start of
  // bucket h, the scatter's cursor; after the scatter it is the end of bucket h.
  constexpr u32 kPer = kBuckets / 32;
  u32 sum = 0;
  for (u32 i = 0; i < kPer; ++i) sum += starts[1 + lane * kPer + i];
  u32 incl = sum;
  for (u32 d = 1; d < 32; d <<= 1) {
    const u32 v = __shfl_up_sync(kFull, incl, d);
    if (lane >= d) incl += v;
  }
  u32 run = incl - sum;
  for (u32 i = 0; i < kPer; ++i) {
    const u32 n = starts[1 + lane * kPer + i];
    starts[1 + lane * kPer + i] = static_cast<u16>(run);
    run += n;
  }
  __syncwarp();
  for (u32 base = 0; base < count; base += 32) {
    const u32 r = base + lane;
    const u32 h = r < count ? bucket3(bytes + r) : kBuckets + lane;
    const u32 same = __match_any_sync(kFull, h);
    if (r < count) sorted[starts[h + 1] + __popc(same & below)] = static_cast<u16>(r);
    __syncwarp();
    if (r < count && (same >> lane) == 1u)
      starts[h + 1] = static_cast<u16>(starts[h + 1] + __popc(same));
    __syncwarp();
  }
}

// Index of position r in its bucket [b0, b1) (r is in it), by a 32-way search.
__device__ inline u32 find_in_bucket(const u16* sorted, u32 b0, u32 b1, u32 r) {
  const u32 lane = threadIdx.x & 31;
  u32 lo = b0, hi = b1;  // entries before lo are < r, entries from hi on are >= r
  while (hi - lo > 32) {
    const u32 step = (hi - lo + 31) / 32;
    const u32 probe = lo + lane * step;
    const u32 n = __popc(__ballot_sync(kFull, probe < hi && sorted[probe] < r));
    if (n == 0) return lo;
    const u32 next_hi = min(lo + n * step, hi);
    lo += (n - 1) * step + 1;
    hi = next_hi;
  }
  return lo + __popc(__ballot_sync(kFull, lo + lane < hi && sorted[lo + lane] < r));
}

// Match of `n` bytes `d` back as a key whose maximum is the longest, then nearest, match.
__device__ __forceinline__ u32 match_key(u32 n, u32 d) {
  return n >= kMinMatch ? (n << 16) | (0xFFFFu - d) : 0u;
}

// Four bytes from any shared-memory address: two aligned words, funnel-shifted.
__device__ __forceinline__ u32 load4(const u8* p) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  const u32* w = reinterpret_cast<const u32*>(a & ~std::uintptr_t{3});
  return __funnelshift_r(w[0], w[1], 8 * static_cast<u32>(a & 3));
}

// Common prefix of a[0..cap) and b[0..cap), four bytes per step (bytes past cap may be read,
// up to 7 past the region: the slack, but never count).
__device__ __forceinline__ u32 prefix(const u8* a, const u8* b, u32 cap) {
  for (u32 n = 0; n < cap; n += 4) {
    const u32 x = load4(a + n) ^ load4(b + n);
    if (x != 0) return min(n + (__ffs(x) - 1) / 8, cap);
  }
  return cap;
}

// Longest-nearest match at region offset r: the bucket entries before r, nearest first, 32
// per step, until one reaches the cap or leaves the window. Returns a match_key. After the
// first step a candidate must beat the best so far, so one byte (at the best length) rules
// out most of them.
__device__ inline u32 longest_hash(const u8* bytes, const u16* sorted, const u16* starts, u32 r,
                                   u32 window, u32 cap) {
  const u32 lane = threadIdx.x & 31;
  const u32 h = bucket3(bytes + r);
  const u32 b0 = starts[h];
  u32 best = 0;
  for (u32 top = find_in_bucket(sorted, b0, starts[h + 1], r); top > b0;
       top = top - b0 > 32 ? top - 32 : b0) {
    u32 key = 0;
    bool beyond = false;
    if (top - b0 > lane) {
      const u32 s = sorted[top - 1 - lane];
      const u32 d = r - s;
      beyond = d > window;
      const u32 bl = best >> 16;
      if (!beyond && bytes[s + bl] == bytes[r + bl]) {
        key = match_key(prefix(bytes + s, bytes + r, cap), d);
      }
    }
    best = max(best, __reduce_max_sync(kFull, key));
    if ((best >> 16) == cap || __any_sync(kFull, beyond)) break;
  }
  return best;
}

// brute: window distances 1, 2, ... 32 per step.
__device__ inline u32 longest_brute(const u8* bytes, u32 r, u32 window, u32 cap) {
  const u32 lane = threadIdx.x & 31;
  u32 best = 0;
  for (u32 d0 = 1; d0 <= window; d0 += 32) {
    const u32 d = d0 + lane;
    const u32 bl = best >> 16;
    const bool fit = d <= window && bytes[r - d + bl] == bytes[r + bl];
    const u32 key = fit ? match_key(prefix(bytes + r - d, bytes + r, cap), d) : 0u;
    best = max(best, __reduce_max_sync(kFull, key));
    if ((best >> 16) == cap) break;
  }
  return best;
}

// Copies in[lo, lo + n) to bytes[0, n) with 16-byte loads (the input buffer is 256-byte
// aligned); the words at the ends are masked, the last one read bytewise if it passes `size`.
__device__ inline void stage(const u8* __restrict__ in, u64 size, u64 lo, u32 n, u8* bytes) {
  const u64 base = lo & ~u64{15};
  const auto skip = static_cast<u32>(lo - base);
  const u32 words = (skip + n + 15) / 16;
  for (u32 w = threadIdx.x & 31; w < words; w += 32) {
    const u64 at = base + 16 * u64{w};
    u8 v[16];
    if (at + 16 <= size) {
      const uint4 x = *reinterpret_cast<const uint4*>(in + at);
      memcpy(v, &x, 16);
    } else {
      for (u32 j = 0; j < 16; ++j) v[j] = at + j < size ? in[at + j] : 0;
    }
    for (u32 j = 0; j < 16; ++j) {
      const u32 i = 16 * w + j;  // index from base
      if (i >= skip && i - skip < n) bytes[i - skip] = v[j];
    }
  }
}

// One warp (the thread block) per chunk; writes the chunk's triples to its slot.
template <Finder F>
__global__ void __launch_bounds__(32)
    warp_design_kernel(const u8* __restrict__ in, DevLayout L, Smem sm, u8* __restrict__ slots,
                       u32* __restrict__ counts) {
  extern __shared__ __align__(16) u8 smem[];
  u8* bytes = smem;
  u16* sorted = reinterpret_cast<u16*>(smem + sm.sorted_at());
  u16* starts = reinterpret_cast<u16*>(smem + sm.starts_at());
  const u32 lane = threadIdx.x;
  const u64 c = blockIdx.x;
  const u64 ce = L.chunk_end(c), ws = L.window_start(c);
  u8* out = slots + c * L.chunk * L.triple_bytes;
  u32 n = 0;
  for (u64 p = L.chunk_begin(c); p < ce;) {
    const u64 seg_end = min(p + kSegment, ce);
    const u64 lo = p - L.window_at(p, ws);
    const auto region = static_cast<u32>(min(seg_end + L.max_length, ce) - lo);
    stage(in, L.size, lo, region, bytes);
    __syncwarp();
    // Every position a lookup can reach: r + 3 <= region (a lookup needs cap >= 3).
    if constexpr (F == Finder::hash) {
      build_index(bytes, region >= kMinMatch ? region - kMinMatch + 1 : 0, sorted, starts);
    }
    for (; p < seg_end; ++n) {
      const auto r = static_cast<u32>(p - lo);
      const u32 cap = L.cap_at(p, ce);
      const u32 window = L.window_at(p, ws);
      u32 key = 0;
      if (cap >= kMinMatch && window > 0) {
        if constexpr (F == Finder::hash) key = longest_hash(bytes, sorted, starts, r, window, cap);
        if constexpr (F == Finder::brute) key = longest_brute(bytes, r, window, cap);
      }
      const u32 length = key >> 16;
      const u32 offset = key ? 0xFFFFu - (key & 0xFFFFu) : 0u;
      if (lane == 0) {
        pack_triple(L.config, Triple{offset, length, bytes[r + length]},
                    out + u64{n} * L.triple_bytes);
      }
      p += length + 1;
    }
    __syncwarp();  // every lane is done with this segment before the next is staged
  }
  if (lane == 0) counts[c] = n;
}

template <Finder F>
void launch(const u8* in, const DevLayout& L, u64 chunk_count, u8* slots, u32* counts,
            cudaStream_t s) {
  const Smem sm{L.max_offset + kSegment + L.max_length, F == Finder::hash};
  GCB_CUDA(cudaFuncSetAttribute(warp_design_kernel<F>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                static_cast<int>(sm.total())));
  warp_design_kernel<F>
      <<<static_cast<unsigned>(chunk_count), 32, sm.total(), s>>>(in, L, sm, slots, counts);
  GCB_CUDA_LAUNCHED();
}

}  // namespace gcbench::lz77::gpu::warp
