#pragma once
// The kernels of the GPU RLE decoders (rle_gpu_decoder.cu, their one includer): the saturating
// scan of the counts, and the two expansions, scan (binary search per tile, then marks) and
// flood (scatter, then a flood-right scan), on the same tiles.
#include <cstdint>
#include <cub/block/block_scan.cuh>

#include "codecs/common/container_device.cuh"
#include "codecs/common/crc32_tile.cuh"
#include "codecs/common/device_elements.cuh"
#include "codecs/rle/detail/common.cuh"
#include "gcbench/device_codec.hpp"

namespace gcbench::rle::gpu::detail {

constexpr u32 kBadCounts = kCodecError;  // detail: the counts' saturated sum

// Run start offsets are 32-bit whenever the element count leaves room for the saturation mark
// (inputs below 2^32 - 1 elements), which halves what the scan writes and what expand reads.
template <typename Off>
constexpr Off kSaturated = sizeof(Off) == 8 ? static_cast<Off>(u64{1} << 62)
                                            : static_cast<Off>(0xFFFFFFFFu);

// What check_counts_kernel reports as the detail of a sum that saturated (a zero count, or at
// 32 bits counts adding up past the mark).
constexpr u64 kSaturatedDetail = kSaturated<u64>;

template <typename F>
decltype(auto) with_offset_type(u64 n, F&& f) {
  return n < kSaturated<u32> ? f(u32{}) : f(u64{});
}

// The scan input: count r (a zero count as kSaturated), and 0 at r == runs so that the
// exclusive scan's last entry is the total.
template <typename Off>
struct CountAt {
  const u8* counts;  // u32 little-endian, at any alignment
  u64 runs;
  // A count as the scan adds it, however it was loaded.
  __device__ static Off item(u32 c) { return c == 0 ? kSaturated<Off> : Off{c}; }
  __device__ Off operator()(u64 r) const {
    return r < runs ? item(cuda::load_le<u32>(counts + 4 * r)) : Off{0};
  }
};

// values[] of the container, at any alignment.
template <typename T>
struct Values {
  const u8* p;
  __device__ __forceinline__ T operator[](u64 i) const {
    return cuda::load_le<T>(p + i * sizeof(T));
  }
};

// Associative (min(a + b, S) for values <= S) and cannot wrap, whatever the counts.
template <typename Off>
struct SaturatingAdd {
  __host__ __device__ Off operator()(Off a, Off b) const {
    const u64 s = u64{a} + b;
    return s < kSaturated<Off> ? static_cast<Off>(s) : kSaturated<Off>;
  }
};

// The run offsets in two levels: local[r] = the saturating sum of counts from the start of
// r's scan tile (kScanTile runs) to r, and prefix[s] = the saturating sum of the counts before
// scan tile s. One pass over the counts with no look-back (offsets_kernel, each tile on its
// own), then CUB's scan of the tiles' sums (one item per kScanTile runs): with CUB's decoupled
// look-back in the same pass the scan was bound by the look-back's barrier (bench/NOTES.md, "RLE
// offsets in two levels"). kScanItems counts a thread, read as 16-byte vectors (they lie at any
// alignment in the container; a transform iterator read each as four byte loads).
constexpr u32 kScanItems = 16;
constexpr u32 kScanTile = kScanItems * kBlockThreads;

// Run r's offset as the two levels give it, for r <= runs (offset runs is the total).
template <typename Off>
struct RunOffsets {
  const Off* local;
  const Off* prefix;
  // Saturating: what decides whether the counts are valid (total(runs) == n).
  __device__ __forceinline__ Off total(u64 r) const {
    return SaturatingAdd<Off>{}(prefix[r / kScanTile], local[r]);
  }
  // Once the total equals n, no partial sum saturated: a plain add.
  __device__ __forceinline__ Off operator[](u64 r) const {
    return prefix[r / kScanTile] + local[r];
  }
  struct Near;
  // Offsets r0 + j for j <= kScanTile (runs r0 + j <= runs), with their two tile prefixes
  // loaded once: a staging round's, where a prefix load per offset slowed the flood
  // (bench/NOTES.md, "RLE staging prefixes once a round").
  __device__ __forceinline__ Near near(u64 r0, u64 runs) const {
    const u64 s = r0 / kScanTile;
    return {local + r0, prefix[s], prefix[min(s + 1, runs / kScanTile)],
            static_cast<u32>((s + 1) * kScanTile - r0)};
  }
};

template <typename Off>
struct RunOffsets<Off>::Near {
  const Off* local;   // from r0
  Off before, after;  // the prefixes of r0's scan tile and of the next
  u32 split;          // the first j in the next scan tile
  __device__ __forceinline__ Off operator[](u32 j) const {
    return (j < split ? before : after) + local[j];
  }
};

// Counts r0 .. r0 + kScanItems - 1 (r0 a multiple of kScanItems) from five aligned 16-byte
// loads and a funnel shift: the counts start kQ words and (counts % 4) bytes past a 16-byte
// boundary, the same for every thread (4 * r0 is a multiple of 16). The caller made sure that
// the 80 bytes lie inside the container: from at most 15 before the array (the payload's
// header) to 16 past the tile's last count.
template <u32 kQ>
__device__ __forceinline__ void load_counts(const u8* counts, u64 r0, u32 (&c)[kScanItems]) {
  const u8* first = counts + 4 * r0;
  const auto* base =
      reinterpret_cast<const uint4*>(reinterpret_cast<std::uintptr_t>(first) & ~std::uintptr_t{15});
  const u32 shift = 8 * static_cast<u32>(reinterpret_cast<std::uintptr_t>(first) % 4);
  u32 w[20];
#pragma unroll
  for (u32 v = 0; v < 5; ++v) {
    const uint4 x = __ldg(base + v);
    w[4 * v] = x.x;
    w[4 * v + 1] = x.y;
    w[4 * v + 2] = x.z;
    w[4 * v + 3] = x.w;
  }
#pragma unroll
  for (u32 k = 0; k < kScanItems; ++k) c[k] = __funnelshift_r(w[kQ + k], w[kQ + k + 1], shift);
}

// local[] of one scan tile a block, and the tile's sum in sums[tile].
template <typename Off, u32 kQ>
__global__ void __launch_bounds__(kBlockThreads)
    offsets_kernel(const u8* __restrict__ counts, u64 runs, Off* __restrict__ local,
                   Off* __restrict__ sums) {
  using Op = SaturatingAdd<Off>;
  using BlockScan = cub::BlockScan<Off, kBlockThreads, cub::BLOCK_SCAN_WARP_SCANS>;
  __shared__ typename BlockScan::TempStorage s_scan;
  const u64 r0 = (u64{blockIdx.x} * kBlockThreads + threadIdx.x) * kScanItems;
  // The vector loads of a tile reach 16 bytes past its counts.
  const bool whole = (u64{blockIdx.x} + 1) * kScanTile + 4 <= runs;
  Off item[kScanItems];
  if (whole) {
    u32 c[kScanItems];
    load_counts<kQ>(counts, r0, c);
#pragma unroll
    for (u32 k = 0; k < kScanItems; ++k) item[k] = CountAt<Off>::item(c[k]);
  } else {
#pragma unroll
    for (u32 k = 0; k < kScanItems; ++k) item[k] = CountAt<Off>{counts, runs}(r0 + k);
  }
  Off sum = item[0];
#pragma unroll
  for (u32 k = 1; k < kScanItems; ++k) sum = Op{}(sum, item[k]);
  Off before, aggregate;
  BlockScan(s_scan).ExclusiveScan(sum, before, Off{0}, Op{}, aggregate);
  if (threadIdx.x == 0) sums[blockIdx.x] = aggregate;
  Off out[kScanItems];
#pragma unroll
  for (u32 k = 0; k < kScanItems; ++k) {
    out[k] = before;
    before = Op{}(before, item[k]);
  }
  if (whole) {
    constexpr u32 kPer = 16 / sizeof(Off);
#pragma unroll
    for (u32 v = 0; v < kScanItems / kPer; ++v) {
      uint4 x;
      if constexpr (sizeof(Off) == 4) {
        x = make_uint4(out[4 * v], out[4 * v + 1], out[4 * v + 2], out[4 * v + 3]);
      } else {
        x = make_uint4(static_cast<u32>(out[2 * v]), static_cast<u32>(out[2 * v] >> 32),
                       static_cast<u32>(out[2 * v + 1]), static_cast<u32>(out[2 * v + 1] >> 32));
      }
      reinterpret_cast<uint4*>(local + r0)[v] = x;
    }
  } else {
#pragma unroll
    for (u32 k = 0; k < kScanItems; ++k) {
      if (r0 + k <= runs) local[r0 + k] = out[k];
    }
  }
}

// Variant scan. Output tiles of kExpandRows rows of kBlockThreads 16-byte vectors, one per
// thread per row (the layout of crc32_tile.cuh); tile_run[t] = the run holding tile t's first
// element, one binary search per tile, all tiles at once.
// Eight rows for 32-bit elements, four for the others (the most whose marks and values fit in
// static shared memory), to spread a tile's fixed costs (barriers, the CRC's reduction).
template <typename T>
constexpr u32 kExpandRows = sizeof(T) == 4 ? 8 : 4;
template <typename T>
constexpr u32 kExpandTile = kExpandRows<T>* kBlockThreads* cuda::kPerVector<T>;
template <typename T>
constexpr u64 kExpandTileBytes = u64{kExpandRows<T>} * kBlockThreads* cuda::kCrcVector;

template <typename Off>
__global__ void tile_runs_kernel(RunOffsets<Off> offsets, u64 runs, u64 n, u32 tile, u64 tiles,
                                 u64* __restrict__ tile_run) {
  const u64 t = u64{blockIdx.x} * kBlockThreads + threadIdx.x;
  if (t >= tiles || offsets.total(runs) != n) return;  // invalid counts: the host reports it
  tile_run[t] = cuda::last_at_or_below(offsets, 0, runs - 1, t * tile);
}

// Runs a thread stages at once: four cover a tile of 32-bit elements at runs of mean 8
// (bench/NOTES.md, "four runs a thread").
constexpr u32 kStageRuns = 4;
static_assert((kStageRuns - 1) * kBlockThreads + 1 <= kScanTile);  // a round's offsets: Near

// Elements of one warp-wide row of vectors.
template <typename T>
constexpr u32 kWarpSpan = 32 * cuda::kPerVector<T>;

// The runs holding tile t's elements: tile_run[t] on, at most kTile of them (once the counts
// are valid, run lo + kTile, when counted, starts at the next tile). Kept as loaded, so that a
// kernel can ask for the next tile's span and use it only after the current tile's staging.
struct TileRunSpan {
  u64 lo = 0, hi = 0;
  template <u32 kTile>
  __device__ __forceinline__ u32 count() const {
    return static_cast<u32>(min(hi - lo + 1, u64{kTile}));
  }
};

__device__ __forceinline__ TileRunSpan tile_run_span(const u64* __restrict__ tile_run, u64 runs,
                                                     u64 t, u64 tiles) {
  TileRunSpan span;
  if (t < tiles) span = {tile_run[t], t + 1 < tiles ? tile_run[t + 1] : runs - 1};
  return span;
}

// Asks L2 for the lines that the staging of a tile will read (its runs' offsets and values),
// while the block writes the rows of the tile before it, so that the staging's loads, which
// every warp of the block waits on at the next barrier, hit L2 (bench/NOTES.md, "the RLE
// decoders' staging and counts scan").
template <u32 kTile, typename T, typename Off>
__device__ __forceinline__ void prefetch_runs(RunOffsets<Off> offsets, Values<T> values,
                                              TileRunSpan span) {
  const u32 count = span.count<kTile>();
  const auto* off = reinterpret_cast<const u8*>(offsets.local + span.lo);
  const u8* val = values.p + span.lo * sizeof(T);
  const u32 off_bytes = (count + 1) * sizeof(Off), val_bytes = count * sizeof(T);
  constexpr u32 kLine = 128;
  const u32 off_lines = (off_bytes + kLine - 1) / kLine;
  const u32 lines = off_lines + (val_bytes + kLine - 1) / kLine;
  for (u32 k = threadIdx.x; k < lines; k += kBlockThreads) {
    const u8* p = k < off_lines ? off + min(k * kLine, off_bytes - 1)
                                : val + min((k - off_lines) * kLine, val_bytes - 1);
    asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
  }
}

// The runs of a tile's span. Calls place(k, value, first, last) for each: run lo + k holds the
// tile's elements [first, last), first its start less the tile's (for k == 0, a run that may
// start before the tile, wrapped). kStageRuns runs a thread at a time, every load issued before
// the first use (one run at a time, a thread's runs waited on each other's loads).
template <u32 kTile, typename T, typename Off, typename Place>
__device__ __forceinline__ void for_tile_runs(RunOffsets<Off> offsets, u64 runs, Values<T> values,
                                              u64 tile0, TileRunSpan span, Place place) {
  const u64 lo = span.lo;
  const u32 count = span.count<kTile>();
  for (u32 k0 = threadIdx.x; k0 < count; k0 += kStageRuns * kBlockThreads) {
    const auto near = offsets.near(lo + k0, runs);
    T value[kStageRuns];
    Off start[kStageRuns], end[kStageRuns];
#pragma unroll
    for (u32 s = 0; s < kStageRuns; ++s) {
      const u32 k = k0 + s * kBlockThreads;
      if (k < count) {
        value[s] = values[lo + k];
        start[s] = near[s * kBlockThreads];
        end[s] = near[s * kBlockThreads + 1];
      }
    }
#pragma unroll
    for (u32 s = 0; s < kStageRuns; ++s) {
      const u32 k = k0 + s * kBlockThreads;
      if (k >= count) break;
      place(k, value[s], start[s] - tile0, static_cast<u32>(min(end[s] - tile0, u64{kTile})));
    }
  }
}

// Grid-stride over tiles. Each tile marks in shared memory where its runs start, with their
// numbers in the tile (run 0 holds the tile's first element: mark 0, the fill), and marks the
// first element of every warp span (kWarpSpan) with the run holding it. The run of an element
// is then the largest mark at or before it: a running max over the thread's vector, and the
// largest mark of the warp's earlier lanes (a ballot). No search and no data-dependent loop: they
// made it instruction-bound (bench/NOTES.md, "RLE scan decoder without searches"). crc_tiles's
// tiles are whole: their CRC-32s come from the same registers.
template <typename T, typename Off>
__global__ void __launch_bounds__(kBlockThreads)
    expand_kernel(RunOffsets<Off> offsets, const u64* __restrict__ tile_run, u64 runs,
                  Values<T> values, u64 n, T* __restrict__ out, u64 tiles,
                  cuda::FusedCrcTiles crc_tiles) {
  static_assert(kBlockThreads == cuda::kCrcThreads);
  constexpr u32 kPer = cuda::kPerVector<T>;
  constexpr u32 kTile = kExpandTile<T>;
  constexpr u32 kSpan = kWarpSpan<T>;
  static_assert(kTile <= 0xFFFF && kTile % 8 == 0);
  __shared__ alignas(16) std::uint16_t s_mark[kTile];
  __shared__ T s_value[kTile];
  // Invalid counts (the same for every block): the host reports them.
  if (offsets.total(runs) != n) return;
  for (u32 k = threadIdx.x; k < kTile / 8; k += kBlockThreads) {
    reinterpret_cast<uint4*>(s_mark)[k] = uint4{};
  }
  __syncthreads();
  const u32 lane = threadIdx.x % 32;
  for (u64 t = blockIdx.x; t < tiles; t += gridDim.x) {
    const u64 tile0 = t * kTile;
    const TileRunSpan span = tile_run_span(tile_run, runs, t, tiles);
    const TileRunSpan next = tile_run_span(tile_run, runs, t + gridDim.x, tiles);
    const u64 lo = span.lo;
    const u32 count = span.count<kTile>();
    // for_tile_runs, inline: through it, at the same registers, this kernel ran slower
    // (bench/NOTES.md, "the RLE decoders' staging and counts scan").
    for (u32 k0 = threadIdx.x; k0 < count; k0 += kStageRuns * kBlockThreads) {
      const auto near = offsets.near(lo + k0, runs);
      T value[kStageRuns];
      Off start[kStageRuns], end[kStageRuns];
#pragma unroll
      for (u32 s = 0; s < kStageRuns; ++s) {
        const u32 k = k0 + s * kBlockThreads;
        if (k < count) {
          value[s] = values[lo + k];
          start[s] = near[s * kBlockThreads];
          end[s] = near[s * kBlockThreads + 1];
        }
      }
#pragma unroll
      for (u32 s = 0; s < kStageRuns; ++s) {
        const u32 k = k0 + s * kBlockThreads;
        if (k >= count) break;
        s_value[k] = value[s];
        const u64 first = start[s] - tile0;
        if (k == 0 || first >= kTile) continue;
        const u32 last = static_cast<u32>(min(end[s] - tile0, u64{kTile}));
        s_mark[first] = static_cast<std::uint16_t>(k);
        for (u32 b = (static_cast<u32>(first) / kSpan + 1) * kSpan; b < last; b += kSpan) {
          s_mark[b] = static_cast<std::uint16_t>(k);
        }
      }
    }
    __syncthreads();
    if (t + gridDim.x < tiles) prefetch_runs<kTile>(offsets, values, next);
    const bool crc_tile = t < crc_tiles.count;  // whole: every thread stores every row
    cuda::RowsCrc<kExpandRows<T>> crc;
#pragma unroll
    for (u32 r = 0; r < kExpandRows<T>; ++r) {
      const u32 e0 = (r * kBlockThreads + threadIdx.x) * kPer;
      // This vector's marks as running maxima, then cleared for the next tile.
      u32 run[kPer];
      u32 most = 0;
      auto* marks = reinterpret_cast<uint2*>(s_mark + e0);
#pragma unroll
      for (u32 q = 0; q < kPer / 4; ++q) {
        const uint2 m = marks[q];
        const u32 four[4] = {m.x & 0xFFFFu, m.x >> 16, m.y & 0xFFFFu, m.y >> 16};
#pragma unroll
        for (u32 j = 0; j < 4; ++j) run[4 * q + j] = most = max(most, four[j]);
        marks[q] = uint2{};
      }
      // A lane whose first element starts no run continues the nearest earlier lane that has
      // a nonzero mark (marks grow along the span), or run 0.
      const u32 earlier = __ballot_sync(0xFFFFFFFFu, most != 0) & ((1u << lane) - 1);
      u32 before = __shfl_sync(0xFFFFFFFFu, most, earlier != 0 ? 31 - __clz(earlier) : 0);
      if (earlier == 0) before = 0;
      T buf[kPer];
#pragma unroll
      for (u32 j = 0; j < kPer; ++j) buf[j] = s_value[max(before, run[j])];
      cuda::store_row(out, n, tile0 + e0, r, buf, crc_tile, crc);
    }
    if (crc_tile) crc.reduce_into(crc_tiles.slots + t);
    __syncthreads();  // the next tile's runs overwrite s_value and s_mark
  }
}

// This vector's head flags, one byte an element (0 or 1), as bit j for element j; cleared for
// the next tile.
template <u32 K>
__device__ __forceinline__ u32 take_heads(u8* heads) {
  static_assert(K == 4 || K == 8 || K == 16);
  u32 words[K / 4];
  if constexpr (K == 4) {
    auto* p = reinterpret_cast<u32*>(heads);
    words[0] = *p;
    *p = 0;
  } else if constexpr (K == 8) {
    auto* p = reinterpret_cast<uint2*>(heads);
    const uint2 v = *p;
    words[0] = v.x;
    words[1] = v.y;
    *p = uint2{};
  } else {
    auto* p = reinterpret_cast<uint4*>(heads);
    const uint4 v = *p;
    words[0] = v.x;
    words[1] = v.y;
    words[2] = v.z;
    words[3] = v.w;
    *p = uint4{};
  }
  u32 bits = 0;
#pragma unroll
  for (u32 w = 0; w < K / 4; ++w) {
    // Bytes b0..b3 of a word to bits 24..27: the four shifted copies land on distinct bits.
    bits |= (words[w] * 0x01020408u) >> 24 << (4 * w);
  }
  return bits;
}

// Variant flood, the flood-right decoder's two steps (scatter, then scan) fused into one pass over
// tiles. Each tile scatters its runs' values to their starts in shared memory with a head flag (a
// value may be 0), and to the first element of every warp span a run covers, so each span floods on
// its own; then an inclusive flood-right scan (x (+) y = y where y is a head, else x) of each row,
// within the thread's vector, then across lanes by a ballot of the heads (CUB's WarpScan on (flag,
// value) pairs was slower, bench/NOTES.md, "the RLE flood decoder in one pass"). Same tiles, tile
// search and fused CRC as expand_kernel.
template <typename T, typename Off>
__global__ void __launch_bounds__(kBlockThreads)
    flood_kernel(RunOffsets<Off> offsets, const u64* __restrict__ tile_run, u64 runs,
                 Values<T> values, u64 n, T* __restrict__ out, u64 tiles,
                 cuda::FusedCrcTiles crc_tiles) {
  static_assert(kBlockThreads == cuda::kCrcThreads);
  constexpr u32 kPer = cuda::kPerVector<T>;
  constexpr u32 kTile = kExpandTile<T>;
  constexpr u32 kSpan = kWarpSpan<T>;
  __shared__ alignas(16) T s_value[kTile];
  __shared__ alignas(16) u8 s_head[kTile];
  // Invalid counts (the same for every block): the host reports them.
  if (offsets.total(runs) != n) return;
  for (u32 k = threadIdx.x; k < kTile / 16; k += kBlockThreads) {
    reinterpret_cast<uint4*>(s_head)[k] = uint4{};
  }
  __syncthreads();
  const u32 lane = threadIdx.x % 32;
  for (u64 t = blockIdx.x; t < tiles; t += gridDim.x) {
    const TileRunSpan span = tile_run_span(tile_run, runs, t, tiles);
    for_tile_runs<kTile>(
        offsets, runs, values, t * kTile, span, [&](u32 k, T value, u64 first, u32 last) {
          if (k == 0) first = 0;
          if (first >= kTile) return;
          s_value[first] = value;
          s_head[first] = 1;
          for (u32 b = (static_cast<u32>(first) / kSpan + 1) * kSpan; b < last; b += kSpan) {
            s_value[b] = value;
            s_head[b] = 1;
          }
        });
    __syncthreads();
    const bool crc_tile = t < crc_tiles.count;  // whole: every thread stores every row
    cuda::RowsCrc<kExpandRows<T>> crc;
#pragma unroll
    for (u32 r = 0; r < kExpandRows<T>; ++r) {
      const u32 e0 = (r * kBlockThreads + threadIdx.x) * kPer;
      T buf[kPer];
      cuda::from_vector(*reinterpret_cast<const uint4*>(s_value + e0), buf);
      const u32 heads = take_heads<kPer>(s_head + e0);
      // The vector's last head, which the warp's later lanes may need.
      T last = 0;
#pragma unroll
      for (u32 j = 0; j < kPer; ++j) last = (heads >> j & 1u) != 0 ? buf[j] : last;
      // The value of the nearest head before this vector is the last one of the nearest
      // earlier lane with a head (lane 0 has one: every span starts with a head).
      const u32 earlier = __ballot_sync(0xFFFFFFFFu, heads != 0) & ((1u << lane) - 1);
      T flood = static_cast<T>(
          __shfl_sync(0xFFFFFFFFu, static_cast<u32>(last), earlier != 0 ? 31 - __clz(earlier) : 0));
#pragma unroll
      for (u32 j = 0; j < kPer; ++j) buf[j] = flood = (heads >> j & 1u) != 0 ? buf[j] : flood;
      cuda::store_row(out, n, t * kTile + e0, r, buf, crc_tile, crc);
    }
    if (crc_tile) crc.reduce_into(crc_tiles.slots + t);
    __syncthreads();  // the next tile's runs overwrite s_value and s_head
  }
}

template <typename Off>
__global__ void check_counts_kernel(RunOffsets<Off> offsets, u64 runs, u64 n,
                                    DeviceStatus* status) {
  const Off total = offsets.total(runs);
  if (total != n) {
    cuda::set_error(status, kBadCounts, total == kSaturated<Off> ? kSaturatedDetail : total);
  }
}

}  // namespace gcbench::rle::gpu::detail
