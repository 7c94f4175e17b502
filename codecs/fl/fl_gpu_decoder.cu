// The GPU FL decoders' launches (fl_gpu.hpp), kernels in detail/unpack_kernels.cuh and
// detail/staged_unpack_kernels.cuh: the frames' bit offsets from the planned container's bits[]
// (CUB ExclusiveSum), then each thread extracts 16 output bytes (4, 8 or 16 consecutive
// elements) per row of a tile, from the tile's words staged in shared memory by a bulk copy a
// tile ahead (or read from global memory where frames are small or not a multiple of 16
// bytes), and the tile's CRC-32 is computed from those registers (the container's checksum
// without another read of the output); then the tail, and the checksum against the header's.
#include <algorithm>
#include <string>
#include <type_traits>

#include "codecs/common/container_device.cuh"
#include "codecs/common/crc32.cuh"
#include "src/cuda/cuda_check.hpp"
#include "codecs/common/elements.hpp"
#include "src/cuda/temp_storage.hpp"
#include "codecs/fl/detail/staged_unpack_kernels.cuh"
#include "codecs/fl/detail/temp.cuh"
#include "codecs/fl/detail/unpack_kernels.cuh"
#include "codecs/fl/fl_gpu.hpp"
#include "gcbench/container.hpp"

namespace gcbench::fl::gpu {

using namespace detail;

std::size_t decode_temp_bytes(const PayloadLayout& l, u64 original_size) {
  cuda::TempCarver carve;
  Temp(carve, original_size, l.element_width, l.frame_size, false);
  return carve.bytes();
}

void decode_async(const DecodePlan& plan, const PayloadLayout& l, u32 widest_frame,
                  const DecompressBuffers& b, cudaStream_t stream) {
  cuda::TempCarver carve(b.temp, b.temp_bytes);
  const Temp t(carve, plan.original_size, l.element_width, l.frame_size, false);
  const u8* payload = b.container + kContainerHeaderSize;
  cuda::begin_decode_async(b.container, plan.header, b.status, stream);
  const u64 n = l.element_count;
  cuda::FusedCrcTiles crc_tiles{};
  if (n > 0) {
    const u32 max_bits = 8 * l.element_width;
    frame_sizes_kernel<<<cuda::grid_for(l.frame_count + 1), kBlockThreads, 0, stream>>>(
        payload + l.bits_offset, l.frame_count, n, l.frame_size, max_bits, t.sizes, b.status);
    GCB_CUDA_LAUNCHED();
    std::size_t bytes = t.scan.bytes;
    GCB_CUDA(cub::DeviceScan::ExclusiveSum(t.scan.p, bytes, t.sizes, t.offsets, l.frame_count + 1,
                                           stream));
    check_total_kernel<<<1, 1, 0, stream>>>(t.offsets + l.frame_count, l.word_count, b.status);
    GCB_CUDA_LAUNCHED();
    cuda::with_element_type(l.element_width, [&](auto tag) {
      using T = decltype(tag);
      // The decode's arguments for tiles of Args::kRows rows, with the CRC's slots of its tiles.
      const auto args_for = [&]<typename Args>(std::type_identity<Args>) {
        crc_tiles = cuda::crc32_fused_tiles(t.crc, t.crc_bytes, plan.original_size, n * sizeof(T),
                                            Args::kTileBytes, stream);
        return Args{payload + l.bits_offset,
                    t.offsets,
                    l.frame_count,
                    WordReader{payload + l.words_offset, l.word_count},
                    n,
                    l.frame_size,
                    max_bits,
                    reinterpret_cast<T*>(b.output),
                    crc_tiles};
      };
      if (staged_unpack<T>(l.frame_size)) {
        const auto a = args_for(std::type_identity<StagedArgs<T>>{});
        const auto kernel = unpack_staged_kernel<T>;
        const StagedShared shared = staged_shared<T>(widest_frame);
        GCB_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      static_cast<int>(shared.bytes)));
        const unsigned grid =
            cuda::resident_grid(kernel, cuda::kCrcThreads, a.tiles(), shared.bytes);
        kernel<<<grid, cuda::kCrcThreads, shared.bytes, stream>>>(a, shared.stage_bytes);
      } else {
        const auto a = args_for(std::type_identity<UnpackArgs<T, kUnpackRows<T>>>{});
        const auto grid = static_cast<unsigned>(std::min<u64>(a.tiles(), cuda::persistent_grid()));
        unpack_kernel<T><<<grid, cuda::kCrcThreads, 0, stream>>>(a);
      }
      GCB_CUDA_LAUNCHED();
    });
  }
  cuda::copy_bytes_async(b.output + n * l.element_width, payload + l.tail_offset, l.tail_size,
                         stream);
  cuda::crc32_async(b.output, plan.original_size, t.crc, t.crc_bytes,
                    {nullptr, b.container + 24, b.status}, stream, crc_tiles);
}

std::string describe_error(const DeviceStatus& s) {
  if (s.error == kBadBitWidth)
    return "FL: frame " + std::to_string(s.detail) + " has an invalid bit width";
  if (s.error == kBitsExceedWords) return "FL: frame bit widths do not match the word count";
  return describe_common("fl", s);
}

}  // namespace gcbench::fl::gpu
