#pragma once
// The kernels of the fused GPU RLE encoder (rle_gpu_encoder.cu, its one includer): the one-pass
// run finder with decoupled look-back, and the assembly of the payload from contiguous runs.
#include <cstdint>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_scan.cuh>
#include <type_traits>

#include "codecs/common/container_device.cuh"
#include "codecs/common/crc32_tile.cuh"
#include "codecs/common/device_elements.cuh"
#include "codecs/common/tile_state.cuh"
#include "codecs/rle/detail/common.cuh"
#include "codecs/rle/detail/long_runs.cuh"

namespace gcbench::rle::gpu::detail {

// Elements per thread in the encoder: 64 bytes for 16- and 32-bit elements, 32 for bytes (the
// most whose staged values and 16-bit lengths fit the 48 KiB of static shared memory). With 16
// elements at every width, tiles of 1-byte elements held 4 KiB, and the kernel is bound by each
// tile's latency, as FL's one-pass encoder was (bench/NOTES.md, "RLE compression in place").
__host__ __device__ constexpr u32 enc_items(u32 width) {
  return width == 1 ? 32 : 64 / width;
}
template <typename T>
constexpr u32 kEncItems = enc_items(sizeof(T));
template <typename T>
constexpr u32 kEncTile = kBlockThreads* kEncItems<T>;
// A run's length within a tile, as staged: 16 bits where the larger tiles of narrow elements
// need the shared memory, 32 for 32-bit elements (40 registers instead of 43: six blocks an SM).
template <typename T>
using EncLength = std::conditional_t<sizeof(T) == 4, u32, std::uint16_t>;

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

// A tile's runs and last start as its block scans them, in 32 bits (a tile holds at most 8192
// elements): runs in the high half, 1 + the last start's place in the tile in the low half (0:
// none). Half the registers and shuffles of the look-back's 64-bit items (bench/NOTES.md, "the
// RLE encoder in fewer instructions").
struct TileRuns {
  static_assert(kEncTile<std::uint8_t> < 0x10000 && kEncTile<std::uint16_t> < 0x10000 &&
                kEncTile<std::uint32_t> < 0x10000);
  __device__ static u32 make(u32 runs, u32 end) { return runs << 16 | end; }
  __device__ static u32 runs(u32 x) { return x >> 16; }
  __device__ static u32 end(u32 x) { return x & 0xFFFFu; }
  // The last start as the look-back's items hold it: its element index, 0 when none.
  __device__ static u64 last_start(u32 x, u64 tile_first) {
    return end(x) != 0 ? tile_first + end(x) - 1 : 0;
  }
  struct Op {  // a before b: b's last start, if any, is the later one
    __device__ u32 operator()(u32 a, u32 b) const {
      return b + (a & (end(b) != 0 ? 0xFFFF0000u : ~0u));
    }
  };
};

// Where the encoder writes each run's count: the contiguous array of the long-run path, or
// straight into the payload (bytes, at any alignment) when no run can exceed the count limit.
struct CountsOut {
  u32* array;
  u8* payload;
};

// One block per tile of kEncTile<T> elements: flags the run starts, scans (runs, last start) over
// the block, stages the tile's runs in shared memory while warp 0 takes the runs before the
// tile from a decoupled look-back, then writes the tile's values and counts, each once and
// coalesced.
template <typename T, typename P>
__global__ void __launch_bounds__(kBlockThreads)
    encode_kernel(const T* __restrict__ in, u64 n, u64 max_count,
                  cub::ScanTileState<typename P::Item> tiles, CountsOut counts,
                  T* __restrict__ values, u64* __restrict__ run_total, LongRun* long_runs,
                  u32* long_count, u32 long_capacity, cuda::FusedCrcTiles crc) {
  static_assert(kBlockThreads == cuda::kCrcThreads);
  using Item = typename P::Item;
  using Op = typename P::Op;
  using BlockScan = cub::BlockScan<u32, kBlockThreads, cub::BLOCK_SCAN_WARP_SCANS>;
  using LookBack = cuda::LateLookBack<Item, Op>;
  __shared__ typename BlockScan::TempStorage s_scan;
  __shared__ typename LookBack::TempStorage s_prefix;
  // Run k of the tile at cuda::bank_padded(k): a thread stages its runs at consecutive k, so with
  // runs of 1 the lanes' k are kEncItems<T> apart, which unpadded would put many lanes on one
  // bank.
  __shared__ T s_values[cuda::bank_padded(kEncTile<T>)];
  // [bank_padded(k)]: the length of run first_run + k - 1 (k > 0).
  __shared__ EncLength<T> s_counts[cuda::bank_padded(kEncTile<T> + 1)];
  __shared__ Item s_before;

  const int tile = static_cast<int>(blockIdx.x);
  const bool last_tile = blockIdx.x == gridDim.x - 1;  // it holds element n - 1
  const u64 tile_first = u64{blockIdx.x} * kEncTile<T>;
  const u32 my_first = threadIdx.x * kEncItems<T>;  // within the tile
  const u64 i0 = tile_first + my_first;
  const u32 valid = i0 < n ? static_cast<u32>(min(u64{kEncItems<T>}, n - i0)) : 0;
  T v[kEncItems<T>];
  cuda::load_items(in, n, i0, v);
  // The element before this thread's first: the previous lane's last, a load at lane 0, or
  // before element 0 anything unequal to it.
  const u32 up = __shfl_up_sync(0xFFFFFFFFu, static_cast<u32>(v[kEncItems<T> - 1]), 1);
  const T prev = i0 == 0                   ? static_cast<T>(~v[0])
                 : (threadIdx.x & 31) != 0 ? static_cast<T>(up)
                 : valid > 0               ? in[i0 - 1]
                                           : T{0};
  u32 starts = 0;  // bit k: element i0 + k starts a run
#pragma unroll
  for (u32 k = 0; k < kEncItems<T>; ++k) {
    if (v[k] != (k == 0 ? prev : v[k - 1])) starts |= 1u << k;
  }
  starts &= valid >= 32 ? ~0u : (1u << valid) - 1;

  // Runs and last start before each thread, within the tile, in one word (TileRuns); the
  // tile's total is published at once for the tiles after it, then every warp stages its runs
  // and computes its part of the tile's CRC-32, off that path, before warp 0 looks back for the
  // runs before the tile.
  const u32 mine = TileRuns::make(__popc(starts), starts != 0 ? my_first + 32 - __clz(starts) : 0);
  u32 local, tile_local;
  BlockScan(s_scan).ExclusiveScan(mine, local, 0u, TileRuns::Op{}, tile_local);
  const u32 tile_runs = TileRuns::runs(tile_local);
  const Item aggregate = P::make(tile_runs, TileRuns::last_start(tile_local, tile_first));
  LookBack look_back{tiles, tile};
  look_back.publish(aggregate);
  // Staged by their index k in the tile: the value of run k, and the length of run k - 1 (at
  // most kEncTile<T>) or, for k = 0, 1 + the place of the tile's first start. The stores are
  // predicated, not branched around: skipping a warp's empty steps cost more than it saved
  // (bench/NOTES.md, "the RLE encoder in fewer instructions").
  u32 k_run = TileRuns::runs(local);
  u32 prev_end = TileRuns::end(local);
#pragma unroll
  for (u32 k = 0; k < kEncItems<T>; ++k) {
    const bool start = (starts >> k) & 1u;
    const u32 end = my_first + k + 1;
    const u32 at = cuda::bank_padded(k_run);
    cuda::store_shared_if(start, &s_values[at], v[k]);
    cuda::store_shared_if(start, &s_counts[at], static_cast<EncLength<T>>(end - prev_end));
    prev_end = start ? end : prev_end;
    k_run += start;
  }
  if (blockIdx.x < crc.count) cuda::blocked_crc_into(v, crc.slots + blockIdx.x);
  if (threadIdx.x < 32) {
    const Item before = look_back.prefix(s_prefix, aggregate, P::make(0, 0));
    if (threadIdx.x == 0) s_before = before;
  }
  __syncthreads();

  const Item before = s_before;
  const u64 first_run = P::runs(before);
  if (last_tile && threadIdx.x == 0) *run_total = first_run + tile_runs;
  for (u32 k = threadIdx.x; k < tile_runs; k += kBlockThreads) {
    values[first_run + k] = s_values[cuda::bank_padded(k)];
  }
  // The length of run first_run + k - 1, for k in [lo, hi): the one ending at the tile's first
  // start began before the tile, and the last run ends at n.
  const u32 lo = first_run == 0 ? 1 : 0;
  const u32 hi = tile_runs + (last_tile ? 1 : 0);
  const u64 tile_last_start = P::last(Op{}(before, aggregate));
  const u64 first_length = tile_first + s_counts[cuda::bank_padded(0)] - 1 - P::last(before);
  auto length = [&](u32 k) -> u64 {
    const u64 staged = s_counts[cuda::bank_padded(k)];  // loaded either way: no branch
    return k == tile_runs ? n - tile_last_start : k == 0 ? first_length : staged;
  };
  if (counts.payload != nullptr) {  // no length exceeds n <= max_count < 2^32
    cuda::block_store_words(counts.payload + 4 * (first_run + lo - 1), hi - lo,
                            [&](u32 j) { return static_cast<u32>(length(lo + j)); });
  } else {
    for (u32 k = lo + threadIdx.x; k < hi; k += kBlockThreads) {
      const u64 run = first_run + k - 1;
      counts.array[run] =
          clamp_count(run, length(k), max_count, long_runs, long_count, long_capacity);
    }
  }
}

// ---- assembling the payload from contiguous runs

__global__ void extra_pieces_kernel(const LongRun* long_runs, const u32* long_count, u32 capacity,
                                    u64 max_count, u64* extra) {
  const u64 j = u64{blockIdx.x} * kBlockThreads + threadIdx.x;
  if (j > capacity) return;
  extra[j] = j < min(*long_count, capacity) ? (long_runs[j].length - 1) / max_count : 0;
}

// Block 0's part of placing `runs` runs (after any split) in the payload: their count before
// the counts, and the payload's size.
__device__ __forceinline__ void store_run_total(u8* out_counts, u64 runs, u32 width,
                                                u64 counts_offset, u64* payload_size) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    cuda::store_le<u64>(out_counts - 8, runs);
    *payload_size = counts_offset + runs * (4 + width);
  }
}

// The payload's runs when none was split: run_count, then counts (copied from the array, or
// already in place when counts is null) and values at the offsets that run_count gives.
__global__ void place_runs_kernel(const u32* counts, const u8* values, u32 width,
                                  const u64* run_count, u8* payload, u64 counts_offset,
                                  u64* payload_size) {
  const u64 runs = *run_count;
  u8* out_counts = payload + counts_offset;
  store_run_total(out_counts, runs, width, counts_offset, payload_size);
  if (counts != nullptr) {
    cuda::copy_bytes(out_counts, reinterpret_cast<const u8*>(counts), 4 * runs);
  }
  cuda::copy_bytes(out_counts + 4 * runs, values, width * runs);
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
  store_run_total(out_counts, total, sizeof(T), counts_offset, payload_size);
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
