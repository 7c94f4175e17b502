// FL on the GPU (format.hpp), byte-identical to fl_cpu.cpp. The host adapter:
// the device codec over the encoder (fl_gpu_encoder.cu, kernels in
// detail/one_pass_kernels.cuh and detail/three_pass_kernels.cuh) and the decoders
// (fl_gpu_decoder.cu, kernels in detail/unpack_kernels.cuh and
// detail/staged_unpack_kernels.cuh).
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>

#include "codecs/common/host_codec.hpp"
#include "codecs/fl/fl.hpp"
#include "codecs/fl/fl_gpu.hpp"
#include "codecs/fl/fl_payload.hpp"
#include "codecs/fl/format.hpp"
#include "codecs/fl/params.hpp"
#include "gcbench/container.hpp"
#include "gcbench/typed_device_codec.hpp"

namespace gcbench::fl::gpu {
namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;

// What a decode needs from the host-side parse.
struct Plan {
  PayloadLayout layout;
  u32 widest_frame;  // bits: sizes the staged decoder's shared memory
};

class FlDeviceCodec final : public TypedDeviceCodec<FlDeviceCodec> {
 public:
  FlDeviceCodec()
      // Built whole: assigning short literals member by member trips a GCC 12 -Wrestrict
      // false positive, an error under nvcc's --Werror=all-warnings.
      : info_{"fl",
              "3",
              Device::gpu,
              "fixed-length bit-packing per frame (CUDA; one pass with decoupled look-back)",
              {element_width_axis(), frame_size_axis()},
              Role::studied,
              "fl"} {
    info_.container_format = kContainerFormat;
  }

  using Typed = FlParams;

  const CodecInfo& info() const override { return info_; }

  FlParams typed(const Params& resolved) const { return fl_params(resolved); }

  u64 max_compressed_size(u64 input_size, const FlParams& f) const {
    return max_container_size(input_size, f.element_width, f.frame_size);
  }

  std::size_t compress_temp_bytes(u64 input_size, const FlParams& f) const {
    return encode_temp_bytes(input_size, f);
  }

  void compress_async(const CompressBuffers& b, const FlParams& f, DeviceStream stream) const {
    encode_async(b, f, stream);
  }

  DecodePlan plan_decompress(ByteSpan container, const FlParams&) const {
    const OpenedContainer c = open_container(container, kContainerFormat);
    const ParsedPayload parsed = parse_payload(c.payload, c.header.original_size);
    const PayloadLayout& l = parsed.layout;
    const u32 widest =
        parsed.bits.empty() ? 1 : *std::max_element(parsed.bits.begin(), parsed.bits.end());
    return make_plan(container, c.header.original_size,
                     decode_temp_bytes(l, c.header.original_size), Plan{l, widest});
  }

  void decompress_async(const DecodePlan& plan, const DecompressBuffers& b, const FlParams&,
                        DeviceStream stream) const {
    const Plan& p = std::any_cast<const Plan&>(plan.detail);
    decode_async(plan, p.layout, p.widest_frame, b, stream);
  }

  std::string describe(const DeviceStatus& s) const override { return describe_error(s); }

 private:
  CodecInfo info_;
};

}  // namespace
}  // namespace gcbench::fl::gpu

namespace gcbench::fl {
CodecPtr make_gpu_codec() {
  return gcbench::gpu::make_host_codec(std::make_unique<gpu::FlDeviceCodec>());
}
}  // namespace gcbench::fl
