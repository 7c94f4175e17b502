#pragma once
// The FL payload (format.hpp) as code shared by the CPU and GPU implementations: where each
// part sits, writing the header, and parsing + validating a payload before any decoding.
//
// Encoder use: compute bits[] (one byte per frame), then
//   PayloadLayout l = make_layout(input.size(), width, frame_size, total_bits(bits, n, fs));
//   Bytes payload(l.size);  write_header(payload.data(), l, tail);
//   copy bits[] to payload + l.bits_offset and the packed words to payload + l.words_offset.
// Decoder use: ParsedPayload p = parse_payload(opened.payload, opened.header.original_size);
//   then unpack p.words with p.bits; every size in p has been checked against the payload.
#include <cstdint>
#include <span>

#include "codecs/fl/format.hpp"
#include "gcbench/bytes.hpp"
#include "gcbench/params.hpp"

namespace gcbench::fl {

// The frame_size axis both implementations declare.
inline AxisSpec frame_size_axis() {
  AxisSpec a;
  a.name = "frame_size";
  a.help = "elements per frame (one bit width per frame)";
  a.default_value = kDefaultFrameSize;
  a.min = kMinFrameSize;
  a.max = kMaxFrameSize;
  a.in_container = true;
  return a;
}

std::uint64_t frame_count(std::uint64_t element_count, std::uint32_t frame_size);

// Elements in frame `f` (the last frame may be short).
std::uint64_t frame_length(std::uint64_t f, std::uint64_t element_count, std::uint32_t frame_size);

// Sum of bits[f] * frame_length(f), the length of the packed bit stream; bits.size() must be
// frame_count(element_count, frame_size).
std::uint64_t total_bits(std::span<const std::uint8_t> bits, std::uint64_t element_count,
                         std::uint32_t frame_size);

// Sizes and byte offsets of every part of one payload.
struct PayloadLayout {
  std::uint32_t element_width = 1;
  std::uint32_t frame_size = 1;
  std::uint64_t element_count = 0;
  std::uint32_t tail_size = 0;
  std::uint64_t frame_count = 0;
  std::uint64_t total_bits = 0;
  std::uint64_t word_count = 0;  // ceil(total_bits / 32)
  std::uint64_t tail_offset = 0;
  std::uint64_t bits_offset = 0;
  std::uint64_t words_offset = 0;
  std::uint64_t size = 0;  // whole payload in bytes
};

// Layout of the payload for an input of `original_size` bytes whose frames need `total_bits`.
PayloadLayout make_layout(std::uint64_t original_size, std::uint32_t element_width,
                          std::uint32_t frame_size, std::uint64_t total_bits);

// Writes the fixed header and the tail at the start of a buffer of layout.size bytes; bits[]
// and words are the caller's to fill.
void write_header(std::uint8_t* payload, const PayloadLayout& layout, ByteSpan tail);

// Upper bound on the payload (every frame at 8 * element_width bits) and on the container.
std::uint64_t max_payload_size(std::uint64_t input_size, std::uint32_t element_width,
                               std::uint32_t frame_size);
std::uint64_t max_container_size(std::uint64_t input_size, std::uint32_t element_width,
                                 std::uint32_t frame_size);

struct ParsedPayload {
  PayloadLayout layout;
  ByteSpan tail;   // layout.tail_size bytes
  ByteSpan bits;   // layout.frame_count bytes, each in 1..8*element_width
  ByteSpan words;  // layout.word_count * 4 bytes, padding bits after total_bits are 0
};

// Checks everything short of the values themselves and throws DecodeError naming the first
// problem: element width and frame size in range, element count and tail size consistent with
// `original_size` (from the container header), bits[] present and in range, the word array
// exactly as long as bits[] implies, zero padding. O(frame_count); allocates nothing.
ParsedPayload parse_payload(ByteSpan payload, std::uint64_t original_size);

}  // namespace gcbench::fl
