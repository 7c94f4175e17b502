// The GPU FL encoder's launches (fl_gpu.hpp), kernels in detail/one_pass_kernels.cuh and
// detail/three_pass_kernels.cuh: the payload's fixed header and tail, the frames' bit widths
// and packed words, the CRC-32, and the container's header.
//
// Compression in one pass when frames divide a tile of 16 KiB and are multiples of 32 elements
// and of a thread's 64 bytes (at width 4 the frame sizes 32, 64, ..., 4096; at width 2
// 32..8192; at width 1 64..16384: the presets' 256, 1024 and 4096 at every width):
// pack_tiles_kernel reads each tile of the input once, into registers, ORs its frames in
// shared memory, writes their bit widths, packs its bits into shared memory at offsets from a
// block scan, and learns its first bit from a decoupled look-back over the tiles before it
// (CUB's ScanTileState), whose value also carries the width of the previous tile's last frame:
// with it the tile rebuilds the word it shares with that tile from the input, so every word is
// stored once, whole, without atomics in global memory. The container's CRC-32 comes from the
// same registers (crc32_tile.cuh).
// Other frame sizes (a frame may span tiles), three passes over device memory:
//   1. frame_or: one read of the input; each block ORs its elements per frame (the widest value
//      of a frame is the bit width of the OR of its values), first within warps, then in
//      shared memory, then one global atomicOr per frame touched by the block; the CRC-32 as
//      above.
//   2. frame_bits + CUB ExclusiveSum: bits[f] and the bit offset of every frame (tiny).
//   3. pack: one thread per output word gathers the 1..33 elements whose bits land in it, so
//      every word is written once, whole, without atomics (the seed's per-element atomicOr
//      would touch each word from several threads). The frame of each tile of words is found
//      beforehand by one binary search per tile, all tiles at once (a search per tile inside
//      the packing loop made it latency-bound: bench/NOTES.md, "FL and RLE GPU").
#include <array>
#include <bit>
#include <cstdint>

#include "codecs/common/container_device.cuh"
#include "codecs/common/crc32.cuh"
#include "src/cuda/cuda_check.hpp"
#include "codecs/common/elements.hpp"
#include "src/cuda/temp_storage.hpp"
#include "codecs/common/tile_state.cuh"
#include "codecs/fl/detail/one_pass_kernels.cuh"
#include "codecs/fl/detail/temp.cuh"
#include "codecs/fl/detail/three_pass_kernels.cuh"
#include "codecs/fl/fl_gpu.hpp"
#include "codecs/fl/fl_payload.hpp"
#include "codecs/fl/format.hpp"
#include "gcbench/container.hpp"

namespace gcbench::fl::gpu {
namespace {

using namespace detail;

// Also the CRC-32 tiles of the input's whole tiles and the payload's size.
void encode_one_pass(const u8* d_in, u64 n, u32 width, u32 fs, const Temp& t, u8* bits,
                     AlignedWordWriter words, u64 words_offset, cuda::FusedCrcTiles crc,
                     cudaStream_t stream) {
  const int tiles = tile_count(n, width);
  const PackArgs a{
      n,
      static_cast<u32>(std::countr_zero(fs)),
      bits,
      words,
      cuda::init_tile_state_async<u64>(tiles, t.tile_state.p, t.tile_state.bytes, stream),
      crc,
      words_offset,
      t.payload_size};
  cuda::with_element_type(width, [&](auto tag) {
    using T = decltype(tag);
    pack_tiles_kernel<T><<<static_cast<unsigned>(tiles), kBlockThreads, 0, stream>>>(
        reinterpret_cast<const T*>(d_in), a);
    GCB_CUDA_LAUNCHED();
  });
}

// Also the CRC-32 tiles of the input's whole OR tiles.
void encode(const u8* d_in, u64 n, u32 width, u32 fs, u64 frames, const Temp& t, u8* bits,
            WordWriter words, cuda::FusedCrcTiles crc, cudaStream_t stream) {
  GCB_CUDA(cudaMemsetAsync(t.frame_or, 0, frames * sizeof(u32), stream));
  const u64 max_words = (n * 8 * width + 31) / 32;
  const u64 max_tiles = (max_words + kPackTile - 1) / kPackTile;
  cuda::with_element_type(width, [&](auto tag) {
    using T = decltype(tag);
    const T* in = reinterpret_cast<const T*>(d_in);
    frame_or_kernel<T><<<cuda::grid_for((n + kOrItems - 1) / kOrItems), kBlockThreads, 0, stream>>>(
        in, n, fs, t.frame_or, crc);
    GCB_CUDA_LAUNCHED();
    frame_bits_kernel<<<cuda::grid_for(frames + 1), kBlockThreads, 0, stream>>>(
        t.frame_or, frames, n, fs, bits, t.sizes);
    GCB_CUDA_LAUNCHED();
    std::size_t bytes = t.scan.bytes;
    GCB_CUDA(
        cub::DeviceScan::ExclusiveSum(t.scan.p, bytes, t.sizes, t.offsets, frames + 1, stream));
    tile_frames_kernel<<<cuda::grid_for(max_tiles), kBlockThreads, 0, stream>>>(
        t.offsets, frames, max_tiles, t.tile_frame);
    GCB_CUDA_LAUNCHED();
    pack_kernel<T><<<cuda::persistent_grid(), kBlockThreads, 0, stream>>>(
        in, n, fs, frames, bits, t.offsets, t.tile_frame, words);
    GCB_CUDA_LAUNCHED();
  });
}

}  // namespace

std::size_t encode_temp_bytes(u64 input_size, const FlParams& f) {
  cuda::TempCarver carve;
  Temp(carve, input_size, f.element_width, f.frame_size, true);
  return carve.bytes();
}

void encode_async(const CompressBuffers& b, const FlParams& f, cudaStream_t stream) {
  const u32 w = f.element_width, fs = f.frame_size;
  const u64 n = b.input_size / w;
  cuda::TempCarver carve(b.temp, b.temp_bytes);
  const Temp t(carve, b.input_size, w, fs, true);
  const PayloadLayout l = make_layout(b.input_size, w, fs, 0);
  u8* payload = b.output + kContainerHeaderSize;
  std::array<u8, kFixedHeaderSize + 4> fixed{};
  write_header(fixed.data(), l, {});  // the tail comes from the device input
  cuda::write_prefix_async(payload, ByteSpan(fixed.data(), kFixedHeaderSize), b.input + n * w,
                           l.tail_size, stream);
  const bool single = one_pass(fs, w);
  const u64 crc_tile = single ? one_pass_tile(w) : kOrTile;
  const cuda::FusedCrcTiles crc_tiles =
      cuda::crc32_fused_tiles(t.crc, t.crc_bytes, b.input_size, n * w, crc_tile * w, stream);
  u8* words = payload + l.words_offset;
  if (n == 0) {
    cuda::set_u64_async(t.payload_size, l.size, stream);
  } else if (single) {
    const auto lead = static_cast<u32>(reinterpret_cast<std::uintptr_t>(words) % 4);
    encode_one_pass(b.input, n, w, fs, t, payload + l.bits_offset,
                    AlignedWordWriter{reinterpret_cast<u32*>(words - lead), lead}, l.words_offset,
                    crc_tiles, stream);
  } else {
    encode(b.input, n, w, fs, l.frame_count, t, payload + l.bits_offset,
           WordWriter{words, reinterpret_cast<std::uintptr_t>(words) % 4 == 0}, crc_tiles, stream);
    payload_size_kernel<<<1, 1, 0, stream>>>(t.offsets + l.frame_count, l.words_offset,
                                             t.payload_size);
    GCB_CUDA_LAUNCHED();
  }
  cuda::crc32_async(b.input, b.input_size, t.crc, t.crc_bytes, {t.crc_value}, stream, crc_tiles);
  cuda::write_container_header_async(b.output, kContainerFormat, b.input_size, t.payload_size,
                                     t.crc_value, b.output_size, stream);
}

}  // namespace gcbench::fl::gpu
