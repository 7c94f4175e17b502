#include "codecs/lz77/entropy_streams.hpp"
#include "codecs/lz77/format.hpp"

#include <algorithm>
#include <string>

#include "codecs/entropy/range_coder.hpp"
#include "codecs/lz77/payload.hpp"
#include "codecs/lz77/triple.hpp"
#include "gcbench/container.hpp"
#include "gcbench/errors.hpp"

namespace gcbench::lz77 {
namespace {

using entropy::AdaptiveModel;
using entropy::RangeDecoder;
using entropy::RangeEncoder;

// Lengths are 0 or 3..257 (wide): 0 stays 0, the rest map to 1..255 so they fit a byte.
std::uint8_t length_symbol(std::uint32_t length) {
  return static_cast<std::uint8_t>(length == 0 ? 0 : length - (kMinMatch - 1));
}
std::uint32_t symbol_length(std::uint8_t symbol) {
  return symbol == 0 ? 0 : symbol + (kMinMatch - 1);
}

}  // namespace

Bytes entropy_encode(ByteSpan lz77_container) {
  const OpenedContainer opened = open_container(lz77_container, kContainerFormat);
  const ParsedPayload payload = parse_payload(opened.payload, opened.header.original_size);
  const Config config = payload.layout.config;
  const std::uint32_t triple_bytes = payload.layout.geo().triple_bytes;
  const std::uint64_t count = payload.triples.size() / triple_bytes;

  Bytes offsets, lengths, nexts;
  AdaptiveModel offset_high, offset_low, length_model, next_model;
  RangeEncoder offset_enc(offsets), length_enc(lengths), next_enc(nexts);
  for (std::uint64_t i = 0; i < count; ++i) {
    const Triple t = unpack_triple(config, payload.triples.data() + i * triple_bytes);
    offset_enc.encode(offset_high, static_cast<std::uint8_t>(t.offset >> 8));
    offset_enc.encode(offset_low, static_cast<std::uint8_t>(t.offset & 0xFF));
    length_enc.encode(length_model, length_symbol(t.length));
    next_enc.encode(next_model, t.next);
  }
  offset_enc.finish();
  length_enc.finish();
  next_enc.finish();

  Bytes out;
  out.reserve(kEntropyStreamsHeaderSize + offsets.size() + lengths.size() + nexts.size());
  out.push_back(static_cast<std::uint8_t>(config));
  put_le<std::uint64_t>(out, count);
  for (const Bytes* s : {&offsets, &lengths, &nexts}) put_le<std::uint64_t>(out, s->size());
  for (const Bytes* s : {&offsets, &lengths, &nexts}) out.insert(out.end(), s->begin(), s->end());
  return out;
}

std::uint64_t entropy_size(ByteSpan lz77_container) {
  return entropy_encode(lz77_container).size();
}

Bytes entropy_decode(ByteSpan coded) {
  ByteReader r(coded);
  const auto config = r.read<std::uint8_t>("entropy config");
  if (config > static_cast<std::uint8_t>(Config::wide)) {
    throw DecodeError("entropy streams: unknown config " + std::to_string(config));
  }
  const Geometry g = geometry(static_cast<Config>(config));
  const auto count = r.read<std::uint64_t>("triple count");
  // One triple per original byte at most.
  if (count > kMaxOriginalSize) {
    throw DecodeError("entropy streams: absurd triple count " + std::to_string(count));
  }
  std::uint64_t sizes[3];
  for (auto& s : sizes) s = r.read<std::uint64_t>("stream size");
  RangeDecoder offset_dec(r.take(sizes[0], "offsets stream"));
  RangeDecoder length_dec(r.take(sizes[1], "lengths stream"));
  RangeDecoder next_dec(r.take(sizes[2], "next-bytes stream"));
  if (r.remaining() != 0) throw DecodeError("entropy streams: trailing bytes");

  AdaptiveModel offset_high, offset_low, length_model, next_model;
  Bytes area;
  std::uint8_t packed[4];
  for (std::uint64_t i = 0; i < count; ++i) {
    Triple t{};
    t.offset = std::uint32_t{offset_dec.decode(offset_high)} << 8;
    t.offset |= offset_dec.decode(offset_low);
    t.length = symbol_length(length_dec.decode(length_model));
    t.next = next_dec.decode(next_model);
    if (!is_valid_triple(g, t)) {
      throw DecodeError("entropy streams: triple " + std::to_string(i) + " is invalid");
    }
    pack_triple(static_cast<Config>(config), t, packed);
    area.insert(area.end(), packed, packed + g.triple_bytes);
  }
  if (!offset_dec.at_end() || !length_dec.at_end() || !next_dec.at_end()) {
    throw DecodeError("entropy streams: trailing bytes after the last triple");
  }
  return area;
}

}  // namespace gcbench::lz77
