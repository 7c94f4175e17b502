// GPU LZ77 compression: the thesis's one-thread-per-chunk design, a design that separates
// match finding (every position, in parallel) from the greedy parse, and a warp per chunk that
// finds matches only where the parse stops (warp_design.cuh). All write each chunk's triples
// to a slot of chunk * triple_bytes bytes; a scan of the triple counts then packs the slots
// back to back, as the payload stores them.
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <vector>

#include "codecs/common/container_device.cuh"
#include "codecs/common/device_elements.cuh"
#include "src/cuda/temp_storage.hpp"
#include "codecs/lz77/gpu_finders.cuh"
#include "codecs/lz77/gpu_layout.cuh"
#include "codecs/lz77/lz77_gpu.cuh"
#include "codecs/lz77/triple.hpp"
#include "codecs/lz77/warp_design.cuh"
#include "gcbench/errors.hpp"

namespace gcbench::lz77::gpu {
namespace {

using u8 = std::uint8_t;
using u16 = std::uint16_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

constexpr u32 kThreadDesignBlock = 32;  // one warp of work items per thread block
constexpr u32 kTile = 4096;             // positions per thread block in the match pass
constexpr u32 kTileThreads = 256;
constexpr u32 kParseThreads = 128;

// gzip's head/prev chains for one work item, in global memory (per-thread tables, as the
// thesis). Links are positions relative to `base` plus one, so 0 ends a chain.
struct ThreadChains {
  const u8* data;
  u64 base;
  u64 next_insert;
  u32* head;
  u32* prev;
  u32 prev_mask;

  __device__ void insert_before(u64 p) {
    for (; next_insert < p; ++next_insert) {
      const u32 h = hash3(data + next_insert);
      const auto link = static_cast<u32>(next_insert - base + 1);
      prev[(link - 1) & prev_mask] = head[h];
      head[h] = link;
    }
  }

  __device__ DevMatch longest(u64 p, u32 window, u32 cap) {
    insert_before(p);
    const u8* ahead = data + p;
    const u64 lo = p - window;
    DevMatch best;
    for (u32 link = head[hash3(ahead)]; link != 0; link = prev[(link - 1) & prev_mask]) {
      const u64 s = base + link - 1;
      if (s < lo) break;  // newest first: the rest of the chain is outside the window too
      if (offer(ahead, static_cast<u32>(p - s), cap, best)) break;
    }
    return best;
  }
};

// One thread factorizes chunk `first_chunk + thread index` of a launch block.
template <Finder F>
__global__ void thread_design_kernel(const u8* __restrict__ in, DevLayout L, u64 first_chunk,
                                     u64 end_chunk, u32* __restrict__ tables, u32 prev_size,
                                     u8* __restrict__ slots, u32* __restrict__ counts) {
  const u64 item = u64{blockIdx.x} * blockDim.x + threadIdx.x;
  const u64 c = first_chunk + item;
  if (c >= end_chunk) return;
  const u64 cs = L.chunk_begin(c), ce = L.chunk_end(c), ws = L.window_start(c);
  u8* out = slots + c * L.chunk * L.triple_bytes;
  ThreadChains chains{};
  if constexpr (F == Finder::hash) {
    u32* head = tables + item * (kHashSize + prev_size);
    for (u32 h = 0; h < kHashSize; ++h) head[h] = 0;
    const u64 base = cs - L.window_at(cs, ws);
    chains = ThreadChains{in, base, base, head, head + kHashSize, prev_size - 1};
  }
  u32 n = 0;
  for (u64 p = cs; p < ce; ++n) {
    const u32 cap = L.cap_at(p, ce);
    const u32 window = L.window_at(p, ws);
    DevMatch m;
    if (cap >= kMinMatch && window > 0) {
      if constexpr (F == Finder::hash) m = chains.longest(p, window, cap);
      if constexpr (F == Finder::z) m = longest_z(in + p, window, cap);
      if constexpr (F == Finder::brute) m = longest_brute(in + p, window, cap);
    }
    if (m.length < kMinMatch) m = {};
    pack_triple(L.config, Triple{m.offset, m.length, in[p + m.length]}, out + n * L.triple_bytes);
    p += m.length + 1;
  }
  counts[c] = n;
}

// Shared-memory layout of one match-pass tile.
struct TileSmem {
  u32 region_capacity;  // bytes of input staged: window + tile + look-ahead
  bool chains;          // hash finder: prev links and a head table as well

  __host__ __device__ u32 bytes_size() const { return (region_capacity + 15) / 16 * 16; }
  __host__ __device__ u32 total() const {
    return bytes_size() + (chains ? 2 * region_capacity + 2 * kHashSize : 0);
  }
};

// Links every staged position to the previous one with the same hash (positions + 1, 0 ends
// a chain). One warp, 32 positions per step: lanes sharing a hash link to each other, the
// lowest to the head table, and the highest becomes the new head.
__device__ void build_chains(const u8* bytes, u32 region, u16* prev, u16* head) {
  const u32 lane = threadIdx.x & 31;
  for (u32 h = lane; h < kHashSize; h += 32) head[h] = 0;
  __syncwarp();
  for (u32 base = 0; base < region; base += 32) {
    const u32 r = base + lane;
    const bool valid = r + kMinMatch <= region;
    const u32 h = valid ? hash3(bytes + r) : kHashSize + lane;  // invalid lanes: unique keys
    const u32 same = __match_any_sync(0xFFFFFFFFu, h);
    const u32 below = same & ((1u << lane) - 1);
    if (valid) prev[r] = static_cast<u16>(below ? base + (31 - __clz(below)) + 1 : head[h]);
    __syncwarp();
    if (valid && (same >> lane) == 1u) head[h] = static_cast<u16>(r + 1);
    __syncwarp();
  }
}

// Longest-nearest match of every position of one tile. A tile never crosses a launch block;
// its staged region starts at the lowest source any of its positions may use.
template <Finder F>
__global__ void __launch_bounds__(kTileThreads)
    match_pass_kernel(const u8* __restrict__ in, DevLayout L, u64 tiles_per_block, TileSmem sm,
                      u32* __restrict__ best) {
  extern __shared__ __align__(16) u8 smem[];
  const u64 block = blockIdx.x / tiles_per_block;
  const u64 block_begin = block * L.work_items * L.chunk;
  const u64 block_end = min(block_begin + u64{L.work_items} * L.chunk, L.size);
  const u64 t0 = block_begin + (blockIdx.x % tiles_per_block) * kTile;
  if (t0 >= block_end) return;
  const u64 t1 = min(t0 + kTile, block_end);
  const u64 lo = t0 - L.window_at(t0, L.window_start(t0 / L.chunk));
  const u64 hi = min(t1 + L.max_length, block_end);
  const auto region = static_cast<u32>(hi - lo);

  u8* bytes = smem;
  for (u32 i = threadIdx.x; i < region; i += blockDim.x) bytes[i] = in[lo + i];
  __syncthreads();
  u16* prev = nullptr;
  if constexpr (F == Finder::hash) {
    prev = reinterpret_cast<u16*>(smem + sm.bytes_size());
    if (threadIdx.x < 32) build_chains(bytes, region, prev, prev + sm.region_capacity);
    __syncthreads();
  }

  for (u64 p = t0 + threadIdx.x; p < t1; p += blockDim.x) {
    const u64 c = p / L.chunk;
    const u32 cap = L.cap_at(p, L.chunk_end(c));
    const u32 window = L.window_at(p, L.window_start(c));
    const auto r = static_cast<u32>(p - lo);
    const u8* ahead = bytes + r;
    DevMatch m;
    if (cap >= kMinMatch && window > 0) {
      if constexpr (F == Finder::hash) {
        for (u32 link = prev[r]; link != 0; link = prev[link - 1]) {
          const u32 d = r - (link - 1);
          if (d > window) break;
          if (offer(ahead, d, cap, m)) break;
        }
      }
      if constexpr (F == Finder::z) m = longest_z(ahead, window, cap);
      if constexpr (F == Finder::brute) m = longest_brute(ahead, window, cap);
    }
    best[p] = m.length < kMinMatch ? 0u : m.offset | (m.length << 16);
  }
}

// The greedy parse over precomputed matches: one thread per chunk.
__global__ void parse_kernel(const u8* __restrict__ in, DevLayout L, const u32* __restrict__ best,
                             u8* __restrict__ slots, u32* __restrict__ counts) {
  const u64 c = u64{blockIdx.x} * blockDim.x + threadIdx.x;
  if (c >= L.chunk_count) return;
  const u64 ce = L.chunk_end(c);
  u8* out = slots + c * L.chunk * L.triple_bytes;
  u32 n = 0;
  for (u64 p = L.chunk_begin(c); p < ce; ++n) {
    const u32 b = best[p];
    const u32 length = b >> 16;
    pack_triple(L.config, Triple{b & 0xFFFF, length, in[p + length]}, out + n * L.triple_bytes);
    p += length + 1;
  }
  counts[c] = n;
}

// Packs each chunk's slot to its place in the triple area: one thread block per chunk.
__global__ void pack_kernel(const u8* __restrict__ slots, DevLayout L,
                            const u32* __restrict__ counts, const u64* __restrict__ first,
                            u8* __restrict__ area) {
  const u64 c = blockIdx.x;
  const u64 bytes = u64{counts[c]} * L.triple_bytes;
  const u8* src = slots + c * L.chunk * L.triple_bytes;
  u8* dst = area + first[c] * L.triple_bytes;
  for (u64 i = threadIdx.x; i < bytes; i += blockDim.x) dst[i] = src[i];
}

u64 ceil_div(u64 a, u64 b) {
  return a / b + (a % b != 0);
}

// u32 words of device scratch a design needs: per-work-item hash tables (thread design,
// hash) or one packed match per input byte (block design).
u64 scratch_words(const Layout& layout, Finder finder, Design design) {
  if (design == Design::warp) return 0;
  if (design == Design::block) return layout.original_size;
  if (finder != Finder::hash) return 0;
  const u64 items = std::min<u64>(layout.work_items, layout.chunk_count);
  return items * (kHashSize + layout.geo().max_offset + 1);
}

template <Finder F>
void launch_thread_design(const u8* in, const DevLayout& L, const Layout& layout, u32* tables,
                          u8* slots, u32* counts, cudaStream_t s) {
  const u32 prev_size = L.max_offset + 1;  // DSIZ: 4096 (thesis) or 32768 (wide)
  for (u64 b = 0; b < layout.block_count; ++b) {
    const u64 first = layout.first_chunk_of_block(b), end = layout.chunk_end_of_block(b);
    const auto grid = static_cast<unsigned>(ceil_div(end - first, kThreadDesignBlock));
    thread_design_kernel<F>
        <<<grid, kThreadDesignBlock, 0, s>>>(in, L, first, end, tables, prev_size, slots, counts);
    GCB_CUDA_LAUNCHED();
  }
}

template <Finder F>
void launch_block_design(const u8* in, const DevLayout& L, const Layout& layout, u32* best,
                         u8* slots, u32* counts, cudaStream_t s) {
  const u64 block_bytes =
      std::min<u64>(u64{layout.work_items} * layout.chunk, layout.original_size);
  const u64 tiles_per_block = ceil_div(block_bytes, kTile);
  const TileSmem sm{L.max_offset + kTile + L.max_length, F == Finder::hash};
  GCB_CUDA(cudaFuncSetAttribute(match_pass_kernel<F>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                static_cast<int>(sm.total())));
  const u64 tiles = tiles_per_block * layout.block_count;
  match_pass_kernel<F><<<static_cast<unsigned>(tiles), kTileThreads, sm.total(), s>>>(
      in, L, tiles_per_block, sm, best);
  GCB_CUDA_LAUNCHED();
  const auto grid = static_cast<unsigned>(ceil_div(layout.chunk_count, kParseThreads));
  parse_kernel<<<grid, kParseThreads, 0, s>>>(in, L, best, slots, counts);
  GCB_CUDA_LAUNCHED();
}

template <Finder F>
void factorize(const u8* in, const DevLayout& L, const Layout& layout, Design design, u32* scratch,
               u8* slots, u32* counts, cudaStream_t s) {
  if (design == Design::thread) {
    launch_thread_design<F>(in, L, layout, scratch, slots, counts, s);
  } else if (design == Design::warp) {
    if constexpr (F != Finder::z) warp::launch<F>(in, L, layout.chunk_count, slots, counts, s);
  } else {
    launch_block_design<F>(in, L, layout, scratch, slots, counts, s);
  }
}

// The tables before the triple area (format.hpp): block offsets, then each chunk's triple
// count, at their unaligned offsets; and the payload's size.
__global__ void tables_kernel(const u32* __restrict__ counts, const u64* __restrict__ first,
                              DevLayout L, u64 block_count, u8* __restrict__ payload,
                              u64* payload_size) {
  const u64 C = L.chunk_count;
  const u64 total = first[C - 1] + counts[C - 1];
  u8* offsets = payload + kPayloadFixedSize;
  u8* chunk_triples = offsets + 8 * (block_count + 1);
  const u64 stride = u64{gridDim.x} * blockDim.x;
  for (u64 i = u64{blockIdx.x} * blockDim.x + threadIdx.x; i <= C + block_count; i += stride) {
    if (i < C) {
      cuda::store_le<u32>(chunk_triples + 4 * i, counts[i]);
    } else {
      const u64 b = i - C;  // block_offsets[b]: where block b starts
      const u64 c = b * L.work_items;
      cuda::store_le<u64>(offsets + 8 * b, (c < C ? first[c] : total) * L.triple_bytes);
    }
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    *payload_size = kPayloadFixedSize + 8 * (block_count + 1) + 4 * C + total * L.triple_bytes;
  }
}

// Temporary storage, carved the same way when sizing and when running.
struct CompressTemp {
  u8* slots;
  u32* counts;
  u64* first;
  void* scan;
  std::size_t scan_bytes = 0;
  u32* scratch;

  CompressTemp(cuda::TempCarver& carve, const Layout& layout, Finder finder, Design design) {
    const u64 C = layout.chunk_count;
    slots = carve.take<u8>(C * layout.chunk * layout.geo().triple_bytes);
    counts = carve.take<u32>(C);
    first = carve.take<u64>(C);
    if (C > 0) {
      GCB_CUDA(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, static_cast<const u32*>(nullptr),
                                             static_cast<u64*>(nullptr), C));
    }
    scan = carve.take<u8>(scan_bytes);
    scratch = carve.take<u32>(scratch_words(layout, finder, design));
  }
};

void check_design(Finder finder, Design design) {
  if (design == Design::warp && finder == Finder::z) {
    throw ParamError("lz77 design=warp implements finder=hash and finder=brute only");
  }
}

}  // namespace

std::size_t compress_temp_bytes(const Layout& layout, Finder finder, Design design) {
  check_design(finder, design);
  cuda::TempCarver carve;
  CompressTemp(carve, layout, finder, design);
  return carve.bytes();
}

void compress_async(const u8* in, const Layout& layout, Finder finder, Design design, void* temp,
                    std::size_t temp_bytes, u8* payload, u64* payload_size, cudaStream_t s) {
  check_design(finder, design);
  cuda::TempCarver carve(temp, temp_bytes);
  const CompressTemp t(carve, layout, finder, design);
  if (layout.chunk_count == 0) {
    const Bytes head = payload_head(layout, {});
    cuda::write_prefix_async(payload, head, nullptr, 0, s);
    cuda::set_u64_async(payload_size, head.size(), s);
    return;
  }
  cuda::write_prefix_async(payload, payload_fixed_fields(layout), nullptr, 0, s);
  const DevLayout L = dev_layout(layout);
  switch (finder) {
    case Finder::hash:
      factorize<Finder::hash>(in, L, layout, design, t.scratch, t.slots, t.counts, s);
      break;
    case Finder::z:
      factorize<Finder::z>(in, L, layout, design, t.scratch, t.slots, t.counts, s);
      break;
    case Finder::brute:
      factorize<Finder::brute>(in, L, layout, design, t.scratch, t.slots, t.counts, s);
      break;
  }
  std::size_t bytes = t.scan_bytes;
  GCB_CUDA(cub::DeviceScan::ExclusiveSum(t.scan, bytes, t.counts, t.first, layout.chunk_count, s));
  const u64 tables = layout.chunk_count + layout.block_count + 1;
  tables_kernel<<<cuda::grid_for(tables), cuda::kBlockThreads, 0, s>>>(
      t.counts, t.first, L, layout.block_count, payload, payload_size);
  GCB_CUDA_LAUNCHED();
  const u64 area = kPayloadFixedSize + 8 * (layout.block_count + 1) + 4 * layout.chunk_count;
  pack_kernel<<<static_cast<unsigned>(layout.chunk_count), 256, 0, s>>>(t.slots, L, t.counts,
                                                                        t.first, payload + area);
  GCB_CUDA_LAUNCHED();
}

}  // namespace gcbench::lz77::gpu
