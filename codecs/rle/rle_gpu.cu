// RLE on the GPU (SPEC 1.2, seeds fl-rle-plan, parle-rle-cuda, flood-right-scan),
// byte-identical to rle_cpu.cpp.
//
// Compression fuses the seeds' four steps (start mask, scan, compaction, scatter) into one
// pass: each tile flags run starts, scans (runs so far, last start position) across the block
// and, through CUB's decoupled look-back, across tiles; a start at position i that is run r
// then knows value[r] = in[i] and counts[r - 1] = i - (previous start). The input is read once
// and the runs written once, through shared memory so that the stores are coalesced.
//
// Decompression first scans the counts (CUB ExclusiveScan, saturating, so that hostile counts
// cannot wrap) into run start offsets and checks them on the device, then either
//   scan:  each output tile loads its runs into shared memory (the tile's first run comes
//          from one binary search per tile, all tiles at once), then every thread
//          binary-searches the run of its first element there and walks on, or
//   flood: writes run number r + 1 at each run start into a zeroed array and runs an inclusive
//          flood-right scan over it; the scan's output iterator turns run numbers into values.
//          Run numbers rather than values are flooded because a value may be 0.
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/transform_output_iterator.h>
#include <algorithm>
#include <bit>
#include <cstring>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <stdexcept>
#include <string>

#include "codecs/common/container_device.cuh"
#include "codecs/common/crc32.cuh"
#include "codecs/common/crc32_tile.cuh"
#include "codecs/common/cuda_check.hpp"
#include "codecs/common/device_elements.cuh"
#include "codecs/common/elements.hpp"
#include "codecs/common/flood_scan.cuh"
#include "codecs/common/temp_storage.hpp"
#include "codecs/rle/rle.hpp"
#include "codecs/rle/rle_gpu.hpp"
#include "codecs/rle/rle_payload.hpp"
#include "gcbench/container.hpp"
#include "src/gpu/host_codec.hpp"

namespace gcbench::rle::gpu {
namespace {

static_assert(std::endian::native == std::endian::little,
              "counts and values are copied to and from the device as they are");

using u8 = std::uint8_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;
using cuda::kBlockThreads;

// A run longer than the count limit: the encoder stores max_count in its slot and lists the
// true length here; the assembly splits it as format.hpp says.
struct LongRun {
  u64 run;
  u64 length;
};

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

// The count of run `run`, or max_count with the true length recorded for the host to split.
__device__ __forceinline__ u32 clamp_count(u64 run, u64 length, u64 max_count, LongRun* long_runs,
                                           u32* long_count, u32 capacity) {
  if (length <= max_count) return static_cast<u32>(length);
  u32 slot = atomicAdd(long_count, 1u);
  if (slot < capacity) long_runs[slot] = LongRun{run, length};
  return static_cast<u32>(max_count);
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

  __shared__ cuda::BlockedCrcShared crc_shared;

  const int tile = static_cast<int>(blockIdx.x);
  const bool crc_tile = blockIdx.x < crc_tile_count;
  if (crc_tile) cuda::load_crc_tables(crc_shared);
  const u64 i0 = u64{blockIdx.x} * kEncTile + u64{threadIdx.x} * kEncItems;
  T v[kEncItems];
  cuda::load_items(in, n, i0, v);
  if (crc_tile) {  // the container's CRC-32, tile by tile, from the same registers
    __syncthreads();
    cuda::TileCrc<kEncItems * sizeof(T)> crc;
    cuda::add_items(crc, crc_shared, v);
    const u32 c = crc.reduce(crc_shared);
    if (threadIdx.x == 0) crc_tiles[blockIdx.x] = c;
  }
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

// ---- decoding

constexpr u64 kSaturated = u64{1} << 62;

// The scan input: count r (a zero count as kSaturated), and 0 at r == runs so that the
// exclusive scan's last entry is the total.
struct CountAt {
  const u8* counts;  // u32 little-endian, at any alignment
  u64 runs;
  __device__ u64 operator()(u64 r) const {
    if (r >= runs) return 0;
    u32 c = cuda::load_le<u32>(counts + 4 * r);
    return c == 0 ? kSaturated : c;
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
struct SaturatingAdd {
  __host__ __device__ u64 operator()(u64 a, u64 b) const {
    u64 s = a + b;
    return s < kSaturated ? s : kSaturated;
  }
};

auto count_iterator(const u8* counts, u64 runs) {
  return thrust::make_transform_iterator(thrust::make_counting_iterator<u64>(0),
                                         CountAt{counts, runs});
}

// The run holding element i (run offsets strictly increase once the counts are validated).
__device__ __forceinline__ u64 run_of(const u64* offsets, u64 lo, u64 hi, u64 i) {
  return cuda::last_at_or_below(offsets, lo, hi, i);
}

// Variant scan. Output tiles of kExpandRows rows of kBlockThreads 16-byte vectors, one per
// thread per row (the layout of crc32_tile.cuh); tile_run[t] = the run holding tile t's first
// element, one binary search per tile, all tiles at once.
// One row for bytes keeps the shared run table within 48 KiB.
template <typename T>
constexpr u32 kExpandRows = sizeof(T) == 1 ? 1 : 2;
template <typename T>
constexpr u32 kExpandTile = kExpandRows<T>* kBlockThreads* cuda::kPerVector<T>;
template <typename T>
constexpr u64 kExpandTileBytes = u64{kExpandRows<T>} * kBlockThreads* cuda::kCrcVector;

__global__ void tile_runs_kernel(const u64* __restrict__ offsets, u64 runs, u64 n, u32 tile,
                                 u64 tiles, u64* __restrict__ tile_run) {
  const u64 t = u64{blockIdx.x} * kBlockThreads + threadIdx.x;
  if (t >= tiles || offsets[runs] != n) return;  // invalid counts: the host reports it
  tile_run[t] = run_of(offsets, 0, runs - 1, t * tile);
}

// Grid-stride over tiles. A tile's runs (at most kExpandTile + 1 of them once the counts are
// valid) go to shared memory with their starts relative to the tile; each thread then
// binary-searches the run of its vector's first element there and walks forward. The first
// crc_tile_count tiles are whole: their CRC-32s come from the same registers.
template <typename T>
__global__ void __launch_bounds__(kBlockThreads)
    expand_kernel(const u64* __restrict__ offsets, const u64* __restrict__ tile_run, u64 runs,
                  Values<T> values, u64 n, T* __restrict__ out, u64 tiles,
                  u32* __restrict__ crc_tiles, u64 crc_tile_count) {
  static_assert(kBlockThreads == cuda::kCrcThreads);
  constexpr u32 kPer = cuda::kPerVector<T>;
  constexpr u32 kTile = kExpandTile<T>;
  __shared__ u32 s_start[kTile + 1];
  __shared__ T s_value[kTile + 1];
  __shared__ cuda::RowsCrcShared crc_shared;
  if (offsets[runs] != n) return;  // invalid counts (the same for every block): the host reports it
  cuda::load_crc_tables(crc_shared);
  for (u64 t = blockIdx.x; t < tiles; t += gridDim.x) {
    const u64 tile0 = t * kTile;
    const u64 lo = tile_run[t];
    const u64 hi = t + 1 < tiles ? tile_run[t + 1] : runs - 1;
    const u32 count = static_cast<u32>(min(hi - lo + 1, u64{kTile + 1}));
    for (u32 k = threadIdx.x; k < count; k += kBlockThreads) {
      const u64 start = offsets[lo + k];
      s_start[k] = start <= tile0 ? 0 : static_cast<u32>(min(start - tile0, u64{kTile}));
      s_value[k] = values[lo + k];
    }
    __syncthreads();
    cuda::RowsCrc crc;
#pragma unroll
    for (u32 r = 0; r < kExpandRows<T>; ++r) {
      const u32 e0 = (r * kBlockThreads + threadIdx.x) * kPer;
      if (tile0 + e0 >= n) break;
      u32 a = 0, b = count - 1;  // largest k with s_start[k] <= e0
      while (a < b) {
        const u32 mid = (a + b + 1) / 2;
        if (s_start[mid] <= e0) {
          a = mid;
        } else {
          b = mid - 1;
        }
      }
      u32 next = a + 1 < count ? s_start[a + 1] : 0xFFFFFFFFu;
      T buf[kPer];
#pragma unroll
      for (u32 j = 0; j < kPer; ++j) {
        while (e0 + j >= next) {
          ++a;
          next = a + 1 < count ? s_start[a + 1] : 0xFFFFFFFFu;
        }
        buf[j] = s_value[a];
      }
      T* dst = out + tile0 + e0;
      if (tile0 + e0 + kPer <= n) {
        cuda::store_vector(dst, buf);
      } else {
        for (u32 j = 0; tile0 + e0 + j < n; ++j) dst[j] = buf[j];
      }
      crc.add_row(crc_shared, cuda::to_vector(buf), r == kExpandRows<T> - 1);
    }
    if (t < crc_tile_count) {  // the same for the whole block
      const u32 c = crc.reduce(crc_shared);
      if (threadIdx.x == 0) crc_tiles[t] = c;
    }
    __syncthreads();  // the next tile's runs overwrite s_start
  }
}

// Variant flood, step 1: run number r + 1 at each run start (distinct once validated).
template <typename Idx>
__global__ void scatter_kernel(const u64* __restrict__ offsets, u64 runs, u64 n,
                               Idx* __restrict__ run_index) {
  if (offsets[runs] != n) return;
  const u64 r = u64{blockIdx.x} * kBlockThreads + threadIdx.x;
  if (r < runs && offsets[r] < n) run_index[offsets[r]] = static_cast<Idx>(r + 1);
}

// Variant flood, step 2's output: flooded run number -> value (bounded even for garbage).
template <typename T, typename Idx>
struct ValueOfRun {
  Values<T> values;
  u64 runs;
  __device__ T operator()(Idx run) const { return values[run >= 1 && run <= runs ? run - 1 : 0]; }
};

template <typename T, typename Idx>
auto flood_output(T* out, const u8* values, u64 runs) {
  return thrust::make_transform_output_iterator(out, ValueOfRun<T, Idx>{Values<T>{values}, runs});
}

template <typename Idx>
std::size_t flood_storage(u64 n, u32 width, u64 runs) {
  return cuda::with_element_type(width, [&](auto tag) {
    using T = decltype(tag);
    std::size_t bytes = 0;
    GCB_CUDA(cub::DeviceScan::InclusiveScan(nullptr, bytes, static_cast<const Idx*>(nullptr),
                                            flood_output<T, Idx>(nullptr, nullptr, runs),
                                            cuda::FloodRight{}, n));
    return bytes;
  });
}

}  // namespace

AxisSpec decode_axis() {
  AxisSpec a;
  a.name = "decode";
  a.help =
      "GPU decompression: scan (counts scan + binary search) or flood (scatter + flood-right scan)";
  a.default_value = static_cast<int>(DecodeVariant::scan);
  a.min = 0;
  a.max = 1;
  a.names = {"scan", "flood"};
  a.in_container = false;
  return a;
}

namespace {

constexpr u32 kBadCounts = kCodecError;  // detail: the counts' saturated sum

// ---- assembling the payload from contiguous runs

// Entries past long_count keep their all-ones fill, so they sort last and add nothing.
struct ByRun {
  __device__ bool operator()(const LongRun& a, const LongRun& b) const { return a.run < b.run; }
};

__global__ void extra_pieces_kernel(const LongRun* long_runs, const u32* long_count, u32 capacity,
                                    u64 max_count, u64* extra) {
  const u64 j = u64{blockIdx.x} * kBlockThreads + threadIdx.x;
  if (j > capacity) return;
  extra[j] = j < min(*long_count, capacity) ? (long_runs[j].length - 1) / max_count : 0;
}

// Counts of a CUB encoding are true lengths: clamp the long ones and list them.
__global__ void clamp_kernel(u32* counts, const u64* run_count, u64 max_count, LongRun* long_runs,
                             u32* long_count, u32 capacity) {
  const u64 runs = *run_count;
  for (u64 r = u64{blockIdx.x} * kBlockThreads + threadIdx.x; r < runs;
       r += u64{gridDim.x} * kBlockThreads) {
    counts[r] = clamp_count(r, counts[r], max_count, long_runs, long_count, capacity);
  }
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

__global__ void check_counts_kernel(const u64* total, u64 n, DeviceStatus* status) {
  if (*total != n) cuda::set_error(status, kBadCounts, *total);
}

std::size_t scan_temp(u64 items) {
  std::size_t bytes = 0;
  GCB_CUDA(cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<const u64*>(nullptr),
                                         static_cast<u64*>(nullptr), items));
  return bytes;
}

std::size_t sort_temp(u32 capacity) {
  std::size_t bytes = 0;
  GCB_CUDA(cub::DeviceMergeSort::SortKeys(nullptr, bytes, static_cast<LongRun*>(nullptr),
                                          static_cast<std::int64_t>(capacity), ByRun{}));
  return bytes;
}

template <typename Item>
std::size_t tile_state_bytes(int tiles) {
  std::size_t bytes = 0;
  GCB_CUDA(cub::ScanTileState<Item>::AllocationSize(tiles, bytes));
  return bytes;
}

struct Sized {
  void* p;
  std::size_t bytes;
};

Sized take(cuda::TempCarver& carve, std::size_t bytes) {
  return {carve.take<u8>(bytes), bytes};
}

struct CompressTemp {
  int tiles;
  bool wide;  // n >= 2^32: 64-bit run numbers in the look-back state
  Sized tile_state, cub, sort, scan, crc;
  u32* counts;
  u8* values;
  u64* run_count;
  LongRun* long_runs;
  u32* long_count;
  u32 capacity;
  u64 *extra, *shift, *payload_size;
  u32* crc_value;

  CompressTemp(cuda::TempCarver& carve, u64 input_size, u32 width, EncoderKind kind,
               u64 max_count) {
    const u64 n = input_size / width;
    tiles = static_cast<int>(cuda::grid_for((n + kEncItems - 1) / kEncItems));
    wide = n >> 32 != 0;
    tile_state = take(carve, kind != EncoderKind::fused ? 0
                             : wide                     ? tile_state_bytes<WidePrefix::Item>(tiles)
                                    : tile_state_bytes<PackedPrefix::Item>(tiles));
    cub = take(carve, kind == EncoderKind::cub && n > 0 ? cub_encode_temp_bytes(n, width) : 0);
    counts = carve.take<u32>(n);
    values = carve.take<u8>(n * width);
    run_count = carve.take<u64>(1);
    capacity = static_cast<u32>(n / (max_count + 1) + 1);  // runs over max_count at most
    long_runs = carve.take<LongRun>(capacity);
    long_count = carve.take<u32>(1);
    sort = take(carve, sort_temp(capacity));
    extra = carve.take<u64>(capacity + 1);
    shift = carve.take<u64>(capacity + 1);
    scan = take(carve, scan_temp(capacity + 1));
    crc = take(carve, cuda::crc32_temp_bytes(input_size));
    payload_size = carve.take<u64>(1);
    crc_value = carve.take<u32>(1);
  }
};

struct DecodeTemp {
  Sized scan, flood, crc;
  u64* offsets;
  u64* tile_run;
  u8* run_index;

  DecodeTemp(cuda::TempCarver& carve, const PayloadLayout& l, u64 original_size,
             DecodeVariant variant) {
    const u64 n = l.element_count, runs = l.run_count;
    offsets = carve.take<u64>(runs + 1);
    std::size_t scan_bytes = 0;
    if (n > 0) {
      GCB_CUDA(cub::DeviceScan::ExclusiveScan(nullptr, scan_bytes, count_iterator(nullptr, runs),
                                              static_cast<u64*>(nullptr), SaturatingAdd{}, u64{0},
                                              runs + 1));
    }
    scan = take(carve, scan_bytes);
    const bool narrow = runs >> 32 == 0;
    const bool flood_variant = variant == DecodeVariant::flood && n > 0;
    // The smallest tile (width 4) has the most tiles.
    tile_run = carve.take<u64>(flood_variant ? 0 : (n + kExpandTile<u32> - 1) / kExpandTile<u32>);
    run_index = carve.take<u8>(flood_variant ? n * (narrow ? 4 : 8) : 0);
    flood = take(carve, !flood_variant ? 0
                        : narrow       ? flood_storage<u32>(n, l.element_width, runs)
                                       : flood_storage<u64>(n, l.element_width, runs));
    crc = take(carve, cuda::crc32_temp_bytes(original_size));
  }
};

struct Plan {
  PayloadLayout layout;
  DecodeVariant variant;
};

class RleDeviceCodec final : public DeviceCodec {
 public:
  RleDeviceCodec(EncoderKind kind, u64 max_count) : kind_(kind), max_count_(max_count) {
    // Built from std::string values: GCC 12 warns falsely (-Wrestrict) on assigning literals.
    info_.name = std::string{kind == EncoderKind::fused ? "rle" : "rle-cub"};
    info_.version = std::string{"2"};
    info_.device = Device::gpu;
    info_.description =
        std::string{kind == EncoderKind::fused
                        ? "run-length encoding (CUDA; one-pass encoder with decoupled look-back, "
                          "scan or flood decoding)"
                        : "RLE baseline: cub::DeviceRunLengthEncode, rle container and decoders"};
    info_.axes = {element_width_axis(), decode_axis()};
    info_.role = kind == EncoderKind::fused ? Role::studied : Role::baseline;
  }

  const CodecInfo& info() const override { return info_; }

  u64 max_compressed_size(u64 input_size, const Params& p) const override {
    return max_container_size(input_size, width(p));
  }

  std::size_t compress_temp_bytes(u64 input_size, const Params& p) const override {
    if (kind_ == EncoderKind::cub && input_size / width(p) > kMaxCubItems) {
      throw ParamError("rle-cub: CUB's run-length encoder takes at most 2^31-1 elements per call");
    }
    cuda::TempCarver carve;
    CompressTemp(carve, input_size, width(p), kind_, max_count_);
    return carve.bytes();
  }

  void compress_async(const CompressBuffers& b, const Params& p,
                      DeviceStream stream) const override {
    const u32 w = width(p);
    const u64 n = b.input_size / w;
    cuda::TempCarver carve(b.temp, b.temp_bytes);
    const CompressTemp t(carve, b.input_size, w, kind_, max_count_);
    const PayloadLayout l = make_layout(b.input_size, w, 0);
    u8* payload = b.output + kContainerHeaderSize;
    std::array<u8, 64> fixed{};
    write_header(fixed.data(), l, {});  // the tail comes from the device input
    cuda::write_prefix_async(payload, ByteSpan(fixed.data(), l.tail_offset), b.input + n * w,
                             l.tail_size, stream);
    cuda::FusedCrcTiles crc_tiles{};
    if (n == 0) {
      cuda::write_prefix_async(payload + l.counts_offset - 8, ByteSpan(fixed.data() + 56, 8),
                               nullptr, 0, stream);  // run_count 0
      cuda::set_u64_async(t.payload_size, l.size, stream);
    } else {
      GCB_CUDA(cudaMemsetAsync(t.long_runs, 0xFF, t.capacity * sizeof(LongRun), stream));
      GCB_CUDA(cudaMemsetAsync(t.long_count, 0, sizeof(u32), stream));
      if (kind_ == EncoderKind::fused) {
        encode(b.input, n, w, t, cuda::crc32_fused_tiles(t.crc.p, t.crc.bytes, b.input_size),
               stream);
        crc_tiles = {n / kEncTile, u64{kEncTile} * w};
      } else {
        cub_encode(b.input, n, w, t.cub.p, t.cub.bytes, t.counts, t.values, t.run_count, stream);
        if (max_count_ < n) {
          clamp_kernel<<<cuda::persistent_grid(), kBlockThreads, 0, stream>>>(
              t.counts, t.run_count, max_count_, t.long_runs, t.long_count, t.capacity);
          GCB_CUDA_LAUNCHED();
        }
      }
      assemble(t, l, w, payload, stream);
    }
    cuda::crc32_async(b.input, b.input_size, t.crc.p, t.crc.bytes, {t.crc_value}, stream,
                      crc_tiles);
    cuda::write_container_header_async(b.output, FormatId::rle, b.input_size, t.payload_size,
                                       t.crc_value, b.output_size, stream);
  }

  DecodePlan plan_decompress(ByteSpan container, const Params& p) const override {
    const OpenedContainer c = open_container(container, FormatId::rle);
    const PayloadLayout l = parse_payload(c.payload, c.header.original_size).layout;
    const auto variant = static_cast<DecodeVariant>(p.at("decode"));
    cuda::TempCarver carve;
    DecodeTemp(carve, l, c.header.original_size, variant);
    return make_plan(container, c.header.original_size, carve.bytes(), Plan{l, variant});
  }

  void decompress_async(const DecodePlan& plan, const DecompressBuffers& b, const Params&,
                        DeviceStream stream) const override {
    const Plan& pl = std::any_cast<const Plan&>(plan.detail);
    const PayloadLayout& l = pl.layout;
    cuda::TempCarver carve(b.temp, b.temp_bytes);
    const DecodeTemp t(carve, l, plan.original_size, pl.variant);
    const u8* payload = b.container + kContainerHeaderSize;
    cuda::begin_decode_async(b.container, plan.header, b.status, stream);
    const u64 n = l.element_count, runs = l.run_count;
    cuda::FusedCrcTiles crc_tiles{};
    if (n > 0) {
      const u8* counts = payload + l.counts_offset;
      const u8* values = payload + l.values_offset;
      std::size_t bytes = t.scan.bytes;
      GCB_CUDA(cub::DeviceScan::ExclusiveScan(t.scan.p, bytes, count_iterator(counts, runs),
                                              t.offsets, SaturatingAdd{}, u64{0}, runs + 1,
                                              stream));
      cuda::with_element_type(l.element_width, [&](auto tag) {
        using T = decltype(tag);
        expand<T>(pl.variant, t, n, runs, values, reinterpret_cast<T*>(b.output),
                  cuda::crc32_fused_tiles(t.crc.p, t.crc.bytes, plan.original_size), stream);
        if (pl.variant == DecodeVariant::scan) {
          crc_tiles = {n * sizeof(T) / kExpandTileBytes<T>, kExpandTileBytes<T>};
        }
      });
      check_counts_kernel<<<1, 1, 0, stream>>>(t.offsets + runs, n, b.status);
      GCB_CUDA_LAUNCHED();
    }
    cuda::copy_bytes_async(b.output + n * l.element_width, payload + l.tail_offset, l.tail_size,
                           stream);
    cuda::crc32_async(b.output, plan.original_size, t.crc.p, t.crc.bytes,
                      {nullptr, b.container + 24, b.status}, stream, crc_tiles);
  }

  std::string describe(const DeviceStatus& s) const override {
    if (s.error != kBadCounts) return describe_common(info_.name.c_str(), s);
    return s.detail >= kSaturated ? std::string("RLE: a run has count 0")
                                  : "RLE: run counts add up to " + std::to_string(s.detail) +
                                        ", not the element count";
  }

 private:
  static u32 width(const Params& p) { return static_cast<u32>(p.at("element_width")); }

  // Also the CRC-32 tiles of the input's whole tiles (kEncTile elements) into crc_tiles.
  void encode(const u8* in, u64 n, u32 w, const CompressTemp& t, u32* crc_tiles,
              cudaStream_t stream) const {
    auto run = [&](auto prefix_tag, auto elem_tag) {
      using P = decltype(prefix_tag);
      using T = decltype(elem_tag);
      using Item = typename P::Item;
      cub::ScanTileState<Item> tiles;
      GCB_CUDA(tiles.Init(t.tiles, t.tile_state.p, t.tile_state.bytes));
      init_tiles_kernel<Item>
          <<<cuda::grid_for(static_cast<u64>(t.tiles)), kBlockThreads, 0, stream>>>(tiles, t.tiles);
      GCB_CUDA_LAUNCHED();
      encode_kernel<T, P><<<static_cast<unsigned>(t.tiles), kBlockThreads, 0, stream>>>(
          reinterpret_cast<const T*>(in), n, max_count_, tiles, t.counts,
          reinterpret_cast<T*>(t.values), t.run_count, t.long_runs, t.long_count, t.capacity,
          crc_tiles, n / kEncTile);
      GCB_CUDA_LAUNCHED();
    };
    cuda::with_element_type(w, [&](auto elem_tag) {
      if (t.wide) {
        run(WidePrefix{}, elem_tag);
      } else {
        run(PackedPrefix{}, elem_tag);
      }
    });
  }

  void assemble(const CompressTemp& t, const PayloadLayout& l, u32 w, u8* payload,
                cudaStream_t stream) const {
    std::size_t bytes = t.sort.bytes;
    GCB_CUDA(cub::DeviceMergeSort::SortKeys(
        t.sort.p, bytes, t.long_runs, static_cast<std::int64_t>(t.capacity), ByRun{}, stream));
    extra_pieces_kernel<<<cuda::grid_for(t.capacity + 1), kBlockThreads, 0, stream>>>(
        t.long_runs, t.long_count, t.capacity, max_count_, t.extra);
    GCB_CUDA_LAUNCHED();
    bytes = t.scan.bytes;
    GCB_CUDA(
        cub::DeviceScan::ExclusiveSum(t.scan.p, bytes, t.extra, t.shift, t.capacity + 1, stream));
    cuda::with_element_type(w, [&](auto tag) {
      using T = decltype(tag);
      assemble_kernel<T><<<cuda::persistent_grid(), kBlockThreads, 0, stream>>>(
          t.counts, reinterpret_cast<const T*>(t.values), t.run_count, t.long_runs, t.shift,
          t.capacity, max_count_, payload, l.counts_offset, t.payload_size);
      GCB_CUDA_LAUNCHED();
    });
  }

  template <typename T>
  // The scan variant also computes the CRC-32 tiles of its whole tiles (kExpandTileBytes<T>)
  // into crc_tiles; flood leaves that to crc32_async.
  static void expand(DecodeVariant variant, const DecodeTemp& t, u64 n, u64 runs, const u8* values,
                     T* out, u32* crc_tiles, cudaStream_t stream) {
    if (variant == DecodeVariant::scan) {
      constexpr u32 kTile = kExpandTile<T>;
      const u64 tiles = (n + kTile - 1) / kTile;
      tile_runs_kernel<<<cuda::grid_for(tiles), kBlockThreads, 0, stream>>>(
          t.offsets, runs, n, kTile, tiles, t.tile_run);
      GCB_CUDA_LAUNCHED();
      const auto grid = static_cast<unsigned>(std::min<u64>(tiles, cuda::persistent_grid()));
      expand_kernel<T><<<grid, kBlockThreads, 0, stream>>>(
          t.offsets, t.tile_run, runs, Values<T>{values}, n, out, tiles, crc_tiles,
          n * sizeof(T) / kExpandTileBytes<T>);
      GCB_CUDA_LAUNCHED();
      return;
    }
    auto flood = [&](auto idx_tag) {
      using Idx = decltype(idx_tag);
      Idx* run_index = reinterpret_cast<Idx*>(t.run_index);
      GCB_CUDA(cudaMemsetAsync(run_index, 0, n * sizeof(Idx), stream));
      scatter_kernel<Idx>
          <<<cuda::grid_for(runs), kBlockThreads, 0, stream>>>(t.offsets, runs, n, run_index);
      GCB_CUDA_LAUNCHED();
      std::size_t bytes = t.flood.bytes;
      GCB_CUDA(cub::DeviceScan::InclusiveScan(t.flood.p, bytes, static_cast<const Idx*>(run_index),
                                              flood_output<T, Idx>(out, values, runs),
                                              cuda::FloodRight{}, n, stream));
    };
    if (runs >> 32 == 0) {
      flood(u32{});
    } else {
      flood(u64{});
    }
  }

  EncoderKind kind_;
  u64 max_count_;
  CodecInfo info_;
};

}  // namespace

std::unique_ptr<const DeviceCodec> make_device_codec(EncoderKind kind, u64 max_count) {
  if (max_count < 1 || max_count > kMaxRunCount) {
    throw std::invalid_argument("rle::gpu: max_count out of range");
  }
  return std::make_unique<RleDeviceCodec>(kind, max_count);
}

}  // namespace gcbench::rle::gpu

namespace gcbench::rle {
CodecPtr make_gpu_codec() {
  return gcbench::gpu::make_host_codec(gpu::make_device_codec(gpu::EncoderKind::fused));
}
CodecPtr make_cub_gpu_codec() {
  return gcbench::gpu::make_host_codec(gpu::make_device_codec(gpu::EncoderKind::cub));
}
}  // namespace gcbench::rle
