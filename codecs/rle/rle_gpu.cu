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
#include <cub/device/device_scan.cuh>
#include <stdexcept>
#include <string>

#include "codecs/common/cuda_check.hpp"
#include "codecs/common/device_elements.cuh"
#include "codecs/common/elements.hpp"
#include "codecs/common/flood_scan.cuh"
#include "codecs/rle/rle.hpp"
#include "codecs/rle/rle_gpu.hpp"
#include "codecs/rle/rle_payload.hpp"
#include "gcbench/container.hpp"

namespace gcbench::rle::gpu {
namespace {

static_assert(std::endian::native == std::endian::little,
              "counts and values are copied to and from the device as they are");

using u8 = std::uint8_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;
using cuda::kBlockThreads;

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
                  u32* long_count, u32 long_capacity) {
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
  const u64 i0 = u64{blockIdx.x} * kEncTile + u64{threadIdx.x} * kEncItems;
  T v[kEncItems];
  cuda::load_items(in, n, i0, v);
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
  const u32* counts;
  u64 runs;
  __host__ __device__ u64 operator()(u64 r) const {
    if (r >= runs) return 0;
    u32 c = counts[r];
    return c == 0 ? kSaturated : c;
  }
};

// Associative (min(a + b, S) for values <= S) and cannot wrap, whatever the counts.
struct SaturatingAdd {
  __host__ __device__ u64 operator()(u64 a, u64 b) const {
    u64 s = a + b;
    return s < kSaturated ? s : kSaturated;
  }
};

auto count_iterator(const u32* counts, u64 runs) {
  return thrust::make_transform_iterator(thrust::make_counting_iterator<u64>(0),
                                         CountAt{counts, runs});
}

// The run holding element i (run offsets strictly increase once the counts are validated).
__device__ __forceinline__ u64 run_of(const u64* offsets, u64 lo, u64 hi, u64 i) {
  return cuda::last_at_or_below(offsets, lo, hi, i);
}

// Variant scan. Output tiles of kExpandTile elements; tile_run[t] = the run holding tile t's
// first element, one binary search per tile, all tiles at once.
template <typename T>
constexpr u32 kExpandItems = 2 * cuda::kPerVector<T>;  // 32 output bytes per thread
template <typename T>
constexpr u32 kExpandTile = kBlockThreads* kExpandItems<T>;

__global__ void tile_runs_kernel(const u64* __restrict__ offsets, u64 runs, u64 n, u32 tile,
                                 u64 tiles, u64* __restrict__ tile_run) {
  const u64 t = u64{blockIdx.x} * kBlockThreads + threadIdx.x;
  if (t >= tiles || offsets[runs] != n) return;  // invalid counts: the host reports it
  tile_run[t] = run_of(offsets, 0, runs - 1, t * tile);
}

// The tile's runs (at most kExpandTile + 1 of them once the counts are valid) go to shared
// memory with their starts relative to the tile; each thread then binary-searches the run of
// its first element there and walks forward.
template <typename T>
__global__ void __launch_bounds__(kBlockThreads)
    expand_kernel(const u64* __restrict__ offsets, const u64* __restrict__ tile_run, u64 runs,
                  const T* __restrict__ values, u64 n, T* __restrict__ out) {
  constexpr u32 kItems = kExpandItems<T>;
  constexpr u32 kTile = kExpandTile<T>;
  __shared__ u32 s_start[kTile + 1];
  __shared__ T s_value[kTile + 1];
  if (offsets[runs] != n) return;  // invalid counts: the host reports it
  const u64 t = blockIdx.x;
  const u64 tiles = gridDim.x;
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
  const u32 e0 = threadIdx.x * kItems;
  if (tile0 + e0 >= n) return;
  u32 a = 0, b = count - 1;  // largest k with s_start[k] <= e0
  while (a < b) {
    u32 mid = (a + b + 1) / 2;
    if (s_start[mid] <= e0) {
      a = mid;
    } else {
      b = mid - 1;
    }
  }
  u32 next = a + 1 < count ? s_start[a + 1] : 0xFFFFFFFFu;
  T buf[kItems];
#pragma unroll
  for (u32 j = 0; j < kItems; ++j) {
    while (e0 + j >= next) {
      ++a;
      next = a + 1 < count ? s_start[a + 1] : 0xFFFFFFFFu;
    }
    buf[j] = s_value[a];
  }
  T* dst = out + tile0 + e0;
  if (tile0 + e0 + kItems <= n) {
    constexpr u32 kPer = cuda::kPerVector<T>;
#pragma unroll
    for (u32 c = 0; c < kItems / kPer; ++c) {
      T part[kPer];
#pragma unroll
      for (u32 j = 0; j < kPer; ++j) part[j] = buf[c * kPer + j];
      cuda::store_vector(dst + c * kPer, part);
    }
  } else {
    for (u32 j = 0; tile0 + e0 + j < n; ++j) dst[j] = buf[j];
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
  const T* values;
  u64 runs;
  __host__ __device__ T operator()(Idx run) const {
    return values[run >= 1 && run <= runs ? run - 1 : 0];
  }
};

template <typename T, typename Idx>
auto flood_output(T* out, const u8* values, u64 runs) {
  return thrust::make_transform_output_iterator(
      out, ValueOfRun<T, Idx>{reinterpret_cast<const T*>(values), runs});
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

Encoder::Encoder(u64 element_count, u32 width, u64 max_count)
    : n_(element_count),
      max_count_(max_count),
      width_(width),
      tiles_(static_cast<int>(cuda::grid_for((element_count + kEncItems - 1) / kEncItems))),
      wide_(element_count >> 32 != 0),
      counts_(element_count),
      values_(element_count * width),
      run_count_(1),
      // runs longer than max_count: at most n / (max_count + 1) of them
      long_runs_(element_count / (max_count + 1) + 1),
      long_count_(1) {
  if (n_ == 0) throw std::invalid_argument("rle::gpu::Encoder needs at least one element");
  if (max_count_ < 1 || max_count_ > kMaxRunCount) {
    throw std::invalid_argument("rle::gpu::Encoder: max_count out of range");
  }
  std::size_t bytes = 0;
  if (wide_) {
    GCB_CUDA(cub::ScanTileState<WidePrefix::Item>::AllocationSize(tiles_, bytes));
  } else {
    GCB_CUDA(cub::ScanTileState<PackedPrefix::Item>::AllocationSize(tiles_, bytes));
  }
  tile_state_.resize(bytes);
}

void Encoder::encode(const u8* d_in, cudaStream_t stream) {
  GCB_CUDA(cudaMemsetAsync(long_count_.data(), 0, sizeof(u32), stream));
  auto run = [&](auto prefix_tag, auto elem_tag) {
    using P = decltype(prefix_tag);
    using T = decltype(elem_tag);
    using Item = typename P::Item;
    cub::ScanTileState<Item> tiles;
    GCB_CUDA(tiles.Init(tiles_, tile_state_.data(), tile_state_.bytes()));
    init_tiles_kernel<Item>
        <<<cuda::grid_for(static_cast<u64>(tiles_)), kBlockThreads, 0, stream>>>(tiles, tiles_);
    GCB_CUDA_LAUNCHED();
    encode_kernel<T, P><<<static_cast<unsigned>(tiles_), kBlockThreads, 0, stream>>>(
        reinterpret_cast<const T*>(d_in), n_, max_count_, tiles, counts_.data(),
        reinterpret_cast<T*>(values_.data()), run_count_.data(), long_runs_.data(),
        long_count_.data(), long_run_capacity());
    GCB_CUDA_LAUNCHED();
  };
  cuda::with_element_type(width_, [&](auto elem_tag) {
    if (wide_) {
      run(WidePrefix{}, elem_tag);
    } else {
      run(PackedPrefix{}, elem_tag);
    }
  });
}

Decoder::Decoder(u64 element_count, u32 width, u64 run_count, DecodeVariant variant)
    : n_(element_count),
      runs_(run_count),
      width_(width),
      variant_(variant),
      counts_(run_count),
      values_(run_count * width),
      offsets_(run_count + 1) {
  if (n_ == 0 || runs_ == 0 || runs_ > n_) {
    throw std::invalid_argument("rle::gpu::Decoder: sizes not validated");
  }
  std::size_t scan_bytes = 0;
  GCB_CUDA(cub::DeviceScan::ExclusiveScan(nullptr, scan_bytes, count_iterator(nullptr, runs_),
                                          static_cast<u64*>(nullptr), SaturatingAdd{}, u64{0},
                                          runs_ + 1));
  std::size_t flood_bytes = 0;
  if (variant_ == DecodeVariant::scan) {
    // The smallest tile (width 4) has the most tiles.
    tile_run_.resize((n_ + kExpandTile<u32> - 1) / kExpandTile<u32>);
  } else {
    bool narrow = runs_ >> 32 == 0;
    flood_bytes =
        narrow ? flood_storage<u32>(n_, width_, runs_) : flood_storage<u64>(n_, width_, runs_);
    run_index_.resize(n_ * (narrow ? sizeof(u32) : sizeof(u64)));
  }
  temp_.resize(std::max(scan_bytes, flood_bytes));
}

void Decoder::decode(u8* d_out, cudaStream_t stream) {
  std::size_t bytes = temp_.bytes();
  GCB_CUDA(cub::DeviceScan::ExclusiveScan(temp_.data(), bytes,
                                          count_iterator(counts_.data(), runs_), offsets_.data(),
                                          SaturatingAdd{}, u64{0}, runs_ + 1, stream));
  cuda::with_element_type(width_, [&](auto tag) {
    using T = decltype(tag);
    T* out = reinterpret_cast<T*>(d_out);
    if (variant_ == DecodeVariant::scan) {
      constexpr u32 kTile = kExpandTile<T>;
      const u64 tiles = (n_ + kTile - 1) / kTile;
      tile_runs_kernel<<<cuda::grid_for(tiles), kBlockThreads, 0, stream>>>(
          offsets_.data(), runs_, n_, kTile, tiles, tile_run_.data());
      GCB_CUDA_LAUNCHED();
      expand_kernel<T><<<cuda::grid_for(tiles * kBlockThreads), kBlockThreads, 0, stream>>>(
          offsets_.data(), tile_run_.data(), runs_, reinterpret_cast<const T*>(values_.data()), n_,
          out);
      GCB_CUDA_LAUNCHED();
      return;
    }
    auto flood = [&](auto idx_tag) {
      using Idx = decltype(idx_tag);
      Idx* run_index = reinterpret_cast<Idx*>(run_index_.data());
      GCB_CUDA(cudaMemsetAsync(run_index, 0, run_index_.bytes(), stream));
      scatter_kernel<Idx><<<cuda::grid_for(runs_), kBlockThreads, 0, stream>>>(
          offsets_.data(), runs_, n_, run_index);
      GCB_CUDA_LAUNCHED();
      std::size_t flood_bytes = temp_.bytes();
      GCB_CUDA(cub::DeviceScan::InclusiveScan(
          temp_.data(), flood_bytes, static_cast<const Idx*>(run_index),
          flood_output<T, Idx>(out, values_.data(), runs_), cuda::FloodRight{}, n_, stream));
    };
    if (runs_ >> 32 == 0) {
      flood(u32{});
    } else {
      flood(u64{});
    }
  });
}

void RunSink::add(const u8* value, u64 length) {
  if (pending_ > 0 && std::memcmp(value, pending_value_, width_) == 0) {
    pending_ += length;
    return;
  }
  flush();
  std::memcpy(pending_value_, value, width_);
  pending_ = length;
}

void RunSink::flush() {
  while (pending_ > 0) {
    u64 piece = std::min(pending_, max_count_);
    counts_.push_back(static_cast<u32>(piece));
    values_.insert(values_.end(), pending_value_, pending_value_ + width_);
    pending_ -= piece;
  }
}

Bytes RunSink::payload(ByteSpan input) {
  flush();
  PayloadLayout l = make_layout(input.size(), width_, counts_.size());
  Bytes out(l.size);
  write_header(out.data(), l, input.subspan(l.element_count * width_));
  std::memcpy(out.data() + l.counts_offset, counts_.data(), 4 * counts_.size());
  std::memcpy(out.data() + l.values_offset, values_.data(), values_.size());
  return out;
}

Bytes download_payload(ByteSpan input, u32 width, u64 runs, const u32* d_counts, const u8* d_values,
                       std::vector<LongRun> long_runs, u64 max_count, cudaStream_t stream,
                       cuda::PhaseTimer& timer) {
  if (long_runs.empty()) {
    PayloadLayout l = make_layout(input.size(), width, runs);
    Bytes payload(l.size);
    write_header(payload.data(), l, input.subspan(l.element_count * width));
    timer.begin();
    GCB_CUDA(cudaMemcpyAsync(payload.data() + l.counts_offset, d_counts, 4 * runs,
                             cudaMemcpyDeviceToHost, stream));
    GCB_CUDA(cudaMemcpyAsync(payload.data() + l.values_offset, d_values, u64{width} * runs,
                             cudaMemcpyDeviceToHost, stream));
    timer.end_transfer();
    return payload;
  }
  std::vector<u32> counts(runs);
  Bytes values(runs * width);
  timer.begin();
  GCB_CUDA(cudaMemcpyAsync(counts.data(), d_counts, 4 * runs, cudaMemcpyDeviceToHost, stream));
  GCB_CUDA(cudaMemcpyAsync(values.data(), d_values, values.size(), cudaMemcpyDeviceToHost, stream));
  timer.end_transfer();
  std::sort(long_runs.begin(), long_runs.end(),
            [](const LongRun& a, const LongRun& b) { return a.run < b.run; });
  RunSink sink(width, max_count);
  std::size_t next_long = 0;
  for (u64 r = 0; r < runs; ++r) {
    u64 length = counts[r];
    if (next_long < long_runs.size() && long_runs[next_long].run == r) {
      length = long_runs[next_long++].length;
    }
    sink.add(values.data() + r * width, length);
  }
  return sink.payload(input);
}

Bytes encode_payload(ByteSpan input, u32 width, u64 max_count, RunStats* stats) {
  const u64 n = input.size() / width;
  if (n == 0) return RunSink(width, max_count).payload(input);
  cuda::Stream stream;
  cuda::PhaseTimer timer(stream.get());
  cuda::DeviceBuffer<u8> d_in(n * width);
  Encoder enc(n, width, max_count);
  timer.begin();
  GCB_CUDA(
      cudaMemcpyAsync(d_in.data(), input.data(), n * width, cudaMemcpyHostToDevice, stream.get()));
  timer.end_transfer();
  enc.encode(d_in.data(), stream.get());
  timer.end_kernel();
  u64 runs = 0;
  u32 long_count = 0;
  GCB_CUDA(
      cudaMemcpyAsync(&runs, enc.run_count(), sizeof runs, cudaMemcpyDeviceToHost, stream.get()));
  GCB_CUDA(cudaMemcpyAsync(&long_count, enc.long_run_count(), sizeof long_count,
                           cudaMemcpyDeviceToHost, stream.get()));
  timer.end_transfer();
  if (long_count > enc.long_run_capacity()) {
    throw std::logic_error("rle::gpu: more long runs than the input can hold");
  }
  std::vector<LongRun> long_runs(long_count);
  GCB_CUDA(cudaMemcpyAsync(long_runs.data(), enc.long_runs(), long_count * sizeof(LongRun),
                           cudaMemcpyDeviceToHost, stream.get()));
  timer.end_transfer();
  Bytes payload = download_payload(input, width, runs, enc.counts(), enc.values(),
                                   std::move(long_runs), max_count, stream.get(), timer);
  if (stats) *stats = RunStats{timer.kernel_s(), timer.transfer_s()};
  return payload;
}

Bytes decode_container(ByteSpan container, DecodeVariant variant, RunStats* stats) {
  OpenedContainer c = open_container(container, FormatId::rle);
  ParsedPayload p = parse_payload(c.payload, c.header.original_size);
  const PayloadLayout& l = p.layout;
  Bytes out(c.header.original_size);
  cuda::Stream stream;
  cuda::PhaseTimer timer(stream.get());
  if (l.element_count > 0) {
    Decoder dec(l.element_count, l.element_width, l.run_count, variant);
    cuda::DeviceBuffer<u8> d_out(l.element_count * l.element_width);
    timer.begin();
    GCB_CUDA(cudaMemcpyAsync(dec.counts(), p.counts.data(), p.counts.size(), cudaMemcpyHostToDevice,
                             stream.get()));
    GCB_CUDA(cudaMemcpyAsync(dec.values(), p.values.data(), p.values.size(), cudaMemcpyHostToDevice,
                             stream.get()));
    timer.end_transfer();
    dec.decode(d_out.data(), stream.get());
    timer.end_kernel();
    u64 total = 0;
    GCB_CUDA(
        cudaMemcpyAsync(&total, dec.total(), sizeof total, cudaMemcpyDeviceToHost, stream.get()));
    stream.sync();
    if (total != l.element_count) {
      throw DecodeError(total >= kSaturated ? std::string("RLE: a run has count 0")
                                            : "RLE: run counts add up to " + std::to_string(total) +
                                                  ", not " + std::to_string(l.element_count));
    }
    GCB_CUDA(cudaMemcpyAsync(out.data(), d_out.data(), d_out.bytes(), cudaMemcpyDeviceToHost,
                             stream.get()));
    timer.end_transfer();
  }
  std::copy(p.tail.begin(), p.tail.end(), out.end() - static_cast<std::ptrdiff_t>(p.tail.size()));
  verify_original(c.header, out);
  if (stats) *stats = RunStats{timer.kernel_s(), timer.transfer_s()};
  return out;
}

namespace {

class RleGpuCodec final : public Codec {
 public:
  RleGpuCodec()
      // Built whole: assigning short literals member by member trips a GCC 12 -Wrestrict
      // false positive, an error under nvcc's --Werror=all-warnings.
      : info_{"rle",
              "1",
              Device::gpu,
              "run-length encoding (CUDA; one-pass encoder with decoupled look-back, scan or flood "
              "decoding)",
              {element_width_axis(), decode_axis()}} {}

  const CodecInfo& info() const override { return info_; }

  u64 max_compressed_size(u64 input_size, const Params& params) const override {
    Params p = resolve_params(info_.axes, params);
    return max_container_size(input_size, static_cast<u32>(p.at("element_width")));
  }

  Bytes compress(ByteSpan input, const Params& params, RunStats* stats) const override {
    cuda::require_device();
    Params p = resolve_params(info_.axes, params);
    Bytes payload =
        encode_payload(input, static_cast<u32>(p.at("element_width")), kMaxRunCount, stats);
    return wrap_container(FormatId::rle, input, payload);
  }

  Bytes decompress(ByteSpan container, const Params& params, RunStats* stats) const override {
    cuda::require_device();
    Params p = resolve_params(info_.axes, params);
    return decode_container(container, static_cast<DecodeVariant>(p.at("decode")), stats);
  }

 private:
  CodecInfo info_;
};

}  // namespace
}  // namespace gcbench::rle::gpu

namespace gcbench::rle {
CodecPtr make_gpu_codec() {
  return std::make_unique<gpu::RleGpuCodec>();
}
}  // namespace gcbench::rle
