// GPU LZ77 decompression: one warp per unit of chunks (a launch block, or a single chunk), in
// order. The warp places 32 triples at a time (a lane each, by a prefix sum of length + 1) and
// checks them, then writes the batch's bytes 32 at a time: a byte is its triple's next byte or a
// copy of the byte `offset` back, taken from the lane writing it when that lies among the same 32
// (pointer jumping), so no lane keeps the warp for the length of its match.
//
// jump decodes every chunk of a window_scope = block container at once: a byte copied from an
// earlier chunk is written as a link to its source position, which later copies inherit; links
// point into earlier chunks of the same block, so chains are shorter than the block. Resolve passes
// follow every link (up to kHops) to its byte and write back where they got, so a few passes
// resolve any chain (jump_passes).
//
// The host has validated the tables (parse_payload); every triple is checked here before any
// byte of its batch is written, exactly as decode_chunk() checks it on the CPU.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include <cub/block/block_scan.cuh>

#include "codecs/common/container_device.cuh"
#include "codecs/common/crc32_tile.cuh"
#include "src/cuda/cuda_check.hpp"
#include "src/cuda/launch.hpp"
#include "src/cuda/temp_storage.hpp"
#include "codecs/lz77/gpu_layout.cuh"
#include "codecs/lz77/lz77_gpu.cuh"
#include "codecs/lz77/triple.hpp"
#include "gcbench/errors.hpp"

namespace gcbench::lz77::gpu {
namespace {

using u8 = std::uint8_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

constexpr u32 kWarpsPerBlock = 4;
constexpr u32 kFull = 0xFFFFFFFFu;

// Why a chunk was rejected; the error word is (chunk << 2) | reason, lowest chunk wins.
enum Reason : u32 { kInvalid = 0, kPastEnd = 1, kBeforeWindow = 2, kShort = 3 };
constexpr u64 kNoError = ~u64{0};

__device__ void reject(u64* error, u64 c, Reason why) {
  atomicMin(reinterpret_cast<unsigned long long*>(error),
            static_cast<unsigned long long>((c << 2) | why));
}

// Outputs of decode_chunk, addressed relative to the chunk's first position `base`: read(r) is
// the final value at base + r (r < 0 reaches into the window before the chunk), write(r, v)
// writes one.

// The plain decoders' output: bytes, matches copied from anywhere in the window.
struct ByteOut {
  using Value = u8;
  u8* out;
  u64 base;
  __device__ Value read(int r) const { return out[base + r]; }
  __device__ void write(u32 r, Value v) const { out[base + r] = v; }
};

// Output of jump's first pass: one word per byte, the byte itself or kLink | its source
// position when that lies before the chunk (being decoded by another warp).
template <typename W>
struct LinkOut {
  using Value = W;
  static constexpr W kLink = W{1} << (8 * sizeof(W) - 1);
  W* words;
  u64 base;
  __device__ Value read(int r) const {
    return r < 0 ? kLink | static_cast<W>(base + r) : words[base + r];
  }
  __device__ void write(u32 r, Value v) const { words[base + r] = v; }
};

// Staged output: the warp builds its chunk in shared memory, where a copy reads shared memory
// instead of a global byte another lane has just stored, and then writes the chunk out in full
// words. For chunks up to kStagedChunk bytes.
constexpr u32 kStagedChunk = 4096;
// A chunk of kStagedChunk bytes staged is also one warp's part of an output CRC tile
// (crc32_tile.cuh's blocked layout), kCrcTileChunks consecutive chunks a tile.
constexpr u32 kCrcTileChunks = cuda::kCrcThreads / 32;
static_assert(kCrcTileBytes == kCrcTileChunks * kStagedChunk);

// Writes stage[0, n) to dst[0, n) with the warp, in 16-byte stores where dst allows.
__device__ void write_out(u8* dst, const u8* stage, u32 n) {
  const u32 lane = threadIdx.x & 31;
  u32 done = 0;
  if (reinterpret_cast<std::uintptr_t>(dst) % 16 == 0) {
    done = n / 16 * 16;
    for (u32 i = lane * 16; i < done; i += 32 * 16) {
      *reinterpret_cast<uint4*>(dst + i) = *reinterpret_cast<const uint4*>(stage + i);
    }
  }
  for (u32 i = done + lane; i < n; i += 32) dst[i] = stage[i];
}

// Each warp's stage, addressed through the array itself: a generic pointer to it costs an
// address conversion at every access.
__shared__ alignas(16) u8 stages[kWarpsPerBlock][kStagedChunk];

struct StagedBytes {
  using Value = u8;
  u8* out;
  u64 base;
  u32 warp;  // the block's warp whose stage this is
  // Sources before the chunk (window_scope=block, decode_mode=block) were written out already.
  __device__ Value read(int r) const { return r >= 0 ? stages[warp][r] : out[base + r]; }
  __device__ void write(u32 r, Value v) const { stages[warp][r] = v; }
  // The chunk's part of its output CRC tile, of which it is part `part` (a full chunk: 128 bytes
  // a lane). The stage is final: decode_chunk's last step ends with the warp's barrier.
  __device__ void crc_into(u32* slot, u32 part) const {
    constexpr u32 kLaneBytes = kStagedChunk / 32;
    const auto* v = reinterpret_cast<const uint4*>(stages[warp] + (threadIdx.x & 31) * kLaneBytes);
    u32 words[kLaneBytes / 4];  // loaded first: the loads in flight together
#pragma unroll
    for (u32 k = 0; k < kLaneBytes / 16; ++k) {
      const uint4 x = v[k];
      words[4 * k] = x.x;
      words[4 * k + 1] = x.y;
      words[4 * k + 2] = x.z;
      words[4 * k + 3] = x.w;
    }
    cuda::blocked_crc_into(words, slot, part);
  }
  __device__ void flush(u32 size) const {
    __syncwarp();
    write_out(out + base, stages[warp], size);
    __syncwarp();  // the stage is free for the warp's next chunk
  }
};

// A triple's bytes, loaded and kept apart until word() puts them together where the triple is
// used: the next batch's loads are then in flight while a batch is decoded, instead of each batch
// starting with a global load's latency.
struct TripleBytes {
  u32 b0 = 0, b1 = 0, b2 = 0, b3 = 0;
  __device__ TripleBytes(const u8* triples, u64 t, u64 t_end, u32 triple_bytes) {
    if (t >= t_end) return;
    const u8* p = triples + t * triple_bytes;
    b0 = p[0];
    b1 = p[1];
    b2 = p[2];
    if (triple_bytes == 4) b3 = p[3];
  }
  __device__ u32 word() const { return b0 | b1 << 8 | b2 << 16 | b3 << 24; }
};

// Decodes chunk c with the whole warp; false (after reporting) on a bad triple. Positions are
// chunk-relative 32-bit numbers, the output's too.
template <typename Out>
__device__ bool decode_chunk(const u8* __restrict__ triples, const u64* __restrict__ first,
                             const DevLayout& L, u64 c, const Out& out, u64* error) {
  using Value = typename Out::Value;
  const u32 lane = threadIdx.x & 31;
  const Geometry g{L.max_offset, L.max_length, L.triple_bytes};
  const u64 base = L.chunk_begin(c);
  const auto size = static_cast<u32>(L.chunk_end(c) - base);
  const u64 window_before = base - L.window_start(c);  // window bytes before the chunk
  const u64 t_end = min(first[c + 1], L.triples);
  u32 pos = 0;  // where the current batch starts
  TripleBytes ahead(triples, first[c] + lane, t_end, L.triple_bytes);
  for (u64 t = first[c]; t < t_end; t += 32) {
    const bool active = t + lane < t_end;
    const Triple tr = active ? unpack_triple_word(L.config, ahead.word()) : Triple{0, 0, 0};
    ahead = TripleBytes(triples, t + 32 + lane, t_end, L.triple_bytes);
    const u32 span = active ? tr.length + 1 : 0;
    u32 incl = span;  // inclusive prefix sum of span over the warp
    for (u32 d = 1; d < 32; d <<= 1) {
      const u32 v = __shfl_up_sync(kFull, incl, d);
      if (lane >= d) incl += v;
    }
    const u32 at = pos + incl - span;

    u32 why = 4;
    if (active) {
      if (!is_valid_triple(g, tr)) {
        why = kInvalid;
      } else if (size - at < span) {
        why = kPastEnd;
      } else if (tr.offset > at + window_before) {
        why = kBeforeWindow;
      }
    }
    const u32 bad = __ballot_sync(kFull, why != 4);
    if (bad) {
      const u32 first_bad = __ffs(bad) - 1;
      const u32 reason = __shfl_sync(kFull, why, first_bad);
      if (lane == 0) reject(error, c, static_cast<Reason>(reason));
      return false;
    }

    // The batch's bytes, 32 at a time: lane i writes byte b = b0 + i (batch-relative), which
    // belongs to the triple j that starts last at or before it: `before` triples start before
    // b0, and `starts` marks those starting among the 32.
    const u32 total = __shfl_sync(kFull, incl, 31), start = incl - span;
    const u32 offset_next = tr.offset | u32{tr.next} << 16;
    u32 before = 0;
    for (u32 b0 = 0; b0 < total; b0 += 32) {
      const u32 starts =
          __reduce_or_sync(kFull, active && start - b0 < 32 ? 1u << (start - b0) : 0u);
      const u32 j = before + __popc(starts & ((2u << lane) - 1)) - 1;
      before += __popc(starts);
      const u32 end_j = __shfl_sync(kFull, incl, j);
      const u32 offset_next_j = __shfl_sync(kFull, offset_next, j);
      const u32 b = b0 + lane;
      // A byte is known once its value is: its triple's next byte, or a copy of a byte before
      // the 32. Otherwise it copies the byte of lane `from`, in the same 32 and lower.
      bool known = true;
      Value value = static_cast<Value>(offset_next_j >> 16);
      u32 from = lane;
      if (b < total && b + 1 != end_j) {
        const auto src = static_cast<int>(b) - static_cast<int>(offset_next_j & 0xFFFF);
        if (src < static_cast<int>(b0)) {
          value = out.read(static_cast<int>(pos) + src);
        } else {
          known = false;
          from = static_cast<u32>(src) - b0;
        }
      }
      while (__any_sync(kFull, !known)) {
        const Value v = __shfl_sync(kFull, value, from);
        const bool k = __shfl_sync(kFull, known, from);
        const u32 f = __shfl_sync(kFull, from, from);
        if (!known) {
          if (k) {
            value = v;
            known = true;
          } else {
            from = f;
          }
        }
      }
      if (b < total) out.write(pos + b, value);
      __syncwarp();  // the 32 are final for the next ones
    }
    pos += total;
  }
  if (pos != size) {
    if (lane == 0) reject(error, c, kShort);
    return false;
  }
  return true;
}

__global__ void decode_kernel(const u8* __restrict__ triples, const u64* __restrict__ first,
                              DevLayout L, bool per_chunk, u64 units, u8* __restrict__ out,
                              u64* error) {
  const u64 unit = (u64{blockIdx.x} * blockDim.x + threadIdx.x) / 32;
  if (unit >= units) return;
  const u64 c0 = per_chunk ? unit : unit * L.work_items;
  const u64 c1 = per_chunk ? unit + 1 : min(c0 + L.work_items, L.chunk_count);
  for (u64 c = c0; c < c1; ++c) {
    if (!decode_chunk(triples, first, L, c, ByteOut{out, L.chunk_begin(c)}, error)) return;
  }
}

// decode_kernel with each chunk staged in shared memory (L.chunk <= kStagedChunk).
__global__ void __launch_bounds__(32 * kWarpsPerBlock)
    staged_decode_kernel(const u8* __restrict__ triples, const u64* __restrict__ first, DevLayout L,
                         bool per_chunk, u64 units, u8* __restrict__ out, u64* error,
                         cuda::FusedCrcTiles crc) {
  const u64 unit = (u64{blockIdx.x} * blockDim.x + threadIdx.x) / 32;
  if (unit >= units) return;
  const u64 c0 = per_chunk ? unit : unit * L.work_items;
  const u64 c1 = per_chunk ? unit + 1 : min(c0 + L.work_items, L.chunk_count);
  for (u64 c = c0; c < c1; ++c) {
    const StagedBytes staged{out, L.chunk_begin(c), threadIdx.x / 32};
    if (!decode_chunk(triples, first, L, c, staged, error)) return;
    if (c / kCrcTileChunks < crc.count) {
      staged.crc_into(crc.slots + c / kCrcTileChunks, c % kCrcTileChunks);
    }
    staged.flush(static_cast<u32>(L.chunk_end(c) - staged.base));
  }
}

// jump, first: one warp per chunk, words instead of bytes. Launched overlapping the plan
// (launch_jump), as each resolve pass overlaps the kernel before it.
template <typename W>
__global__ void link_kernel(const u8* __restrict__ triples, const u64* __restrict__ first,
                            DevLayout L, W* __restrict__ words, u64* error) {
  cudaTriggerProgrammaticLaunchCompletion();
  cudaGridDependencySynchronize();
  const u64 c = (u64{blockIdx.x} * blockDim.x + threadIdx.x) / 32;
  if (c >= L.chunk_count) return;
  decode_chunk(triples, first, L, c, LinkOut<W>{words, L.chunk_begin(c)}, error);
}

// Links a resolve pass follows for one word: enough that real data needs one or two passes, few
// enough that a pass stays short where chains are long (a byte repeated over many chunks).
constexpr u32 kHops = 16;

// Words i, i + 1, i + 2, i + 3 (those below size), in one 16-byte load where they allow.
// Positions are W: a word holds one below its link bit.
template <typename W>
__device__ void load_group(const W* words, W i, W size, W (&w)[4]) {
  if constexpr (sizeof(W) == 4) {
    if (i + 4 <= size) {
      const uint4 v = *reinterpret_cast<const uint4*>(words + i);
      w[0] = v.x, w[1] = v.y, w[2] = v.z, w[3] = v.w;
      return;
    }
  }
  for (u32 k = 0; k < 4; ++k) w[k] = i + k < size ? words[i + k] : 0;
}

// The links among w (the words at i, i + 1, i + 2, i + 3) followed over at most kHops links
// each, toward a byte or a link further back; the four chains' loads are in flight together. A
// target always lies below the link's own position; the check keeps a stray word from reading
// out of bounds regardless.
template <typename W>
__device__ void follow_group(const W* words, W i, W (&w)[4]) {
  W at[4] = {i, i + 1, i + 2, i + 3};
  for (u32 hop = 0; hop < kHops; ++hop) {
    bool moved = false;
#pragma unroll
    for (u32 k = 0; k < 4; ++k) {
      const W q = w[k] & ~LinkOut<W>::kLink;
      if ((w[k] & LinkOut<W>::kLink) && q < at[k]) {
        w[k] = words[q];
        at[k] = q;
        moved = true;
      }
    }
    if (!moved) return;
  }
}

// Words i .. i + 3 (those below size) resolved as far as kHops links take them, and where they
// got written back. Their bytes go to out in the first pass, and in a later one where a word
// was a link. True if a link is left among them.
template <typename W>
__device__ bool resolve_group(W* words, W i, W size, u8* out, bool first) {
  if (i >= size) return false;
  W w[4];
  load_group(words, i, size, w);
  const W was[4] = {w[0], w[1], w[2], w[3]};
  const bool links = ((w[0] | w[1] | w[2] | w[3]) & LinkOut<W>::kLink) != 0;
  if (!links && !first) return false;
  if (links) follow_group(words, i, w);
  bool left = false;
  u32 bytes = 0;
  for (u32 k = 0; k < 4; ++k) {
    if (w[k] != was[k]) words[i + k] = w[k];
    left |= (w[k] & LinkOut<W>::kLink) != 0;
    bytes |= u32{static_cast<u8>(w[k])} << (8 * k);
  }
  if (i + 4 <= size && reinterpret_cast<std::uintptr_t>(out + i) % 4 == 0) {
    *reinterpret_cast<u32*>(out + i) = bytes;
  } else {
    for (u32 k = 0; k < 4 && i + k < size; ++k) out[i + k] = static_cast<u8>(bytes >> (8 * k));
  }
  return left;
}

constexpr unsigned kJumpThreads = 256;
constexpr unsigned kJumpTile = 4 * 32;    // the words a warp resolves at once
constexpr unsigned kJumpGrid = 132 * 16;  // enough blocks to fill an H100/H200

u64 jump_tiles(const Layout& l) {
  return (l.original_size + kJumpTile - 1) / kJumpTile;
}

// A resolve pass's flags: whether the pass before left a link, in all and per tile (null in the
// first pass), and the same for this pass.
struct PassFlags {
  const u32* left_before;
  const u8* tiles_left_before;
  u32* left;
  u8* tiles_left;
};

// The first error word, as the device status; a triple total other than the planned one means
// the tables changed since the plan was made.
struct Report {
  const u64* error;
  const u64* first;
  u64 chunks;
  u64 triples;
  DeviceStatus* status;

  __device__ void write() const {
    if (first[chunks] != triples) cuda::set_error(status, kCodecError + 4, first[chunks]);
    if (*error != kNoError) cuda::set_error(status, kCodecError + (*error & 3), *error >> 2);
  }
};

// jump, one resolve pass, a tile at a time for each warp. A later pass runs only if the one
// before left a link, and only over the tiles where it did: on real data few are left after the
// first. Every tile's flag is written, so none needs clearing. Skipped after an error, when the
// words of the rejected chunks were never written. The first pass also writes the report (the
// links, the last writer of the error word, are done): one launch fewer a call.
template <typename W>
__global__ void resolve_kernel(W* words, W size, u8* out, PassFlags f, Report report) {
  cudaTriggerProgrammaticLaunchCompletion();
  cudaGridDependencySynchronize();
  const bool first = f.left_before == nullptr;
  if (first && blockIdx.x == 0 && threadIdx.x == 0) report.write();
  if ((!first && *f.left_before == 0) || *report.error != kNoError) return;
  const u32 lane = threadIdx.x & 31;
  const u64 warps = u64{gridDim.x} * blockDim.x / 32;
  bool warp_left = false;
  for (u64 tile = (u64{blockIdx.x} * blockDim.x + threadIdx.x) / 32; tile * kJumpTile < size;
       tile += warps) {
    bool left = false;
    if (first || f.tiles_left_before[tile] != 0) {
      const auto i = static_cast<W>(tile * kJumpTile + 4 * lane);
      left = __any_sync(kFull, resolve_group(words, i, size, out, first)) != 0;
    }
    if (lane == 0) f.tiles_left[tile] = left;
    warp_left |= left;
  }
  if (warp_left && lane == 0) *f.left = 1;
}

// Whether the staged decoder takes the chunks: they fit the stage.
bool staged(const Layout& l) {
  return l.chunk <= kStagedChunk;
}

// Resolve passes that resolve any chain. A link drops to an earlier chunk of its launch block,
// so a chain has fewer hops than the block has chunks. If every link has advanced A hops along
// its chain after a pass, each of the next pass's kHops reads lands on a word that has advanced
// A hops too: (kHops + 1) A in all, and (kHops + 1)^p hops after p passes.
u32 jump_passes(const Layout& l) {
  const u64 chunks = std::min<u64>(l.work_items, l.chunk_count);
  u32 passes = 1;
  for (u64 reach = kHops + 1; reach < chunks; reach *= kHops + 1) ++passes;
  return passes;
}

// jump: the links, then the resolve passes, each launched overlapping the kernel before it: a
// chain of short kernels, whose launches would otherwise be a large share of a small chunk's
// call (bench/NOTES.md, "End to end"). W holds a position and the link bit; `left` has a flag
// per pass (cleared by the plan), `tiles_left` a flag per tile and pass (jump_tiles(l) each).
template <typename W>
void launch_jump(const u8* triples, const u64* first, const Layout& l, const DevLayout& L, W* words,
                 u32* left, u8* tiles_left, u8* out, u64* error, const Report& report,
                 cudaStream_t s) {
  const u32 passes = jump_passes(l);
  const u64 tiles = jump_tiles(l);
  const u32 threads = 32 * kWarpsPerBlock;
  const auto grid = static_cast<unsigned>((l.chunk_count + kWarpsPerBlock - 1) / kWarpsPerBlock);
  cuda::launch_overlapping(link_kernel<W>, grid, threads, s, triples, first, L, words, error);
  for (u32 k = 0; k < passes; ++k) {
    const PassFlags f{k == 0 ? nullptr : left + k - 1,
                      k == 0 ? nullptr : tiles_left + (k - 1) * tiles, left + k,
                      tiles_left + k * tiles};
    cuda::launch_overlapping(resolve_kernel<W>, kJumpGrid, kJumpThreads, s, words,
                             static_cast<W>(l.original_size), out, f, report);
  }
}

// first[c] = the triples before chunk c (first[chunks]: all of them), the exclusive scan of the
// payload's counts (unaligned), by one block a tile at a time; the error word and jump's `passes`
// flags cleared. One launch where a device-wide scan takes two and the clearing more: a small
// file's decode is latency, where every launch counts (bench/NOTES.md, "LZ77 decode per file is
// latency"). A 1 GiB input's 262144 counts are 64 tiles. Lets jump's link kernel launch at once.
constexpr unsigned kPlanThreads = 1024;
constexpr unsigned kPlanCounts = 4;  // a thread's counts per tile

__global__ void __launch_bounds__(kPlanThreads)
    plan_kernel(const u8* __restrict__ counts, u64 chunks, u64* __restrict__ first, u64* error,
                u32* left, u32 passes) {
  using Scan = cub::BlockScan<u64, kPlanThreads, cub::BLOCK_SCAN_WARP_SCANS>;  // raking spills
  __shared__ typename Scan::TempStorage scan;
  cudaTriggerProgrammaticLaunchCompletion();
  if (threadIdx.x == 0) *error = kNoError;
  for (u32 k = threadIdx.x; k < passes; k += kPlanThreads) left[k] = 0;
  u64 before = 0;  // the triples of the tiles done
  for (u64 tile = 0; tile <= chunks; tile += kPlanThreads * kPlanCounts) {
    const u64 c0 = tile + threadIdx.x * kPlanCounts;
    u64 n[kPlanCounts];
    for (u32 i = 0; i < kPlanCounts; ++i) {
      n[i] = c0 + i < chunks ? cuda::load_le<u32>(counts + 4 * (c0 + i)) : 0;
    }
    u64 tile_total;
    Scan(scan).ExclusiveSum(n, n, tile_total);
    for (u32 i = 0; i < kPlanCounts && c0 + i <= chunks; ++i) first[c0 + i] = before + n[i];
    before += tile_total;
    __syncthreads();  // the scan's storage is reused
  }
}

// The report after the plain decoders (jump's first resolve pass writes its own).
__global__ void report_kernel(Report report) {
  report.write();
}

bool per_chunk(const Layout& l, DecodeMode mode) {
  return mode == DecodeMode::chunk ||
         (mode == DecodeMode::automatic && l.scope == WindowScope::chunk);
}

bool uses_jump(const Layout& l, DecodeMode mode) {
  return mode == DecodeMode::jump || (mode == DecodeMode::automatic && !per_chunk(l, mode));
}

struct DecodeTemp {
  u64* first;
  u64* error;
  u8* words;
  u32* left;
  u8* tiles_left;
  bool wide_words;  // jump's words: u32 while every position fits below the link bit

  DecodeTemp(cuda::TempCarver& carve, const Layout& l, DecodeMode mode) {
    first = carve.take<u64>(l.chunk_count + 1);
    error = carve.take<u64>(1);
    const bool jump = uses_jump(l, mode) && l.chunk_count > 0;
    wide_words = l.original_size > (u64{1} << 31);
    words = carve.take<u8>(jump ? l.original_size * (wide_words ? 8 : 4) : 0);
    left = carve.take<u32>(jump ? jump_passes(l) : 0);
    tiles_left = carve.take<u8>(jump ? jump_passes(l) * jump_tiles(l) : 0);
  }
};

}  // namespace

std::string describe_error(const DeviceStatus& status) {
  static const char* const what[] = {
      "invalid triple", "triple runs past the end of its chunk", "offset reaches before its window",
      "triples end short of the chunk", "triple counts differ from the planned ones"};
  const u32 reason = status.error - kCodecError;
  if (status.error < kCodecError || reason > 4) return describe_common("lz77", status);
  if (reason == 4) return std::string("lz77: ") + what[reason] + " (found on the GPU)";
  return "lz77 chunk " + std::to_string(status.detail) + ": " + what[reason] +
         " (found on the GPU)";
}

void check_mode(const Layout& l, DecodeMode mode) {
  if (mode == DecodeMode::chunk && l.scope != WindowScope::chunk) {
    throw ParamError("lz77 decode_mode=chunk needs a window_scope=chunk container");
  }
}

std::size_t decompress_temp_bytes(const Layout& l, DecodeMode mode) {
  cuda::TempCarver carve;
  DecodeTemp(carve, l, mode);
  return carve.bytes();
}

u64 crc_fused_bytes(const Layout& l, DecodeMode mode) {
  if (uses_jump(l, mode) || l.chunk != kStagedChunk) return 0;
  return l.original_size / kCrcTileBytes * kCrcTileBytes;
}

void decompress_async(const Layout& l, u64 triples, DecodeMode mode, const u8* payload, void* temp,
                      std::size_t temp_bytes, u8* out, DeviceStatus* status,
                      const cuda::FusedCrcTiles& crc, cudaStream_t s) {
  check_mode(l, mode);
  if (crc.count > 0 &&
      (crc.tile_bytes != kCrcTileBytes || crc.count * kCrcTileBytes > crc_fused_bytes(l, mode))) {
    throw std::logic_error("lz77 decompress_async: CRC tiles it does not compute");
  }
  if (l.chunk_count == 0) return;
  cuda::TempCarver carve(temp, temp_bytes);
  const DecodeTemp t(carve, l, mode);
  const u8* counts = payload + kPayloadFixedSize + 8 * (l.block_count + 1);
  const u8* area = counts + 4 * l.chunk_count;
  DevLayout L = dev_layout(l);
  L.triples = triples;
  const bool jump = uses_jump(l, mode);
  plan_kernel<<<1, kPlanThreads, 0, s>>>(counts, l.chunk_count, t.first, t.error, t.left,
                                         jump ? jump_passes(l) : 0);
  GCB_CUDA_LAUNCHED();
  const Report report{t.error, t.first, l.chunk_count, triples, status};
  if (jump && !t.wide_words) {
    launch_jump(area, t.first, l, L, reinterpret_cast<u32*>(t.words), t.left, t.tiles_left, out,
                t.error, report, s);
  } else if (jump) {
    launch_jump(area, t.first, l, L, reinterpret_cast<u64*>(t.words), t.left, t.tiles_left, out,
                t.error, report, s);
  } else {
    const bool chunked = per_chunk(l, mode);
    const u64 units = chunked ? l.chunk_count : l.block_count;
    const u32 threads = 32 * kWarpsPerBlock;
    const auto grid = static_cast<unsigned>((units + kWarpsPerBlock - 1) / kWarpsPerBlock);
    if (staged(l)) {
      staged_decode_kernel<<<grid, threads, 0, s>>>(area, t.first, L, chunked, units, out, t.error,
                                                    crc);
    } else {
      decode_kernel<<<grid, threads, 0, s>>>(area, t.first, L, chunked, units, out, t.error);
    }
    GCB_CUDA_LAUNCHED();
    report_kernel<<<1, 1, 0, s>>>(report);
    GCB_CUDA_LAUNCHED();
  }
}

}  // namespace gcbench::lz77::gpu
