#pragma once
// FL decompression with each tile's words staged in shared memory by bulk copies
// (fl_gpu_decoder.cu launches it where the frame size allows).
#include <cstddef>

#include "codecs/common/bulk_copy.cuh"
#include "codecs/fl/detail/unpack_kernels.cuh"

namespace gcbench::fl::gpu::detail {

// Where every vector lies in one frame and a tile touches at most kMaxTileFrames frames (frame
// sizes that are multiples of 16 bytes and above a tile's elements / 254: every preset's 256,
// 1024 and 4096), unpack_staged_kernel has each tile's packed words brought into shared memory
// by one bulk copy started a tile ahead, and its frames' offsets and widths loaded two tiles
// ahead; a vector then costs a division, one shared-memory entry and its words from shared
// memory, where unpack_kernel's waits on two dependent global loads (bench/NOTES.md, "FL
// decompression staged in shared memory by bulk copies"). The words' buffers are sized by the
// plan's widest frame: sized for 32 bits they left L1 too small for the CRC's operands. A tile
// whose words reach the array's last 16 bytes, or that is partial, takes unpack_kernel's path.
constexpr u32 kMaxTileFrames = cuda::kCrcThreads;  // a thread loads each

// A frame of a staged tile: the low 32 bits of its bit offset (a tile spans less than 2^32
// bits, so differences of these are exact) and its width.
struct StagedFrame {
  u32 offset;
  u32 bits;
};

// A tile's frames, and what start_tile found: bit p of the stream at bit p - first_bit of the
// shared words (mod 2^32), or staged == 0 where the tile takes the global path.
struct StagedTile {
  u64 first_frame;
  u64 first_offset;
  u32 frames;
  u32 first_bit;
  u32 staged;
};

// Sixteen rows, two blocks an SM (four and three for bytes): faster than eight rows at three
// blocks, the per-tile costs (the barrier, the CRC's reduction, the next tile's start) spread
// over twice the output (bench/NOTES.md, "FL decompression staged in shared memory by bulk
// copies").
template <typename T>
constexpr u32 kStagedRows = sizeof(T) == 1 ? 4 : 16;
template <typename T>
constexpr int kStagedBlocks = sizeof(T) == 1 ? 3 : 2;
template <typename T>
using StagedArgs = UnpackArgs<T, kStagedRows<T>>;

template <typename T>
bool staged_unpack(u32 fs) {
  return fs % cuda::kPerVector<T> == 0 && StagedArgs<T>::kTileItems / fs + 2 <= kMaxTileFrames;
}

// This thread's frame of tile `tile` (thread t holds frame t of the tile), loaded into registers
// two tiles ahead of its use.
struct FrameLoad {
  u64 first_frame = 0;
  u64 offset = 0;
  u32 frames = 0;
  u32 bits = 0;

  template <typename T, u32 R>
  __device__ __forceinline__ void load(const UnpackArgs<T, R>& a, u64 tile) {
    frames = 0;
    if (tile >= a.tiles()) return;
    const u64 i0 = tile * a.kTileItems;
    const u64 end = min(i0 + a.kTileItems, a.n);
    first_frame = i0 / a.fs;
    frames = static_cast<u32>((end - 1) / a.fs - first_frame + 1);
    if (threadIdx.x < frames) {
      offset = a.offsets[first_frame + threadIdx.x];
      bits = min(max(u32{a.bits[first_frame + threadIdx.x]}, 1u), a.max_bits);
    }
  }

  __device__ __forceinline__ void store(StagedFrame* frame, StagedTile& tile) const {
    if (threadIdx.x < frames) frame[threadIdx.x] = {static_cast<u32>(offset), bits};
    if (threadIdx.x == 0) tile = {first_frame, offset, frames, 0, 0};
  }
};

// By one thread: the bit range of tile `tile`'s elements, and its words' bulk copy into `dst`
// when they lie, rounded out to 16 bytes, inside the array (not past its last whole 16 bytes,
// where memory after the container may be another allocation's).
template <typename T, u32 R>
__device__ __forceinline__ void start_tile(const UnpackArgs<T, R>& a, u64 tile, StagedTile& t,
                                           const StagedFrame* frame, u8* dst, u32 stage_bytes,
                                           cuda::BulkCopyBarrier& landed) {
  const u64 i0 = tile * a.kTileItems;
  const u64 end = i0 + a.kTileItems;
  const StagedFrame first = frame[0], last = frame[t.frames - 1];
  const u32 shift = a.words.shift_bits();
  const u64 lo = t.first_offset + shift + (i0 - t.first_frame * a.fs) * first.bits;
  const u64 last_start = t.first_offset + shift + (last.offset - first.offset);
  const u64 hi = last_start + (end - (t.first_frame + t.frames - 1) * a.fs) * last.bits;
  const auto view = reinterpret_cast<std::uintptr_t>(a.words.aligned());
  const std::uintptr_t src = (view + 4 * (lo / 32)) & ~(cuda::kBulkAlign - 1);
  const std::uintptr_t src_end =
      (view + 4 * ((hi + 31) / 32) + cuda::kBulkAlign - 1) & ~(cuda::kBulkAlign - 1);
  const std::uintptr_t array_end =
      reinterpret_cast<std::uintptr_t>(a.words.base) + 4 * a.words.count;
  // A frame wider than the plan's widest (a container changed since) does not fit: global path.
  t.staged = end <= a.n && src_end <= array_end && src_end - src <= stage_bytes;
  if (!t.staged) return;
  // Shared bit 0 is view bit 8 * (src - view), stream bit that minus shift.
  t.first_bit = static_cast<u32>(8 * (src - view) - shift);
  landed.start(dst, reinterpret_cast<const void*>(src), static_cast<u32>(src_end - src));
}

template <typename T>
__global__ void __launch_bounds__(cuda::kCrcThreads, kStagedBlocks<T>)
    unpack_staged_kernel(StagedArgs<T> a, u32 stage_bytes) {
  constexpr int kItems = cuda::kPerVector<T>;
  constexpr u32 kRows = kStagedRows<T>;
  extern __shared__ __align__(16) u8 shared[];
  u8* words = shared;  // [2][stage_bytes]: tiles k and k + 1
  auto* frames = reinterpret_cast<StagedFrame*>(shared + 2 * stage_bytes);  // [3][kMax...]
  __shared__ StagedTile staged[3];                                          // tiles k, k + 1, k + 2
  __shared__ cuda::BulkCopyBarrier landed[2];
  const u64 tiles = a.tiles();
  if (threadIdx.x == 0) {
    landed[0].init();
    landed[1].init();
  }
  FrameLoad ahead;
  ahead.load(a, blockIdx.x);
  ahead.store(frames, staged[0]);
  ahead.load(a, u64{blockIdx.x} + gridDim.x);
  ahead.store(frames + kMaxTileFrames, staged[1]);
  __syncthreads();
  if (threadIdx.x == 0 && blockIdx.x < tiles) {
    start_tile(a, blockIdx.x, staged[0], frames, words, stage_bytes, landed[0]);
  }
  __syncthreads();
  u32 parity = 0;  // bit b: the phase that buffer b's next copy completes
  u32 k = 0;
  for (u64 tile = blockIdx.x; tile < tiles; tile += gridDim.x, ++k) {
    const u32 buf = k % 2, slot = k % 3, next = (k + 1) % 3, after = (k + 2) % 3;
    if (threadIdx.x == 0 && tile + gridDim.x < tiles) {
      start_tile(a, tile + gridDim.x, staged[next], frames + next * kMaxTileFrames,
                 words + (buf ^ 1) * stage_bytes, stage_bytes, landed[buf ^ 1]);
    }
    ahead.load(a, tile + 2 * u64{gridDim.x});
    const StagedTile t = staged[slot];
    if (t.staged) {
      landed[buf].wait(parity >> buf & 1);
      parity ^= 1u << buf;
      const auto* stage = reinterpret_cast<const u32*>(words + buf * stage_bytes);
      const StagedFrame* frame = frames + slot * kMaxTileFrames;
      const bool crc_tile = tile < a.crc_tiles.count;
      cuda::RowsCrc<kRows> crc;
      const u64 tile_start = tile * a.kTileItems;
      const u32 lead = static_cast<u32>(tile_start - t.first_frame * a.fs);
#pragma unroll
      for (u32 r = 0; r < kRows; ++r) {
        const u32 q = lead + (r * cuda::kCrcThreads + threadIdx.x) * kItems;
        const u32 f = q / a.fs;
        const StagedFrame fr = frame[f];
        const u32 bit = fr.offset + (q - f * a.fs) * fr.bits - t.first_bit;
        T v[kItems];
        unpack_one_frame(stage, bit, fr.bits, v);
        cuda::store_row(a.out, a.n, tile_start + (q - lead), r, v, crc_tile, crc);
      }
      if (crc_tile) crc.reduce_into(a.crc_tiles.slots + tile);
    } else {
      unpack_tile_from_global(a, tile);
    }
    ahead.store(frames + after * kMaxTileFrames, staged[after]);
    __syncthreads();
  }
}

// The shared memory of unpack_staged_kernel where no frame is wider than `widest` bits: two
// tiles' words (each rounded out to 16 bytes at both ends), three tiles' frames.
struct StagedShared {
  u32 stage_bytes;
  std::size_t bytes;
};

template <typename T>
StagedShared staged_shared(u32 widest) {
  const u32 stage = static_cast<u32>(StagedArgs<T>::kTileItems * widest / 8 + 2 * cuda::kBulkAlign);
  return {stage, 2 * std::size_t{stage} + 3 * kMaxTileFrames * sizeof(StagedFrame)};
}

}  // namespace gcbench::fl::gpu::detail
