#pragma once
// DeviceCodec::bind() written once for a device codec with typed parameters, as
// typed_codec.hpp does for host codecs: the map is resolved and read into `Impl::Typed` at
// bind time, and every bound call passes the struct. `Impl` (deriving from
// TypedDeviceCodec<Impl>) supplies, publicly:
//
//   using Typed = ...;
//   Typed typed(const Params& resolved) const;  // ParamError for a point it cannot take
//   std::uint64_t max_compressed_size(std::uint64_t input_size, const Typed&) const;
//   std::size_t compress_temp_bytes(std::uint64_t input_size, const Typed&) const;
//   void compress_async(const CompressBuffers&, const Typed&, DeviceStream) const;
//   DecodePlan plan_decompress(ByteSpan container, const Typed&) const;
//   void decompress_async(const DecodePlan&, const DecompressBuffers&, const Typed&,
//                         DeviceStream) const;
//   // optional: std::optional<RunTimeChoice> run_time_choice(const Typed&) const;
//   // optional, with info().reference_primitive:
//   //   void primitive_async(const CompressBuffers&, const Typed&, DeviceStream) const;
//   //   std::optional<std::string> check_primitive(const CompressBuffers&, const Typed&,
//   //                                              ByteSpan input, DeviceStream) const;
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>

#include "gcbench/device_codec.hpp"
#include "gcbench/params.hpp"

namespace gcbench {

template <typename Impl>
class TypedDeviceCodec : public DeviceCodec {
 public:
  BoundDeviceCodecPtr bind(const Params& params) const final {
    const Impl& impl = static_cast<const Impl&>(*this);
    return std::make_unique<Bound>(impl, impl.typed(resolve_params(impl.info().axes, params)));
  }

 private:
  // Instantiated only in bind(), where Impl is complete (so Impl::Typed may be named here).
  class Bound final : public BoundDeviceCodec {
   public:
    Bound(const Impl& impl, typename Impl::Typed typed) : impl_(impl), typed_(std::move(typed)) {}
    const DeviceCodec& codec() const override { return impl_; }
    std::uint64_t max_compressed_size(std::uint64_t input_size) const override {
      return impl_.max_compressed_size(input_size, typed_);
    }
    std::size_t compress_temp_bytes(std::uint64_t input_size) const override {
      return impl_.compress_temp_bytes(input_size, typed_);
    }
    void compress_async(const CompressBuffers& buffers, DeviceStream stream) const override {
      impl_.compress_async(buffers, typed_, stream);
    }
    DecodePlan plan_decompress(ByteSpan container) const override {
      return impl_.plan_decompress(container, typed_);
    }
    void decompress_async(const DecodePlan& plan, const DecompressBuffers& buffers,
                          DeviceStream stream) const override {
      impl_.decompress_async(plan, buffers, typed_, stream);
    }
    std::optional<RunTimeChoice> run_time_choice() const override {
      if constexpr (requires { impl_.run_time_choice(typed_); }) {
        return impl_.run_time_choice(typed_);
      } else {
        return std::nullopt;
      }
    }

    void primitive_async(const CompressBuffers& buffers, DeviceStream stream) const override {
      if constexpr (requires { impl_.primitive_async(buffers, typed_, stream); }) {
        impl_.primitive_async(buffers, typed_, stream);
      } else {
        BoundDeviceCodec::primitive_async(buffers, stream);
      }
    }
    std::optional<std::string> check_primitive(const CompressBuffers& buffers, ByteSpan input,
                                               DeviceStream stream) const override {
      if constexpr (requires { impl_.check_primitive(buffers, typed_, input, stream); }) {
        return impl_.check_primitive(buffers, typed_, input, stream);
      } else {
        return BoundDeviceCodec::check_primitive(buffers, input, stream);
      }
    }

   private:
    const Impl& impl_;
    const typename Impl::Typed typed_;
  };
};

}  // namespace gcbench
