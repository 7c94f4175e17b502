#pragma once
// The warp design of GPU LZ77 compression: one warp per chunk runs the greedy parse itself and
// finds a match only at the positions the parse visits, the 32 lanes testing 32 candidates at a
// time, nearest first. Each segment of kSegment positions stages its window and look-ahead in
// shared memory; for hash the staged positions are sorted by 3-byte hash (stable), so a position's
// chain is one contiguous run of a bucket. brute tests 32 window distances at once. Included by
// compress_gpu.cu only.
//
// The parse is a chain of dependent shared-memory loads, so the kernel is bound by latency and by
// the warps an SM holds: segments are short (1 KiB) to keep a warp's shared memory small, at the
// price of indexing each window again every 1 KiB (bench/NOTES.md, "LZ77 GPU").
#include <cstdint>

#include "codecs/lz77/gpu_finders.cuh"
#include "codecs/lz77/gpu_layout.cuh"
#include "codecs/lz77/triple.hpp"
#include "codecs/lz77/warp_bucket.hpp"
#include "src/cuda/cuda_check.hpp"

namespace gcbench::lz77::gpu::warp {

using u8 = std::uint8_t;
using u16 = std::uint16_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

constexpr u32 kFull = 0xFFFFFFFFu;
constexpr u32 kSegment = 1024;  // positions per staged segment
// Buckets of the index. Any hash of the 3 bytes gives the same matches; fewer buckets than the
// CPU's 4096 keep the table small (more unrelated candidates, rejected at their first byte).
constexpr u32 kBucketBits = kWarpBucketBits;
constexpr u32 kBuckets = 1u << kBucketBits;

__device__ __forceinline__ u32 bucket3(const u8* p) {
  return warp_bucket(u32{p[0]} | (u32{p[1]} << 8) | (u32{p[2]} << 16));
}

constexpr u32 round16(u32 n) {
  return (n + 15) / 16 * 16;
}

// Shared memory of one warp: the staged bytes (16 bytes of slack: load16() reads up to 15 past
// the region, bytes that never count), then (hash) the positions sorted by hash, the bucket
// bounds (once the index is built, each segment position's bucket start), and each segment
// position's place in the sorted order.
// Positions fit u16: the region is at most 32767 + 1024 + 257 bytes.
static_assert(kBuckets + 1 >= kSegment, "the bucket table holds the segment's bucket starts");

struct Smem {
  u32 region_capacity;  // window + segment + look-ahead
  bool index;

  __host__ __device__ u32 sorted_at() const { return round16(region_capacity + 16); }
  __host__ __device__ u32 starts_at() const { return sorted_at() + round16(2 * region_capacity); }
  __host__ __device__ u32 rank_at() const { return starts_at() + round16(2 * (kBuckets + 1)); }
  __host__ __device__ u32 total() const { return index ? rank_at() + 2 * kSegment : sorted_at(); }
};

// The lanes among `valid` whose bucket equals this lane's: one ballot per bucket bit, a lane
// differing from this one in any bit drops out. (__match_any_sync gives the same mask but is a
// slow instruction: bench/NOTES.md, "the index was the cost".)
__device__ __forceinline__ u32 lanes_with_same_bucket(u32 h, u32 valid) {
  u32 differ = 0;
#pragma unroll
  for (u32 bit = 0; bit < kBucketBits; ++bit) {
    const u32 ones = __ballot_sync(kFull, h & (1u << bit));
    const u32 mine = static_cast<u32>(static_cast<int>(h << (31 - bit)) >> 31);
    differ |= ones ^ mine;
  }
  return valid & ~differ;
}

// Sorts positions [0, count) by bucket3, stable, into `sorted`; bucket h is then
// sorted[starts[h] .. starts[h + 1]), and position seg_off + i (i < seg_len) sits at
// sorted[rank[i]]. A counting sort: the counts by shared atomics (their order does not
// matter), the scatter 32 positions per step, in position order, the highest lane of each
// group of equal buckets moving the bucket's cursor past the group.
__device__ inline void build_index(const u8* bytes, u32 count, u32 seg_off, u32 seg_len,
                                   u16* sorted, u16* starts, u16* rank) {
  const u32 lane = threadIdx.x & 31;
  const u32 below = (1u << lane) - 1;
  for (u32 h = lane; h <= kBuckets; h += 32) starts[h] = 0;
  __syncwarp();
  // Count of bucket h in starts[h + 1], added to the u32 holding that u16 (shared atomics are
  // 32-bit; a count never carries into its neighbour, being below 2^16).
  u32* start_pairs = reinterpret_cast<u32*>(starts);
  for (u32 r = lane; r < count; r += 32) {
    const u32 at = bucket3(bytes + r) + 1;
    atomicAdd(start_pairs + at / 2, 1u << (16 * (at % 2)));
  }
  __syncwarp();
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
    const bool in = r < count;
    const u32 h = in ? bucket3(bytes + r) : 0u;
    const u32 same = lanes_with_same_bucket(h, __ballot_sync(kFull, in));
    u32 slot = 0;
    if (in) {
      slot = starts[h + 1] + __popc(same & below);
      sorted[slot] = static_cast<u16>(r);
      if (r - seg_off < seg_len) rank[r - seg_off] = static_cast<u16>(slot);
    }
    __syncwarp();  // every group has read its cursor
    if (in && (same >> lane) == 1u) starts[h + 1] = static_cast<u16>(slot + 1);
    __syncwarp();
  }
}

// Replaces the bucket table (dead once the index is built) by the first slot of each segment
// position's bucket, so that a lookup reads its bounds without hashing: slots[i] for position
// seg_off + i. Read into registers first, as the table is overwritten.
__device__ inline void bucket_slots_of_segment(const u8* bytes, u32 seg_off, u32 seg_len,
                                               u16* starts) {
  const u32 lane = threadIdx.x & 31;
  u32 first[kSegment / 32];
#pragma unroll
  for (u32 k = 0; k < kSegment / 32; ++k) {
    const u32 i = lane + 32 * k;
    first[k] = i < seg_len ? starts[bucket3(bytes + seg_off + i)] : 0u;
  }
  __syncwarp();
#pragma unroll
  for (u32 k = 0; k < kSegment / 32; ++k) {
    const u32 i = lane + 32 * k;
    if (i < seg_len) starts[i] = static_cast<u16>(first[k]);
  }
  __syncwarp();
}

// Match of `n` bytes `d` back as a key whose maximum is the longest, then nearest, match.
__device__ __forceinline__ u32 match_key(u32 n, u32 d) {
  return n >= kMinMatch ? (n << 16) | (0xFFFFu - d) : 0u;
}

// The four staged bytes from byte index i: two aligned words, funnel-shifted. Indices, not
// pointers, so that the compiler keeps shared-memory loads (a pointer cast through an integer
// becomes a slower generic load).
__device__ __forceinline__ u32 load4(const u32* words, u32 i) {
  return __funnelshift_r(words[i >> 2], words[(i >> 2) + 1], 8 * (i & 3));
}

// Common prefix of the staged bytes from a and from b, up to cap, four bytes per step (bytes
// past cap may be read, up to 7 past the region, but never count).
__device__ __forceinline__ u32 prefix(const u32* words, u32 a, u32 b, u32 cap) {
  for (u32 n = 0; n < cap; n += 4) {
    const u32 x = load4(words, a + n) ^ load4(words, b + n);
    if (x != 0) return min(n + (__ffs(x) - 1) / 8, cap);
  }
  return cap;
}

// The 16 staged bytes from byte index i as four words in byte order: five aligned loads issued
// together, funnel-shifted.
__device__ __forceinline__ void load16(const u32* words, u32 i, u32 (&out)[4]) {
  const u32 q = i >> 2, shift = 8 * (i & 3);
  u32 w[5];
#pragma unroll
  for (u32 k = 0; k < 5; ++k) w[k] = words[q + k];
#pragma unroll
  for (u32 k = 0; k < 4; ++k) out[k] = __funnelshift_r(w[k], w[k + 1], shift);
}

// Common prefix of two 16-byte runs (16 when equal): the first differing word, then its first
// differing byte.
__device__ __forceinline__ u32 common16(const u32 (&a)[4], const u32 (&b)[4]) {
  const u32 x0 = a[0] ^ b[0], x1 = a[1] ^ b[1], x2 = a[2] ^ b[2], x3 = a[3] ^ b[3];
  const u32 word = x0 ? 0 : x1 ? 4 : x2 ? 8 : 12;
  const u32 x = x0 ? x0 : x1 ? x1 : x2 ? x2 : x3;
  return x ? word + (__ffs(x) - 1) / 8 : 16;
}

// Longest-nearest match at region offset r, which sits at sorted[top] in a bucket starting at
// sorted[b0]: the bucket entries before it, nearest first, 32 per step, until one reaches the
// cap or leaves the window. Returns a match_key. A candidate must agree with r at the best
// length so far (one byte rules out most after the first step); one that does compares its
// first 16 bytes at once (the thesis caps matches at 15), only the wide look-ahead further.
__device__ inline u32 longest_hash(const u8* bytes, const u32* words, const u16* sorted, u32 r,
                                   u32 top, u32 b0, u32 window, u32 cap) {
  const u32 lane = threadIdx.x & 31;
  u32 ahead[4];
  load16(words, r, ahead);  // before the test below, so that its loads overlap the caller's
  if (top == b0) return 0;  // first of its bucket: no candidate
  u32 best = 0;
  for (;;) {
    const bool live = top - b0 > lane;
    const u32 s = sorted[live ? top - 1 - lane : b0];  // dead lanes load a harmless entry
    const u32 d = r - s;
    const bool beyond = live && d > window;
    const u32 bl = best >> 16;
    u32 key = 0;
    if (live && !beyond && bytes[s + bl] == bytes[r + bl]) {
      u32 from[4];
      load16(words, s, from);
      u32 n = common16(from, ahead);
      if (n == 16 && cap > 16) n += prefix(words, s + 16, r + 16, cap - 16);
      key = match_key(min(n, cap), d);
    }
    best = max(best, __reduce_max_sync(kFull, key));
    if ((best >> 16) == cap || __any_sync(kFull, beyond) || top - b0 <= 32) return best;
    top -= 32;
  }
}

// brute: window distances 1, 2, ... 32 per step.
__device__ inline u32 longest_brute(const u8* bytes, const u32* words, u32 r, u32 window, u32 cap) {
  const u32 lane = threadIdx.x & 31;
  u32 best = 0;
  for (u32 d0 = 1; d0 <= window; d0 += 32) {
    const u32 d = d0 + lane;
    const u32 bl = best >> 16;
    const bool fit = d <= window && bytes[r - d + bl] == bytes[r + bl];
    const u32 key = fit ? match_key(prefix(words, r - d, r, cap), d) : 0u;
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

// A chunk's triples, 32 at a time: lane i keeps triple i of the batch as its packed bytes, and
// the batch is stored by all lanes at once (one lane storing each triple as it came cost a
// tenth of the kernel's instructions).
struct TripleBatch {
  u8* out;
  Config config;
  u32 triple_bytes;
  u32 mine = 0;

  __device__ void add(u32 n, const Triple& t) {
    if ((threadIdx.x & 31) == n % 32) mine = triple_word(config, t);
    if (n % 32 == 31) flush(n + 1);
  }
  // Stores the batch's triples up to triple `end` of the chunk.
  __device__ void flush(u32 end) {
    const u32 lane = threadIdx.x & 31;
    const u32 n = (end - 1) / 32 * 32 + lane;
    if (n >= end) return;
    for (u32 i = 0; i < triple_bytes; ++i)
      out[u64{n} * triple_bytes + i] = static_cast<u8>(mine >> (8 * i));
  }
};

// One warp (the thread block) per chunk; writes the chunk's triples to its slot. Within a
// segment positions are region offsets (u32): the window and cap rules of DevLayout, shifted.
template <Finder F>
__global__ void __launch_bounds__(32)
    warp_design_kernel(const u8* __restrict__ in, DevLayout L, Smem sm, u8* __restrict__ slots,
                       u32* __restrict__ counts) {
  extern __shared__ __align__(16) u8 smem[];
  u8* bytes = smem;
  const u32* words = reinterpret_cast<const u32*>(smem);
  u16* sorted = reinterpret_cast<u16*>(smem + sm.sorted_at());
  u16* starts = reinterpret_cast<u16*>(smem + sm.starts_at());
  u16* rank = reinterpret_cast<u16*>(smem + sm.rank_at());
  const u16* bucket_slot = starts;  // after bucket_slots_of_segment
  const u32 lane = threadIdx.x;
  const u64 c = blockIdx.x;
  const u64 ce = L.chunk_end(c), ws = L.window_start(c);
  TripleBatch batch{slots + c * L.chunk * L.triple_bytes, L.config, L.triple_bytes};
  u32 n = 0;
  for (u64 p = L.chunk_begin(c); p < ce;) {
    const u64 seg_end = min(p + kSegment, ce);
    const u32 seg_off = L.window_at(p, ws);  // p's region offset
    const u64 lo = p - seg_off;
    // A match and its next byte stay in the chunk, so the region ends at the chunk's end or a
    // look-ahead past the segment; then cap = min(max_length, region - r - 1) throughout.
    const auto region = static_cast<u32>(min(seg_end + L.max_length, ce) - lo);
    const auto seg_stop = static_cast<u32>(seg_end - lo);
    const auto window_base = static_cast<u32>(min(lo - ws, u64{L.max_offset}));
    stage(in, L.size, lo, region, bytes);
    __syncwarp();
    // Every position a lookup can reach: r + 3 <= region (a lookup needs cap >= 3).
    if constexpr (F == Finder::hash) {
      build_index(bytes, region >= kMinMatch ? region - kMinMatch + 1 : 0, seg_off,
                  seg_stop - seg_off, sorted, starts, rank);
      bucket_slots_of_segment(bytes, seg_off, seg_stop - seg_off, starts);
    }
    u32 r = seg_off;
    for (; r < seg_stop; ++n) {
      const u32 cap = min(L.max_length, region - r - 1);
      const u32 window = min(r + window_base, L.max_offset);
      u32 key = 0;
      if (cap >= kMinMatch && window > 0) {
        if constexpr (F == Finder::hash) {
          const u32 i = r - seg_off;
          key = longest_hash(bytes, words, sorted, r, rank[i], bucket_slot[i], window, cap);
        }
        if constexpr (F == Finder::brute) key = longest_brute(bytes, words, r, window, cap);
      }
      const u32 length = key >> 16;
      const u32 offset = key ? 0xFFFFu - (key & 0xFFFFu) : 0u;
      batch.add(n, Triple{offset, length, bytes[r + length]});
      r += length + 1;
    }
    p = lo + r;
    __syncwarp();  // every lane is done with this segment before the next is staged
  }
  if (n % 32 != 0) batch.flush(n);
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
