#pragma once
// The GPU FL codec on the device API, in layers as CUB's device layer: the device codec
// (fl_gpu.cpp) over the encoder and decoder entry points below, over their kernels (detail/).
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "codecs/fl/fl_payload.hpp"
#include "codecs/fl/params.hpp"
#include "gcbench/device_codec.hpp"

namespace gcbench::fl::gpu {

// fl_gpu_encoder.cu: the whole container of b.input (header, payload, CRC-32) into b.output
// and its size into *b.output_size. Temporary storage by query; the call enqueues work on
// `stream`, allocates nothing and never synchronizes.
std::size_t encode_temp_bytes(std::uint64_t input_size, const FlParams& f);
void encode_async(const CompressBuffers& b, const FlParams& f, cudaStream_t stream);

// fl_gpu_decoder.cu: decodes the planned container (its payload `layout`, validated on the
// host, whose widest frame has `widest_frame` bits) into b.output, errors into *b.status; as
// above for temporary storage and the stream.
std::size_t decode_temp_bytes(const PayloadLayout& layout, std::uint64_t original_size);
void decode_async(const DecodePlan& plan, const PayloadLayout& layout, std::uint32_t widest_frame,
                  const DecompressBuffers& b, cudaStream_t stream);
// The message for a decoder's error status.
std::string describe_error(const DeviceStatus& status);

}  // namespace gcbench::fl::gpu
