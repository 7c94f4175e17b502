#include "codecs/rle/rle_payload.hpp"

#include <cstring>
#include <string>

#include "gcbench/container.hpp"

namespace gcbench::rle {
namespace {

// width (1) + element_count (8) + tail_size (1); then the tail, then run_count (8).
constexpr std::uint64_t kFixedHeaderSize = 1 + 8 + 1;

}  // namespace

PayloadLayout make_layout(std::uint64_t original_size, std::uint32_t element_width,
                          std::uint64_t run_count) {
  PayloadLayout l;
  l.element_width = element_width;
  l.element_count = original_size / element_width;
  l.tail_size = static_cast<std::uint32_t>(original_size % element_width);
  l.run_count = run_count;
  l.tail_offset = kFixedHeaderSize;
  l.counts_offset = l.tail_offset + l.tail_size + 8;
  l.values_offset = l.counts_offset + 4 * run_count;
  l.size = l.values_offset + std::uint64_t{element_width} * run_count;
  return l;
}

void write_header(std::uint8_t* payload, const PayloadLayout& layout, ByteSpan tail) {
  payload[0] = static_cast<std::uint8_t>(layout.element_width);
  store_le<std::uint64_t>(payload + 1, layout.element_count);
  payload[9] = static_cast<std::uint8_t>(layout.tail_size);
  if (!tail.empty()) std::memcpy(payload + layout.tail_offset, tail.data(), tail.size());
  store_le<std::uint64_t>(payload + layout.counts_offset - 8, layout.run_count);
}

std::uint64_t max_payload_size(std::uint64_t input_size, std::uint32_t element_width) {
  return make_layout(input_size, element_width, input_size / element_width).size;
}

std::uint64_t max_container_size(std::uint64_t input_size, std::uint32_t element_width) {
  return kContainerHeaderSize + max_payload_size(input_size, element_width);
}

ParsedPayload parse_payload(ByteSpan payload, std::uint64_t original_size) {
  ByteReader r(payload);
  auto width = r.read<std::uint8_t>("RLE element width");
  if (width != 1 && width != 2 && width != 4) {
    throw DecodeError("RLE: element width " + std::to_string(width) + " is not 1, 2 or 4");
  }
  auto element_count = r.read<std::uint64_t>("RLE element count");
  auto tail_size = r.read<std::uint8_t>("RLE tail size");
  if (element_count != original_size / width || tail_size != original_size % width) {
    throw DecodeError("RLE: " + std::to_string(element_count) + " elements of width " +
                      std::to_string(width) + " and a " + std::to_string(tail_size) +
                      "-byte tail do not make the original size " + std::to_string(original_size));
  }
  ParsedPayload p;
  p.tail = r.take(tail_size, "RLE tail");
  auto run_count = r.read<std::uint64_t>("RLE run count");
  if (run_count > element_count || (run_count == 0) != (element_count == 0)) {
    throw DecodeError("RLE: " + std::to_string(run_count) + " runs cannot hold " +
                      std::to_string(element_count) + " elements");
  }
  // run_count <= element_count <= 64 GiB, so this product cannot overflow.
  std::uint64_t run_bytes = run_count * (4 + width);
  if (r.remaining() != run_bytes) {
    throw DecodeError("RLE: " + std::to_string(run_count) + " runs need " +
                      std::to_string(run_bytes) + " bytes, payload has " +
                      std::to_string(r.remaining()));
  }
  p.layout = make_layout(original_size, width, run_count);
  p.counts = r.take(4 * run_count, "RLE counts");
  p.values = r.take(std::uint64_t{width} * run_count, "RLE values");
  return p;
}

}  // namespace gcbench::rle
