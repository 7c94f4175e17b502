// rle-cub: the baseline GPU RLE compressor, cub::DeviceRunLengthEncode::Encode, writing the
// same container as rle (its decoders are rle's; the codec class is in rle_gpu.cu).
#include <cub/device/device_run_length_encode.cuh>

#include "codecs/common/cuda_check.hpp"
#include "codecs/common/elements.hpp"
#include "codecs/rle/rle_gpu.hpp"

namespace gcbench::rle::gpu {

std::size_t cub_encode_temp_bytes(std::uint64_t n, std::uint32_t width) {
  std::size_t bytes = 0;
  with_element_type(width, [&](auto tag) {
    using T = decltype(tag);
    GCB_CUDA(cub::DeviceRunLengthEncode::Encode(nullptr, bytes, static_cast<const T*>(nullptr),
                                                static_cast<T*>(nullptr),
                                                static_cast<std::uint32_t*>(nullptr),
                                                static_cast<std::uint64_t*>(nullptr),
                                                static_cast<int>(n)));
  });
  return bytes;
}

void cub_encode(const std::uint8_t* in, std::uint64_t n, std::uint32_t width, void* temp,
                std::size_t temp_bytes, std::uint32_t* counts, std::uint8_t* values,
                std::uint64_t* run_count, cudaStream_t stream) {
  with_element_type(width, [&](auto tag) {
    using T = decltype(tag);
    GCB_CUDA(cub::DeviceRunLengthEncode::Encode(temp, temp_bytes, reinterpret_cast<const T*>(in),
                                                reinterpret_cast<T*>(values), counts, run_count,
                                                static_cast<int>(n), stream));
  });
}

}  // namespace gcbench::rle::gpu
