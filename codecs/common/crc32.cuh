#pragma once
// CRC-32 (zlib's) of device memory, computed on the GPU in the caller's stream: what a
// compressor writes into its container header and what a decompressor checks its output
// against. Allocates nothing (temp storage by query), never synchronizes.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "gcbench/device_codec.hpp"

namespace gcbench::cuda {

std::size_t crc32_temp_bytes(std::uint64_t size);

// Where the CRC goes: stored at `out`, and/or compared with the 4 little-endian bytes at
// `expected_le`, a mismatch setting `status` to kChecksumMismatch unless it holds an error
// already; a match with no error sets status->size to `size`.
struct CrcTarget {
  std::uint32_t* out = nullptr;
  const std::uint8_t* expected_le = nullptr;
  DeviceStatus* status = nullptr;
};

// Tiles a kernel computes itself (crc32_tile.cuh): data[0, count * tile_bytes) in tiles of
// tile_bytes, the kernel's warps XORing tile i's raw CRC into slots[i]. Passed to the kernel
// whole; none (count 0) where a kernel computes no CRC.
struct FusedCrcTiles {
  std::uint32_t* slots = nullptr;
  std::uint64_t count = 0;
  std::uint64_t tile_bytes = 0;
};

// The whole tiles of tile_bytes (a multiple of 4 KiB) in the first `covered` bytes of data of
// `size` bytes, their slots carved from the temp storage crc32_async uses and zeroed in
// `stream`.
FusedCrcTiles crc32_fused_tiles(void* temp, std::size_t temp_bytes, std::uint64_t size,
                                std::uint64_t covered, std::uint64_t tile_bytes,
                                cudaStream_t stream);

// The CRC of data[0, size); reads only the bytes after the fused tiles.
void crc32_async(const std::uint8_t* data, std::uint64_t size, void* temp, std::size_t temp_bytes,
                 const CrcTarget& target, cudaStream_t stream, FusedCrcTiles fused = {});

}  // namespace gcbench::cuda
