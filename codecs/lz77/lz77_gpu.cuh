#pragma once
// The GPU LZ77 pipeline behind the codec class (lz77_gpu.cu): compression in two designs and
// decompression in two granularities. Both take a validated layout or payload from
// payload.hpp, so the host-side checks are the CPU reference's.
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "codecs/common/crc32.cuh"
#include "codecs/lz77/finder.hpp"
#include "codecs/lz77/payload.hpp"
#include "gcbench/codec.hpp"
#include "gcbench/device_codec.hpp"

namespace gcbench::lz77::gpu {

// thread: one GPU thread factorizes one chunk, one launch per launch block (the thesis).
// block: a thread block finds the longest match of every position of a 4 KiB tile in shared
// memory, then one thread per chunk walks the precomputed matches (the same greedy parse).
// warp: one warp per chunk parses and finds matches only at the positions the parse visits,
// 32 candidates at a time (hash and brute; z is rejected with ParamError).
enum class Design : std::uint8_t { thread = 0, block = 1, warp = 2 };

// block: one warp per launch block, chunk after chunk (the thesis's parallel decoder);
// chunk: one warp per chunk (window_scope = chunk containers only);
// jump: one warp per chunk for any container, bytes copied from earlier chunks left as links
// to their source, then resolved by pointer jumping (log2(work_items) passes at most);
// automatic picks chunk whenever the container allows it, else jump.
enum class DecodeMode : std::uint8_t { automatic = 0, block = 1, chunk = 2, jump = 3 };

// Device API pieces (payload only; the codec adds the container around them). Temporary
// storage by query; the calls enqueue work on `stream` and allocate nothing.
std::size_t compress_temp_bytes(const Layout& layout, Finder finder, Design design);
void compress_async(const std::uint8_t* in, const Layout& layout, Finder finder, Design design,
                    void* temp, std::size_t temp_bytes, std::uint8_t* payload,
                    std::uint64_t* payload_size, cudaStream_t stream);

// ParamError for mode = chunk on a window_scope = block payload.
void check_mode(const Layout& layout, DecodeMode mode);
std::size_t decompress_temp_bytes(const Layout& layout, DecodeMode mode);
// The output CRC's tiles that the decoder computes itself as it writes the output (a chunk-
// staged decode of 4 KiB chunks: eight chunks a tile): their size, and the bytes they cover from
// the start, 0 where it computes none.
inline constexpr std::uint64_t kCrcTileBytes = 8 * 4096;
std::uint64_t crc_fused_bytes(const Layout& layout, DecodeMode mode);
// `triples`: the payload's triple count, as validated on the host. Errors go to `status`. `crc`:
// tiles from crc32_fused_tiles() over at most crc_fused_bytes(), or none.
void decompress_async(const Layout& layout, std::uint64_t triples, DecodeMode mode,
                      const std::uint8_t* payload, void* temp, std::size_t temp_bytes,
                      std::uint8_t* out, DeviceStatus* status, const cuda::FusedCrcTiles& crc,
                      cudaStream_t stream);
std::string describe_error(const DeviceStatus& status);

}  // namespace gcbench::lz77::gpu
