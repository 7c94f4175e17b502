#pragma once
// FL compression in three passes over device memory, for the frame sizes the one-pass kernel
// does not take (fl_gpu_encoder.cu launches them).
#include "codecs/common/crc32.cuh"
#include "codecs/common/crc32_tile.cuh"
#include "codecs/common/device_elements.cuh"
#include "codecs/fl/detail/common.cuh"

namespace gcbench::fl::gpu::detail {

constexpr int kOrItems = 16;  // elements per thread in the OR pass
constexpr u64 kOrTile = u64{kBlockThreads} * kOrItems;

// Packed words at the container's offset, which is 4-byte aligned only for some tail sizes.
struct WordWriter {
  u8* base;
  bool aligned;
  __device__ __forceinline__ void store(u64 k, u32 v) const {
    if (aligned) {
      reinterpret_cast<u32*>(base)[k] = v;
    } else {
      cuda::store_le<u32>(base + 4 * k, v);
    }
  }
};

// The frame holding bit `bit`; frame offsets strictly increase because every frame has at
// least one element of at least one bit.
__device__ __forceinline__ u64 frame_of_bit(const u64* offsets, u64 lo, u64 hi, u64 bit) {
  return cuda::last_at_or_below(offsets, lo, hi, bit);
}

// Pass 1: the OR of each frame's elements; also the CRC-32 of each whole tile (crc's), from
// the same registers.
template <typename T>
__global__ void __launch_bounds__(kBlockThreads)
    frame_or_kernel(const T* __restrict__ in, u64 n, u32 fs, u32* __restrict__ frame_or,
                    cuda::FusedCrcTiles crc) {
  static_assert(kBlockThreads == cuda::kCrcThreads);
  __shared__ u32 s_or[kOrTile];  // one slot per frame the tile touches (at most kOrTile)
  const bool crc_tile = blockIdx.x < crc.count;
  const u64 tile0 = u64{blockIdx.x} * kOrTile;
  const u64 tile_end = min(tile0 + kOrTile, n);
  const u64 first = cuda::div_u64(tile0, fs);
  const u64 span = cuda::div_u64(tile_end - 1, fs) - first + 1;
  for (u64 k = threadIdx.x; k < span; k += kBlockThreads) s_or[k] = 0;
  __syncthreads();

  const u64 i0 = tile0 + u64{threadIdx.x} * kOrItems;
  T v[kOrItems];
  cuda::load_items(in, n, i0, v);
  if (crc_tile) cuda::blocked_crc_into(v, crc.slots + blockIdx.x);
  u32 acc = 0;
  u64 f = first;
  if (i0 < n) {
    f = cuda::div_u64(i0, fs);
    u32 r = static_cast<u32>(i0 - f * fs);
#pragma unroll
    for (int k = 0; k < kOrItems; ++k) {
      acc |= v[k];  // zero past n
      if (++r == fs) {
        if (acc != 0) atomicOr(&s_or[f - first], acc);
        acc = 0;
        ++f;
        r = 0;
      }
    }
  }
  // Usually the whole warp is inside one frame: one shared atomic instead of 32.
  const u64 f_lane0 = __shfl_sync(0xFFFFFFFFu, f, 0);
  if (__all_sync(0xFFFFFFFFu, f == f_lane0 || acc == 0)) {
    u32 w = __reduce_or_sync(0xFFFFFFFFu, acc);
    if ((threadIdx.x & 31) == 0 && w != 0) atomicOr(&s_or[f_lane0 - first], w);
  } else if (acc != 0) {
    atomicOr(&s_or[f - first], acc);
  }
  __syncthreads();
  for (u64 k = threadIdx.x; k < span; k += kBlockThreads) {
    if (s_or[k] != 0) atomicOr(&frame_or[first + k], s_or[k]);
  }
}

// bits[f] from the frame's OR (0 needs 1 bit), and sizes[f] = bits[f] * frame length;
// sizes[frames] = 0 so that the exclusive scan's last entry is the total.
__global__ void frame_bits_kernel(const u32* __restrict__ frame_or, u64 frames, u64 n, u32 fs,
                                  u8* __restrict__ bits, u64* __restrict__ sizes) {
  u64 f = u64{blockIdx.x} * kBlockThreads + threadIdx.x;
  if (f > frames) return;
  if (f == frames) {
    sizes[f] = 0;
    return;
  }
  const u32 b = bit_width(frame_or[f]);
  bits[f] = static_cast<u8>(b);
  sizes[f] = b * frame_len(f, n, fs);
}

// tile_frame[t] = the frame holding tile t's first bit. One thread per tile: the binary
// searches all run side by side instead of on the packing kernel's critical path.
__global__ void tile_frames_kernel(const u64* __restrict__ offsets, u64 frames, u64 max_tiles,
                                   u64* __restrict__ tile_frame) {
  const u64 t = u64{blockIdx.x} * kBlockThreads + threadIdx.x;
  const u64 word_count = (offsets[frames] + 31) / 32;
  if (t >= max_tiles || t * kPackTile >= word_count) return;
  tile_frame[t] = frame_of_bit(offsets, 0, frames - 1, t * kPackTile * 32);
}

// Grid-stride over word tiles, one word per thread; each word gathers the elements whose bits
// land in it, so every word is written once, whole, without atomics.
template <typename T>
__global__ void __launch_bounds__(kBlockThreads)
    pack_kernel(const T* __restrict__ in, u64 n, u32 fs, u64 frames, const u8* __restrict__ bits,
                const u64* __restrict__ offsets, const u64* __restrict__ tile_frame,
                WordWriter words) {
  const u64 total = offsets[frames];
  const u64 word_count = (total + 31) / 32;
  for (u64 t = blockIdx.x; t * kPackTile < word_count; t += gridDim.x) {
    const u64 k = t * kPackTile + threadIdx.x;
    if (k >= word_count) break;
    // The frames of this tile's first bit and of the next tile's bound the search.
    const u64 lo = tile_frame[t];
    const u64 hi = (t + 1) * kPackTile < word_count ? tile_frame[t + 1] : frames - 1;
    const u64 pos0 = k * 32;
    const u64 end = min(pos0 + 32, total);
    u64 f = frame_of_bit(offsets, lo, hi, pos0);
    u64 start = offsets[f];
    u32 b = bits[f];
    u64 len = frame_len(f, n, fs);
    // Bits within a frame stay below 2^24 * 32, so 32-bit division is exact.
    u32 j = static_cast<u32>(pos0 - start) / b;
    u64 acc = 0;  // the word sits in the high half; bits past it fall off the top
    if (end <= start + len * b) {
      // The whole word inside frame f (most words): element j's bits start `rel` bits into
      // the word, rel in (-b, 32), all in 32-bit arithmetic.
      const T* frame = in + f * fs;
      const int limit = static_cast<int>(end - pos0);
      for (int rel = static_cast<int>(start + u64{j} * b - pos0); rel < limit; rel += b, ++j) {
        acc |= u64{frame[j]} << (rel + 32);
      }
      words.store(k, static_cast<u32>(acc >> 32));
      continue;
    }
    u64 p = start + u64{j} * b;
    while (p < end) {
      u64 v = in[f * fs + j];
      acc |= v << (p - pos0 + 32);  // shift in [33 - b, 63]
      p += b;
      if (++j == len) {
        if (++f == frames) break;
        b = bits[f];
        len = frame_len(f, n, fs);
        j = 0;
      }
    }
    words.store(k, static_cast<u32>(acc >> 32));
  }
}

// The payload's size once the total bit count is known.
__global__ void payload_size_kernel(const u64* total_bits, u64 words_offset, u64* payload_size) {
  *payload_size = words_offset + 4 * ((*total_bits + 31) / 32);
}

}  // namespace gcbench::fl::gpu::detail
