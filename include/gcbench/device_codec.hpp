#pragma once
// The device-resident interface of a GPU codec, in the idiom of CUB and nvCOMP's batched API:
// query the temporary storage and the largest output, then enqueue the work on caller-owned
// device buffers and a caller-given stream. Calls allocate nothing, never synchronize and
// never touch the data on the host; sizes and errors are written to device memory.
//
// Compression writes a whole container (include/gcbench/container.hpp), CRC-32 included,
// byte-identical to the codec's CPU reference. Decompression starts from a DecodePlan, made
// on the host from the container's bytes: the header and the codec's tables (metadata, never
// the data), validated there as the CPU decoders validate them; the device then re-checks the
// header it reads against the plan, checks every value it decodes, and verifies the CRC-32.
//
// The host Bytes API (gcbench::Codec, codecs/common/host_codec.hpp), the pipelined end-to-end
// path (src/gpu/) and the driver's kernel-only cells are all written once, above this interface.
#include <any>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "gcbench/bytes.hpp"
#include "gcbench/codec.hpp"
#include "gcbench/params.hpp"

struct CUstream_st;  // cudaStream_t is CUstream_st*: the header needs no CUDA include

namespace gcbench {

using DeviceStream = CUstream_st*;

// What a device decoder reports, in device memory. `error` 0 means the output is complete
// and its CRC-32 matches the container's; otherwise DeviceCodec::describe() explains it.
struct DeviceStatus {
  std::uint32_t error = 0;
  std::uint32_t reserved = 0;
  std::uint64_t detail = 0;  // e.g. the chunk or run where decoding failed
  std::uint64_t size = 0;    // bytes written to the output
};

// Error codes every device decoder shares; a codec's own start at kCodecError.
enum DeviceError : std::uint32_t {
  kDeviceOk = 0,
  kHeaderMismatch = 1,    // the device container's header differs from the planned one
  kChecksumMismatch = 2,  // decoded bytes do not match the container's CRC-32
  kCodecError = 16,
};

struct CompressBuffers {
  const std::uint8_t* input = nullptr;  // device
  std::uint64_t input_size = 0;
  void* temp = nullptr;  // device, compress_temp_bytes() bytes, 256-byte aligned
  std::size_t temp_bytes = 0;
  std::uint8_t* output = nullptr;        // device, max_compressed_size() bytes
  std::uint64_t* output_size = nullptr;  // device: the container's size once done
};

// Host-side facts about one container, enough to size buffers and launches.
struct DecodePlan {
  std::uint64_t container_size = 0;
  std::uint64_t original_size = 0;
  std::size_t temp_bytes = 0;
  std::array<std::uint8_t, 32> header{};  // the container header the plan was made from
  std::any detail;                        // the codec's own validated layout
};

// The shared fields of a plan for `container`, whose header the codec has validated. Throws
// DecodeError when `original_size` is above the decode limit for the container's size
// (include/gcbench/container.hpp): callers size their output buffers from plans.
DecodePlan make_plan(ByteSpan container, std::uint64_t original_size, std::size_t temp_bytes,
                     std::any detail);

struct DecompressBuffers {
  const std::uint8_t* container = nullptr;  // device, plan.container_size bytes
  void* temp = nullptr;                     // device, plan.temp_bytes, 256-byte aligned
  std::size_t temp_bytes = 0;
  std::uint8_t* output = nullptr;  // device, plan.original_size bytes
  DeviceStatus* status = nullptr;  // device
};

class DeviceCodec;

// A device codec with one parameter point bound (DeviceCodec::bind): resolved, validated and
// typed once, so that none of the calls below takes a map or looks an axis up by name.
// Borrows the codec it came from.
class BoundDeviceCodec {
 public:
  virtual ~BoundDeviceCodec() = default;
  virtual const DeviceCodec& codec() const = 0;

  virtual std::uint64_t max_compressed_size(std::uint64_t input_size) const = 0;
  virtual std::size_t compress_temp_bytes(std::uint64_t input_size) const = 0;
  virtual void compress_async(const CompressBuffers& buffers, DeviceStream stream) const = 0;

  // Throws DecodeError for a container the CPU decoder would reject on its metadata alone,
  // ParamError for a decoder variant this container cannot use.
  virtual DecodePlan plan_decompress(ByteSpan container) const = 0;
  virtual void decompress_async(const DecodePlan& plan, const DecompressBuffers& buffers,
                                DeviceStream stream) const = 0;

  // As BoundCodec::run_time_choice().
  virtual std::optional<RunTimeChoice> run_time_choice() const { return std::nullopt; }

  // For a codec whose info().reference_primitive names one: that primitive alone, enqueued on
  // the compression buffers, its output within `temp` (no container, no CRC); then its output
  // read back and checked against the host `input` (nullopt when right, else what is wrong).
  // The defaults throw std::logic_error: the driver calls them only for such codecs.
  virtual void primitive_async(const CompressBuffers& buffers, DeviceStream stream) const;
  virtual std::optional<std::string> check_primitive(const CompressBuffers& buffers, ByteSpan input,
                                                     DeviceStream stream) const;
};

using BoundDeviceCodecPtr = std::unique_ptr<const BoundDeviceCodec>;

class DeviceCodec {
 public:
  virtual ~DeviceCodec() = default;
  virtual const CodecInfo& info() const = 0;  // device == Device::gpu

  // As Codec::bind(): `params` resolved against info().axes; ParamError naming the axis.
  virtual BoundDeviceCodecPtr bind(const Params& params) const = 0;

  // The message of a DecodeError for a status with error != 0.
  virtual std::string describe(const DeviceStatus& status) const;
};

// The generic part of describe(): the shared codes, else "error N at D".
std::string describe_common(const char* codec, const DeviceStatus& status);

}  // namespace gcbench
