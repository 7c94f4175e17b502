#pragma once
// Codec::bind() written once for a codec whose parameters have a typed form (a plain struct,
// as CUB's and nvCOMP's calls take): the map is resolved against info().axes and read into
// the struct at bind time; the bound calls pass the struct. `Impl` (deriving from
// TypedCodec<Impl>) supplies, publicly:
//
//   using Typed = ...;                          // e.g. a family's CpuParams
//   Typed typed(const Params& resolved) const;  // ParamError for a point it cannot take
//   std::uint64_t max_compressed_size(std::uint64_t input_size, const Typed&) const;
//   Bytes compress(ByteSpan input, const Typed&, RunStats*) const;
//   Bytes decompress(ByteSpan container, const Typed&, RunStats*) const;
//
// and, optionally, calls that write into the caller's buffer (BoundCodec::compress_into and
// decompress_into):
//
//   std::size_t compress_into(ByteSpan input, std::span<std::uint8_t> room, const Typed&,
//                             RunStats*) const;
//   void decompress_into(ByteSpan container, std::span<std::uint8_t> output, const Typed&,
//                        RunStats*) const;
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>

#include "gcbench/codec.hpp"
#include "gcbench/params.hpp"

namespace gcbench {

template <typename Impl>
class TypedCodec : public Codec {
 public:
  BoundCodecPtr bind(const Params& params) const final {
    const Impl& impl = static_cast<const Impl&>(*this);
    return std::make_unique<Bound>(impl, impl.typed(resolve_params(impl.info().axes, params)));
  }

 private:
  // Instantiated only in bind(), where Impl is complete (so Impl::Typed may be named here).
  class Bound final : public BoundCodec {
   public:
    Bound(const Impl& impl, typename Impl::Typed typed) : impl_(impl), typed_(std::move(typed)) {}
    std::uint64_t max_compressed_size(std::uint64_t input_size) const override {
      return impl_.max_compressed_size(input_size, typed_);
    }
    Bytes compress(ByteSpan input, RunStats* stats) const override {
      return impl_.compress(input, typed_, stats);
    }
    std::size_t compress_into(ByteSpan input, std::span<std::uint8_t> room,
                              RunStats* stats) const override {
      if constexpr (kCompressesInto) {
        return impl_.compress_into(input, room, typed_, stats);
      } else {
        return BoundCodec::compress_into(input, room, stats);
      }
    }
    bool compresses_into() const override { return kCompressesInto; }
    Bytes decompress(ByteSpan container, RunStats* stats) const override {
      return impl_.decompress(container, typed_, stats);
    }
    void decompress_into(ByteSpan container, std::span<std::uint8_t> output,
                         RunStats* stats) const override {
      if constexpr (kDecodesInto) {
        impl_.decompress_into(container, output, typed_, stats);
      } else {
        BoundCodec::decompress_into(container, output, stats);
      }
    }
    bool decodes_into() const override { return kDecodesInto; }

   private:
    static constexpr bool kCompressesInto =
        requires(const Impl& impl, ByteSpan in, std::span<std::uint8_t> room,
                 const typename Impl::Typed& t, RunStats* s) {
      { impl.compress_into(in, room, t, s) } -> std::same_as<std::size_t>;
    };
    static constexpr bool kDecodesInto =
        requires(const Impl& impl, ByteSpan c, std::span<std::uint8_t> out,
                 const typename Impl::Typed& t, RunStats* s) {
      impl.decompress_into(c, out, t, s);
    };
    const Impl& impl_;
    const typename Impl::Typed typed_;
  };
};

}  // namespace gcbench
