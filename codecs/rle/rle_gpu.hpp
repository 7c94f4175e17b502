#pragma once
// The GPU RLE codecs (rle with its one-pass encoder, rle-cub with cub::DeviceRunLengthEncode)
// on the device API. Both find contiguous runs in temporary storage and share the rest: runs
// longer than the count limit split as format.hpp says, the container assembled on the
// device, and the two decoders. In layers, as CUB's device layer: the device codec
// (rle_gpu.cpp) over the encoder and decoder entry points below, over their kernels (detail/).
#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "codecs/rle/format.hpp"
#include "codecs/rle/rle_payload.hpp"
#include "gcbench/device_codec.hpp"

namespace gcbench::rle::gpu {

// The speed-only `decode` axis: (a) exclusive scan of counts, a binary search per output tile
// and each element's run from the tile's run-start marks, or
// (b) scatter of values to run starts + inclusive flood-right scan (per tile, fused).
enum class DecodeVariant : int { scan = 0, flood = 1 };
AxisSpec decode_axis();
DecodeVariant decode_variant(const Params& resolved);

enum class EncoderKind { fused, cub };

// `max_count` below the format's limit is a test hook: small inputs then reach run splitting,
// exactly as the CPU encoder's parameter of the same name does.
std::unique_ptr<const DeviceCodec> make_device_codec(EncoderKind kind,
                                                     std::uint64_t max_count = kMaxRunCount);

// rle_gpu_encoder.cu: the whole container of b.input (header, payload, CRC-32) into b.output
// and its size into *b.output_size, for elements of `width` bytes. Temporary storage by query;
// the call enqueues work on `stream`, allocates nothing and never synchronizes.
std::size_t encode_temp_bytes(std::uint64_t input_size, std::uint32_t width, EncoderKind kind,
                              std::uint64_t max_count);
void encode_async(const CompressBuffers& b, std::uint32_t width, EncoderKind kind,
                  std::uint64_t max_count, cudaStream_t stream);

// rle-cub's reference primitive (CodecInfo::reference_primitive): cub::DeviceRunLengthEncode::
// Encode alone on the compression buffers, its runs in the encoder's own places in b.temp (no
// clamp, no payload, no container, no CRC); then its runs read back and compared with the
// input's, counted on the host.
void cub_primitive_async(const CompressBuffers& b, std::uint32_t width, std::uint64_t max_count,
                         cudaStream_t stream);
std::optional<std::string> check_cub_primitive(const CompressBuffers& b, std::uint32_t width,
                                               std::uint64_t max_count, ByteSpan input,
                                               cudaStream_t stream);

// rle_gpu_decoder.cu: decodes the planned container (its payload `layout`, validated on the
// host) into b.output, errors into *b.status; as above for temporary storage and the stream.
std::size_t decode_temp_bytes(const PayloadLayout& layout, std::uint64_t original_size);
void decode_async(const DecodePlan& plan, const PayloadLayout& layout, DecodeVariant variant,
                  const DecompressBuffers& b, cudaStream_t stream);
// The message for a decoder's error status.
std::string describe_error(const char* codec, const DeviceStatus& status);

namespace detail {
struct LongRun;
}

// Where an encoder lists the runs longer than max_count (detail/long_runs.cuh).
struct LongRuns {
  detail::LongRun* runs;
  std::uint32_t* count;
  std::uint32_t capacity;
  std::uint64_t max_count;
};

// rle_cub_gpu.cu: one cub::DeviceRunLengthEncode::Encode over n <= kMaxCubItems elements, then
// the counts over max_count clamped and listed in `long_runs` (when n can hold one); *run_count
// is the number of runs.
inline constexpr std::uint64_t kMaxCubItems = 0x7FFFFFFF;  // CUB's int item count
std::size_t cub_encode_temp_bytes(std::uint64_t n, std::uint32_t width);
void cub_encode(const std::uint8_t* in, std::uint64_t n, std::uint32_t width, void* temp,
                std::size_t temp_bytes, std::uint32_t* counts, std::uint8_t* values,
                std::uint64_t* run_count, const LongRuns& long_runs, cudaStream_t stream);

}  // namespace gcbench::rle::gpu
