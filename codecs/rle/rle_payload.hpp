#pragma once
// The RLE payload (format.hpp) as code shared by the CPU and GPU implementations: where each
// part sits, writing the header, and parsing + validating a payload before any decoding.
//
// Encoder use: find the R runs, then
//   PayloadLayout l = make_layout(input.size(), width, R);
//   Bytes payload(l.size);  write_header(payload.data(), l, tail);
//   write counts[] (u32 LE) at payload + l.counts_offset, values[] at payload + l.values_offset.
// Decoder use: ParsedPayload p = parse_payload(opened.payload, opened.header.original_size);
//   the sizes are then consistent; the decoder still has to check every count >= 1 and
//   sum(counts) == element_count (CPU: while scanning counts; GPU: after its device scan).
#include <cstdint>

#include "gcbench/bytes.hpp"

namespace gcbench::rle {

// Sizes and byte offsets of every part of one payload.
struct PayloadLayout {
  std::uint32_t element_width = 1;
  std::uint64_t element_count = 0;
  std::uint32_t tail_size = 0;
  std::uint64_t run_count = 0;
  std::uint64_t tail_offset = 0;
  std::uint64_t counts_offset = 0;
  std::uint64_t values_offset = 0;
  std::uint64_t size = 0;  // whole payload in bytes
};

// Layout of the payload for an input of `original_size` bytes that has `run_count` runs.
PayloadLayout make_layout(std::uint64_t original_size, std::uint32_t element_width,
                          std::uint64_t run_count);

// Writes everything before counts[] (header, tail, run_count) into a buffer of layout.size
// bytes; counts[] and values[] are the caller's to fill.
void write_header(std::uint8_t* payload, const PayloadLayout& layout, ByteSpan tail);

// Upper bound (one run per element) on the payload and on the container.
std::uint64_t max_payload_size(std::uint64_t input_size, std::uint32_t element_width);
std::uint64_t max_container_size(std::uint64_t input_size, std::uint32_t element_width);

struct ParsedPayload {
  PayloadLayout layout;
  ByteSpan tail;    // layout.tail_size bytes
  ByteSpan counts;  // layout.run_count u32 little-endian, not yet checked
  ByteSpan values;  // layout.run_count elements of layout.element_width bytes
};

// Checks the header against the payload and `original_size` (from the container header) and
// throws DecodeError naming the first problem: element width, element count and tail size,
// run_count (at most element_count, 0 exactly when element_count is 0, and the payload exactly
// long enough for its counts and values). O(1); allocates nothing.
ParsedPayload parse_payload(ByteSpan payload, std::uint64_t original_size);

}  // namespace gcbench::rle
