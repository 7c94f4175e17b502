// RLE on the GPU (format.hpp), byte-identical to rle_cpu.cpp. The host adapter: the device codec
// that both GPU RLE codecs are, over the encoder (rle_gpu_encoder.cu, kernels in
// detail/encode_kernels.cuh; rle-cub's run finder is rle_cub_gpu.cu) and the decoders
// (rle_gpu_decoder.cu, kernels in detail/decode_kernels.cuh).
#include <memory>
#include <stdexcept>
#include <string>

#include "codecs/common/elements.hpp"
#include "codecs/common/host_codec.hpp"
#include "codecs/rle/format.hpp"
#include "codecs/rle/params.hpp"
#include "codecs/rle/rle.hpp"
#include "codecs/rle/rle_gpu.hpp"
#include "codecs/rle/rle_payload.hpp"
#include "gcbench/container.hpp"
#include "gcbench/typed_device_codec.hpp"

namespace gcbench::rle::gpu {

using u32 = std::uint32_t;
using u64 = std::uint64_t;

AxisSpec decode_axis() {
  AxisSpec a;
  a.name = "decode";
  a.help =
      "GPU decompression: scan (counts scan + binary search per tile) or flood (scatter + "
      "flood-right scan)";
  a.default_value = static_cast<int>(DecodeVariant::scan);
  a.min = 0;
  a.max = 1;
  a.names = {"scan", "flood"};
  a.in_container = false;
  return a;
}

DecodeVariant decode_variant(const Params& resolved) {
  return static_cast<DecodeVariant>(axis_value(resolved, "decode"));
}

namespace {

struct Plan {
  PayloadLayout layout;
  DecodeVariant variant;
};

// The GPU codecs' parameters, typed: the format's, and the decoder.
struct GpuParams {
  RleParams format;
  DecodeVariant variant = DecodeVariant::scan;
};

class RleDeviceCodec final : public TypedDeviceCodec<RleDeviceCodec> {
 public:
  RleDeviceCodec(EncoderKind kind, u64 max_count) : kind_(kind), max_count_(max_count) {
    // Built from std::string values: GCC 12 warns falsely (-Wrestrict) on assigning literals.
    info_.name = std::string{kind == EncoderKind::fused ? "rle" : "rle-cub"};
    info_.version = std::string{"2"};
    info_.device = Device::gpu;
    info_.description =
        std::string{kind == EncoderKind::fused
                        ? "run-length encoding (CUDA; one-pass encoder with decoupled look-back, "
                          "scan or flood decoding)"
                        : "RLE baseline: cub::DeviceRunLengthEncode, rle container and decoders"};
    info_.axes = {element_width_axis(), decode_axis()};
    info_.role = kind == EncoderKind::fused ? Role::studied : Role::baseline;
    info_.cpu_reference = std::string{"rle"};
    info_.container_format = kContainerFormat;
    if (kind == EncoderKind::cub) info_.reference_primitive = "cub::DeviceRunLengthEncode::Encode";
  }

  using Typed = GpuParams;

  const CodecInfo& info() const override { return info_; }

  GpuParams typed(const Params& resolved) const {
    return {rle_params(resolved), decode_variant(resolved)};
  }

  u64 max_compressed_size(u64 input_size, const GpuParams& p) const {
    return max_container_size(input_size, p.format.element_width);
  }

  std::size_t compress_temp_bytes(u64 input_size, const GpuParams& p) const {
    const u32 width = p.format.element_width;
    if (kind_ == EncoderKind::cub && input_size / width > kMaxCubItems) {
      throw ParamError("rle-cub: CUB's run-length encoder takes at most 2^31-1 elements per call");
    }
    return encode_temp_bytes(input_size, width, kind_, max_count_);
  }

  void compress_async(const CompressBuffers& b, const GpuParams& p, DeviceStream stream) const {
    encode_async(b, p.format.element_width, kind_, max_count_, stream);
  }

  // rle-cub's reference primitive (info_.reference_primitive), in rle-cub's compression temp.
  void primitive_async(const CompressBuffers& b, const GpuParams& p, DeviceStream stream) const {
    require_primitive();
    cub_primitive_async(b, p.format.element_width, max_count_, stream);
  }
  std::optional<std::string> check_primitive(const CompressBuffers& b, const GpuParams& p,
                                             ByteSpan input, DeviceStream stream) const {
    require_primitive();
    return check_cub_primitive(b, p.format.element_width, max_count_, input, stream);
  }

  DecodePlan plan_decompress(ByteSpan container, const GpuParams& p) const {
    const OpenedContainer c = open_container(container, kContainerFormat);
    const PayloadLayout l = parse_payload(c.payload, c.header.original_size).layout;
    return make_plan(container, c.header.original_size,
                     decode_temp_bytes(l, c.header.original_size), Plan{l, p.variant});
  }

  void decompress_async(const DecodePlan& plan, const DecompressBuffers& b, const GpuParams&,
                        DeviceStream stream) const {
    const Plan& pl = std::any_cast<const Plan&>(plan.detail);
    decode_async(plan, pl.layout, pl.variant, b, stream);
  }

  std::string describe(const DeviceStatus& s) const override {
    return describe_error(info_.name.c_str(), s);
  }

 private:
  void require_primitive() const {
    if (kind_ != EncoderKind::cub)
      throw std::logic_error(info_.name + " has no reference primitive");
  }

  EncoderKind kind_;
  u64 max_count_;
  CodecInfo info_;
};

}  // namespace

std::unique_ptr<const DeviceCodec> make_device_codec(EncoderKind kind, u64 max_count) {
  if (max_count < 1 || max_count > kMaxRunCount) {
    throw std::invalid_argument("rle::gpu: max_count out of range");
  }
  return std::make_unique<RleDeviceCodec>(kind, max_count);
}

}  // namespace gcbench::rle::gpu

namespace gcbench::rle {
CodecPtr make_gpu_codec() {
  return gcbench::gpu::make_host_codec(gpu::make_device_codec(gpu::EncoderKind::fused));
}
CodecPtr make_cub_gpu_codec() {
  return gcbench::gpu::make_host_codec(gpu::make_device_codec(gpu::EncoderKind::cub));
}
}  // namespace gcbench::rle
