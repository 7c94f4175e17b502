#pragma once
// The kernels of the fused GPU RLE encoder (rle_gpu_encoder.cu, its one includer): the one-pass
// run finder with decoupled look-back, and the assembly of the payload from contiguous runs.
#include <cstdint>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_scan.cuh>

#include "codecs/common/container_device.cuh"
#include "codecs/common/crc32_tile.cuh"
#include "codecs/common/device_elements.cuh"
#include "codecs/rle/detail/common.cuh"
#include "codecs/rle/detail/long_runs.cuh"

namespace gcbench::rle::gpu::detail {

constexpr int kEncItems = 16;  // elements per thread in the encoder
constexpr u32 kEncTile = kBlockThreads * kEncItems;

// Look-back state when n < 2^32: runs so far (high half) and the last start (low half) in one
// word, so that CUB keeps status and value in a single 16-byte transaction.
struct PackedPrefix {
  using Item = unsigned long long;
  __device__ static Item make(u64 runs, u64 last) { return runs << 32 | last; }
  __device__ static u64 runs(Item x) { return x >> 32; }
  __device__ static u64 last(Item x) { return x & 0xFFFFFFFFull; }
  struct Op {
    __device__ Item operator()(Item a, Item b) const {
      return ((a >> 32) + (b >> 32)) << 32 | max(a & 0xFFFFFFFFull, b & 0xFFFFFFFFull);
    }
  };
};

struct WidePrefix {
  struct Item {
    u64 runs;
    u64 last;
  };
  __device__ static Item make(u64 runs, u64 last) { return Item{runs, last}; }
  __device__ static u64 runs(Item x) { return x.runs; }
  __device__ static u64 last(Item x) { return x.last; }
  struct Op {
    __device__ Item operator()(Item a, Item b) const {
      return Item{a.runs + b.runs, max(a.last, b.last)};
    }
  };
};

template <typename Item>
__global__ void init_tiles_kernel(cub::ScanTileState<Item> tiles, int num_tiles) {
  tiles.InitializeStatus(num_tiles);
}

template <typename T, typename P>
__global__ void __launch_bounds__(kBlockThreads)
    encode_kernel(const T* __restrict__ in, u64 n, u64 max_count,
                  cub::ScanTileState<typename P::Item> tiles, u32* __restrict__ counts,
                  T* __restrict__ values, u64* __restrict__ run_total, LongRun* long_runs,
                  u32* long_count, u32 long_capacity, u32* __restrict__ crc_tiles,
                  u64 crc_tile_count) {
  static_assert(kBlockThreads == cuda::kCrcThreads);
  using Item = typename P::Item;
  using Op = typename P::Op;
  using BlockScan = cub::BlockScan<Item, kBlockThreads, cub::BLOCK_SCAN_WARP_SCANS>;
  using Prefix = cub::TilePrefixCallbackOp<Item, Op, cub::ScanTileState<Item>>;
  __shared__ typename BlockScan::TempStorage s_scan;
  __shared__ typename Prefix::TempStorage s_prefix;
  __shared__ T s_values[kEncTile];
  __shared__ u32 s_counts[kEncTile];
  __shared__ u64 s_first_run, s_end_run;

  const int tile = static_cast<int>(blockIdx.x);
  const bool crc_tile = blockIdx.x < crc_tile_count;
  const u64 i0 = u64{blockIdx.x} * kEncTile + u64{threadIdx.x} * kEncItems;
  T v[kEncItems];
  cuda::load_items(in, n, i0, v);
  // The container's CRC-32, tile by tile, from the same registers.
  if (crc_tile) cuda::blocked_crc_into(v, crc_tiles + blockIdx.x);
  // The element before this thread's first: the previous lane's last, or a load at lane 0.
  const u32 up = __shfl_up_sync(0xFFFFFFFFu, static_cast<u32>(v[kEncItems - 1]), 1);
  const T prev =
      (threadIdx.x & 31) != 0 ? static_cast<T>(up) : (i0 > 0 && i0 < n ? in[i0 - 1] : T{0});
  u32 starts = 0;  // bit k: element i0 + k starts a run
  u64 last = 0;    // position of this thread's last start
#pragma unroll
  for (int k = 0; k < kEncItems; ++k) {
    const u64 i = i0 + k;
    if (i < n && (i == 0 || v[k] != (k == 0 ? prev : v[k - 1]))) {
      starts |= 1u << k;
      last = i;
    }
  }
  const u32 mine = __popc(starts);

  Item excl;
  if (tile == 0) {
    Item aggregate;
    BlockScan(s_scan).ExclusiveScan(P::make(mine, last), excl, P::make(0, 0), Op{}, aggregate);
    if (threadIdx.x == 0) tiles.SetInclusive(0, aggregate);
  } else {
    Prefix prefix(tiles, s_prefix, Op{}, tile);
    BlockScan(s_scan).ExclusiveScan(P::make(mine, last), excl, Op{}, prefix);
  }
  u64 r = P::runs(excl);
  u64 prev_start = P::last(excl);  // meaningful once a run has started (r > 0)
  if (threadIdx.x == 0) s_first_run = r;
  if (threadIdx.x == kBlockThreads - 1) s_end_run = r + mine;
  __syncthreads();
  const u64 first_run = s_first_run;

  // Stage this tile's runs: value of run g, and the count of run g - 1 (it ends here).
#pragma unroll
  for (int k = 0; k < kEncItems; ++k) {
    if ((starts >> k) & 1u) {
      const u64 i = i0 + k;
      const auto local = static_cast<u32>(r - first_run);
      s_values[local] = v[k];
      if (r > 0) {
        s_counts[local] =
            clamp_count(r - 1, i - prev_start, max_count, long_runs, long_count, long_capacity);
      }
      prev_start = i;
      ++r;
    }
  }
  // The last run ends at n; the thread holding element n - 1 writes its count and the total.
  if (i0 < n && n - i0 <= kEncItems) {
    counts[r - 1] =
        clamp_count(r - 1, n - prev_start, max_count, long_runs, long_count, long_capacity);
    *run_total = r;
  }
  __syncthreads();
  const auto tile_runs = static_cast<u32>(s_end_run - first_run);
  for (u32 k = threadIdx.x; k < tile_runs; k += kBlockThreads) {
    const u64 g = first_run + k;
    values[g] = s_values[k];
    if (g > 0) counts[g - 1] = s_counts[k];
  }
}

// ---- assembling the payload from contiguous runs

__global__ void extra_pieces_kernel(const LongRun* long_runs, const u32* long_count, u32 capacity,
                                    u64 max_count, u64* extra) {
  const u64 j = u64{blockIdx.x} * kBlockThreads + threadIdx.x;
  if (j > capacity) return;
  extra[j] = j < min(*long_count, capacity) ? (long_runs[j].length - 1) / max_count : 0;
}

// Run r goes to run r + (pieces added by the long runs before it); a long run is written as
// pieces of max_count and a remainder. Counts and values go to their unaligned offsets.
template <typename T>
__global__ void assemble_kernel(const u32* __restrict__ counts, const T* __restrict__ values,
                                const u64* run_count, const LongRun* __restrict__ long_runs,
                                const u64* __restrict__ shift, u32 capacity, u64 max_count,
                                u8* payload, u64 counts_offset, u64* payload_size) {
  const u64 runs = *run_count;
  const u64 total = runs + shift[capacity];
  u8* out_counts = payload + counts_offset;
  u8* out_values = out_counts + 4 * total;
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    cuda::store_le<u64>(payload + counts_offset - 8, total);
    *payload_size = counts_offset + total * (4 + sizeof(T));
  }
  for (u64 r = u64{blockIdx.x} * kBlockThreads + threadIdx.x; r < runs;
       r += u64{gridDim.x} * kBlockThreads) {
    u32 lo = 0, hi = capacity;  // first long run listed at or after r
    while (lo < hi) {
      const u32 mid = (lo + hi) / 2;
      if (long_runs[mid].run < r) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    u64 at = r + shift[lo];
    const T v = values[r];
    if (lo < capacity && long_runs[lo].run == r) {
      for (u64 left = long_runs[lo].length; left > 0; ++at) {
        const u64 piece = min(left, max_count);
        cuda::store_le<u32>(out_counts + 4 * at, static_cast<u32>(piece));
        cuda::store_le<T>(out_values + sizeof(T) * at, v);
        left -= piece;
      }
    } else {
      cuda::store_le<u32>(out_counts + 4 * at, counts[r]);
      cuda::store_le<T>(out_values + sizeof(T) * at, v);
    }
  }
}

}  // namespace gcbench::rle::gpu::detail
