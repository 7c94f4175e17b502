#pragma once
// The host side of every codec that writes a gcbench container (include/gcbench/container.hpp),
// written once: parameters resolved into the family's typed struct at bind time
// (gcbench/typed_codec.hpp), the payload framed; on decoding the container opened, the payload
// validated, the decode limit checked before the output is allocated, the output verified against
// the header's size and CRC-32, std::bad_alloc turned into DecodeError. A family supplies its
// payload only (lzbench's codec descriptor, as a type):
//
//   struct Family {
//     using Typed = ...;   // the family's parameters, e.g. fl::FlParams
//     using Parsed = ...;  // a validated payload, ready to decode
//     static constexpr ContainerFormat format = ...;  // its format.hpp's kContainerFormat
//     Typed typed(const Params& resolved) const;
//     std::uint64_t max_payload_size(std::uint64_t input_size, const Typed&) const;
//     Bytes encode(ByteSpan input, const Typed&) const;  // the payload
//     // Validates everything short of the decoded bytes; allocates nothing of the output's size.
//     Parsed parse(ByteSpan payload, std::uint64_t original_size, const Typed&) const;
//     void decode(const Parsed&, const Typed&, std::span<std::uint8_t> out) const;
//   };
#include <cstdint>
#include <memory>
#include <span>
#include <utility>

#include "gcbench/codec.hpp"
#include "gcbench/container.hpp"
#include "gcbench/typed_codec.hpp"

namespace gcbench {

template <typename Family>
class ContainerCodec final : public TypedCodec<ContainerCodec<Family>> {
 public:
  using Typed = typename Family::Typed;

  ContainerCodec(CodecInfo info, Family family) : info_(std::move(info)), family_(family) {
    info_.container_format = Family::format;
  }

  const CodecInfo& info() const override { return info_; }

  Typed typed(const Params& resolved) const { return family_.typed(resolved); }

  std::uint64_t max_compressed_size(std::uint64_t input_size, const Typed& p) const {
    return kContainerHeaderSize + family_.max_payload_size(input_size, p);
  }

  Bytes compress(ByteSpan input, const Typed& p, RunStats* /*stats*/) const {
    return wrap_container(Family::format, input, family_.encode(input, p));
  }

  Bytes decompress(ByteSpan container, const Typed& p, RunStats* /*stats*/) const {
    return decode_guarded(info_.name, [&] {
      const OpenedContainer opened = open_container(container, Family::format);
      const std::uint64_t size = opened.header.original_size;
      const typename Family::Parsed parsed = family_.parse(opened.payload, size, p);
      check_decode_limit(info_.name, "decoded size", size, container.size());
      Bytes out(size);
      family_.decode(parsed, p, out);
      verify_original(opened.header, out);
      return out;
    });
  }

 private:
  CodecInfo info_;
  Family family_;
};

template <typename Family>
CodecPtr make_container_codec(CodecInfo info, Family family = {}) {
  return std::make_unique<ContainerCodec<Family>>(std::move(info), family);
}

}  // namespace gcbench
