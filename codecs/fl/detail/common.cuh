#pragma once
// What the GPU FL kernels (detail/) and their launchers share: integer names, the tiles'
// geometry and the frames' arithmetic.
#include <bit>
#include <cstdint>

#include "codecs/common/device_elements.cuh"

namespace gcbench::fl::gpu::detail {

static_assert(std::endian::native == std::endian::little,
              "payload words are copied to and from the device as they are");

using u8 = std::uint8_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;
using cuda::kBlockThreads;

// Each thread holds 64 bytes of its tile (kOnePassItems<T> elements) in registers, as 16 words:
// tiles of 16 KiB at every width, since the kernel is bound by each tile's latency.
constexpr u32 kOnePassWords = 16;

// Word k holds bits [32k, 32k + 32) of the stream; kPackTile words make a tile. The word count
// is only known on the device (offsets[frames]), so threads past it return at once.
constexpr u64 kPackTile = kBlockThreads;

__device__ __forceinline__ u64 frame_len(u64 f, u64 n, u32 fs) {
  u64 start = f * fs;
  return n - start < fs ? n - start : fs;
}

__device__ __forceinline__ u32 bit_width(u32 frame_or) {
  return max(1, 32 - __clz(frame_or));
}

}  // namespace gcbench::fl::gpu::detail
