#pragma once
// What the GPU RLE kernels (detail/) and their launchers share: integer names and the block.
#include <cstdint>

#include "codecs/common/device_elements.cuh"

namespace gcbench::rle::gpu::detail {

using u8 = std::uint8_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;
using cuda::kBlockThreads;

}  // namespace gcbench::rle::gpu::detail
