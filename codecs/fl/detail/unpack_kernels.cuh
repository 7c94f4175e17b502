#pragma once
// FL decompression with every vector located and read from global memory, and the checks of a
// planned container's bit widths and total (fl_gpu_decoder.cu launches them).
#include "codecs/common/container_device.cuh"
#include "codecs/common/crc32.cuh"
#include "codecs/common/crc32_tile.cuh"
#include "codecs/common/device_elements.cuh"
#include "codecs/fl/detail/common.cuh"
#include "gcbench/device_codec.hpp"

namespace gcbench::fl::gpu::detail {

constexpr std::uint32_t kBadBitWidth = kCodecError;  // detail: the frame
constexpr std::uint32_t kBitsExceedWords = kCodecError + 1;

// The container's word array, which is 4-byte aligned only for some tail sizes. Aligned words
// are read from `aligned`, the 4-byte boundary at or below base: bit p of the stream is bit
// p + shift_bits of that view, and its words [0, count) lie inside the container whatever the
// shift (word 0 starts in the bytes before the array).
struct WordReader {
  const u8* base;
  u64 count;
  __device__ __forceinline__ u32 shift_bits() const {
    return 8 * static_cast<u32>(reinterpret_cast<std::uintptr_t>(base) % 4);
  }
  __device__ __forceinline__ const u32* aligned() const {
    return reinterpret_cast<const u32*>(base - shift_bits() / 8);
  }
  // Word w of the array itself (0 past its end): two aligned loads and a funnel shift when the
  // array is not aligned, bytes for the last word.
  __device__ __forceinline__ u32 get(u64 w) const {
    if (w >= count) return 0;
    const u32 shift = shift_bits();
    if (shift == 0) return aligned()[w];
    if (w + 1 < count) return __funnelshift_r(aligned()[w], aligned()[w + 1], shift);
    return cuda::load_le<u32>(base + 4 * w);
  }
};

// sizes[] from bits[]; a width outside 1..max_bits (a container that changed after it was
// planned) is an error, and counts as max_bits so that nothing reads out of bounds.
__global__ void frame_sizes_kernel(const u8* __restrict__ bits, u64 frames, u64 n, u32 fs,
                                   u32 max_bits, u64* __restrict__ sizes, DeviceStatus* status) {
  u64 f = u64{blockIdx.x} * kBlockThreads + threadIdx.x;
  if (f > frames) return;
  if (f == frames) {
    sizes[f] = 0;
    return;
  }
  u32 b = bits[f];
  if (b < 1 || b > max_bits) {
    cuda::set_error(status, kBadBitWidth, f);
    b = max_bits;
  }
  sizes[f] = b * frame_len(f, n, fs);
}

// Checks a planned decode's total bit count against its word count.
__global__ void check_total_kernel(const u64* total_bits, u64 word_count, DeviceStatus* status) {
  if ((*total_bits + 31) / 32 != word_count) cuda::set_error(status, kBitsExceedWords, *total_bits);
}

// The K = kPerVector<T> elements of one frame from bit `bit` of `words` on (global memory's
// aligned view, or a tile staged in shared memory), b bits each: K * b <= 128 bits plus an
// offset below 32, so at most 5 words, loaded once and taken off with funnel shifts (the queue
// x0..x4 moves on by a word whenever the offset passes 32). The caller checked that those words
// lie inside the array.
template <typename T, typename Index>
__device__ __forceinline__ void unpack_one_frame(const u32* __restrict__ words, Index bit, u32 b,
                                                 T (&v)[cuda::kPerVector<T>]) {
  constexpr u32 kItems = cuda::kPerVector<T>;
  const Index w = bit / 32;
  u32 s = static_cast<u32>(bit % 32);
  const u32 span = s + kItems * b;
  u32 x0 = words[w];
  u32 x1 = span > 32 ? words[w + 1] : 0;
  u32 x2 = span > 64 ? words[w + 2] : 0;
  u32 x3 = span > 96 ? words[w + 3] : 0;
  u32 x4 = span > 128 ? words[w + 4] : 0;
  const u32 mask = 0xFFFFFFFFu >> (32 - b);
#pragma unroll
  for (u32 k = 0; k < kItems; ++k) {
    v[k] = static_cast<T>(__funnelshift_r(x0, x1, s) & mask);
    s += b;
    if (s >= 32) {
      s -= 32;
      x0 = x1;
      x1 = x2;
      x2 = x3;
      x3 = x4;
    }
  }
}

// Elements i0 .. i0 + kPerVector<T> - 1 (zero past n). bits[] and word_count were validated
// on the host; widths are clamped and word reads bounded anyway, so a container changed since
// cannot misdirect. A vector inside one frame (every one when the frame size is a multiple of
// kPerVector<T>) takes unpack_one_frame; one that crosses frames or the array's end goes
// element by element.
template <typename T>
__device__ __forceinline__ void unpack_vector(const u8* __restrict__ bits,
                                              const u64* __restrict__ offsets, u64 frames,
                                              WordReader words, u64 n, u32 fs, u32 max_bits, u64 i0,
                                              T (&v)[cuda::kPerVector<T>]) {
  constexpr u32 kItems = cuda::kPerVector<T>;
  u64 f = cuda::div_u64(i0, fs);
  u32 j = static_cast<u32>(i0 - f * fs);
  u64 start = offsets[f];
  u32 b = min(max(u32{bits[f]}, 1u), max_bits);
  u64 len = frame_len(f, n, fs);
  const u64 bit = start + u64{j} * b + words.shift_bits();
  if (i0 + kItems <= n && j + kItems <= len && (bit + kItems * b - 1) / 32 < words.count) {
    unpack_one_frame(words.aligned(), bit, b, v);
    return;
  }
#pragma unroll
  for (u32 k = 0; k < kItems; ++k) {
    v[k] = 0;
    if (i0 + k < n && f < frames) {
      u64 p = start + u64{j} * b;
      u64 w = p / 32;
      u32 off = static_cast<u32>(p % 32);
      u64 lo = words.get(w);
      u64 hi = off + b > 32 ? words.get(w + 1) : 0;
      v[k] = static_cast<T>(((hi << 32 | lo) >> off) & ((u64{1} << b) - 1));
      if (++j == len && ++f < frames) {
        start = offsets[f];
        b = min(max(u32{bits[f]}, 1u), max_bits);
        len = frame_len(f, n, fs);
        j = 0;
      }
    }
  }
}

// Tiles of R rows of kCrcThreads 16-byte vectors, one vector per thread per row, on a
// grid-stride loop; crc's tiles are whole, and their CRCs are computed from the registers
// (crc32_tile.cuh) instead of by another read of the output. unpack_kernel's tiles have eight
// rows (four for bytes, which would spill at eight): the CRC's per-warp reduction and the
// tile's fixed costs spread over 32 KiB of output.
template <typename T>
constexpr u32 kUnpackRows = sizeof(T) == 1 ? 4 : 8;

template <typename T, u32 R>
struct UnpackArgs {
  static constexpr u64 kTileBytes = u64{R} * cuda::kCrcThreads * cuda::kCrcVector;
  static constexpr u64 kTileItems = kTileBytes / sizeof(T);

  const u8* bits;
  const u64* offsets;
  u64 frames;
  WordReader words;
  u64 n;
  u32 fs;
  u32 max_bits;
  T* out;
  cuda::FusedCrcTiles crc_tiles;

  __host__ __device__ __forceinline__ u64 tiles() const {
    return (n + kTileItems - 1) / kTileItems;
  }
};

// One tile, every vector located and read from global memory (unpack_vector).
template <typename T, u32 R>
__device__ __forceinline__ void unpack_tile_from_global(const UnpackArgs<T, R>& a, u64 tile) {
  constexpr int kItems = cuda::kPerVector<T>;
  const bool crc_tile = tile < a.crc_tiles.count;  // whole: no thread leaves the loop early
  cuda::RowsCrc<R> crc;
#pragma unroll
  for (u32 r = 0; r < R; ++r) {
    const u64 i0 = ((tile * R + r) * cuda::kCrcThreads + threadIdx.x) * kItems;
    if (i0 >= a.n) break;
    T v[kItems];
    unpack_vector(a.bits, a.offsets, a.frames, a.words, a.n, a.fs, a.max_bits, i0, v);
    cuda::store_row(a.out, a.n, i0, r, v, crc_tile, crc);
  }
  if (crc_tile) crc.reduce_into(a.crc_tiles.slots + tile);
}

template <typename T>
__global__ void __launch_bounds__(cuda::kCrcThreads)
    unpack_kernel(UnpackArgs<T, kUnpackRows<T>> a) {
  for (u64 tile = blockIdx.x; tile < a.tiles(); tile += gridDim.x) unpack_tile_from_global(a, tile);
}

}  // namespace gcbench::fl::gpu::detail
