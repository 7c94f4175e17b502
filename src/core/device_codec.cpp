#include "gcbench/device_codec.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "gcbench/container.hpp"

namespace gcbench {

DecodePlan make_plan(ByteSpan container, std::uint64_t original_size, std::size_t temp_bytes,
                     std::any detail) {
  // The plan sizes the caller's output buffer: the claim is held to the decode limit first.
  const auto id = static_cast<std::uint16_t>(container[6] | container[7] << 8);
  check_decode_limit(format_name(id), "decoded size", original_size, container.size());
  DecodePlan plan;
  plan.container_size = container.size();
  plan.original_size = original_size;
  plan.temp_bytes = temp_bytes;
  std::copy_n(container.begin(), kContainerHeaderSize, plan.header.begin());
  plan.detail = std::move(detail);
  return plan;
}

std::string describe_common(const char* codec, const DeviceStatus& status) {
  switch (status.error) {
    case kHeaderMismatch:
      return std::string(codec) +
             ": the container on the device differs from the planned one "
             "(header byte " +
             std::to_string(status.detail) + ")";
    case kChecksumMismatch:
      return std::string(codec) + ": checksum mismatch: payload is corrupted (found on the GPU)";
    default:
      return std::string(codec) + ": device decoder error " + std::to_string(status.error) +
             " at " + std::to_string(status.detail);
  }
}

void BoundDeviceCodec::primitive_async(const CompressBuffers&, DeviceStream) const {
  throw std::logic_error(codec().info().name + " has no reference primitive");
}

std::optional<std::string> BoundDeviceCodec::check_primitive(const CompressBuffers&, ByteSpan,
                                                             DeviceStream) const {
  throw std::logic_error(codec().info().name + " has no reference primitive");
}

std::string DeviceCodec::describe(const DeviceStatus& status) const {
  return describe_common(info().name.c_str(), status);
}

}  // namespace gcbench
