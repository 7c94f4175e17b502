#pragma once
// The GPU RLE codecs (rle with its one-pass encoder, rle-cub with cub::DeviceRunLengthEncode)
// on the device API. Both find contiguous runs in temporary storage and share the rest: runs
// longer than the count limit split as format.hpp says, the container assembled on the
// device, and the two decoders.
#include <cuda_runtime.h>

#include <cstdint>
#include <memory>

#include "codecs/rle/format.hpp"
#include "gcbench/device_codec.hpp"

namespace gcbench::rle::gpu {

// The speed-only `decode` axis: (a) exclusive scan of counts + binary search per element, or
// (b) scatter of run numbers to run starts + inclusive flood-right scan.
enum class DecodeVariant : int { scan = 0, flood = 1 };
AxisSpec decode_axis();

enum class EncoderKind { fused, cub };

// `max_count` below the format's limit is a test hook: small inputs then reach run splitting,
// exactly as the CPU encoder's parameter of the same name does.
std::unique_ptr<const DeviceCodec> make_device_codec(EncoderKind kind,
                                                     std::uint64_t max_count = kMaxRunCount);

// rle_cub_gpu.cu: one cub::DeviceRunLengthEncode::Encode over n <= kMaxCubItems elements;
// counts are true run lengths, *run_count the number of runs.
inline constexpr std::uint64_t kMaxCubItems = 0x7FFFFFFF;  // CUB's int item count
std::size_t cub_encode_temp_bytes(std::uint64_t n, std::uint32_t width);
void cub_encode(const std::uint8_t* in, std::uint64_t n, std::uint32_t width, void* temp,
                std::size_t temp_bytes, std::uint32_t* counts, std::uint8_t* values,
                std::uint64_t* run_count, cudaStream_t stream);

}  // namespace gcbench::rle::gpu
