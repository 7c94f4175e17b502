#include "codecs/fl/fl_payload.hpp"

#include <cstring>
#include <string>

#include "codecs/fl/format.hpp"
#include "gcbench/container.hpp"

namespace gcbench::fl {

std::uint64_t frame_count(std::uint64_t element_count, std::uint32_t frame_size) {
  return element_count / frame_size + (element_count % frame_size != 0 ? 1 : 0);
}

std::uint64_t frame_length(std::uint64_t f, std::uint64_t element_count, std::uint32_t frame_size) {
  std::uint64_t start = f * frame_size;
  return element_count - start < frame_size ? element_count - start : frame_size;
}

std::uint64_t total_bits(std::span<const std::uint8_t> bits, std::uint64_t element_count,
                         std::uint32_t frame_size) {
  // All frames but the last are full, so one multiply covers them.
  if (bits.empty()) return 0;
  std::uint64_t full_sum = 0;
  for (std::size_t f = 0; f + 1 < bits.size(); ++f) full_sum += bits[f];
  return full_sum * frame_size +
         std::uint64_t{bits.back()} * frame_length(bits.size() - 1, element_count, frame_size);
}

PayloadLayout make_layout(std::uint64_t original_size, std::uint32_t element_width,
                          std::uint32_t frame_size, std::uint64_t total_bits) {
  PayloadLayout l;
  l.element_width = element_width;
  l.frame_size = frame_size;
  l.element_count = original_size / element_width;
  l.tail_size = static_cast<std::uint32_t>(original_size % element_width);
  l.frame_count = frame_count(l.element_count, frame_size);
  l.total_bits = total_bits;
  l.word_count = total_bits / 32 + (total_bits % 32 != 0 ? 1 : 0);
  l.tail_offset = kFixedHeaderSize;
  l.bits_offset = l.tail_offset + l.tail_size;
  l.words_offset = l.bits_offset + l.frame_count;
  l.size = l.words_offset + 4 * l.word_count;
  return l;
}

void write_header(std::uint8_t* payload, const PayloadLayout& layout, ByteSpan tail) {
  payload[0] = static_cast<std::uint8_t>(layout.element_width);
  store_le<std::uint32_t>(payload + 1, layout.frame_size);
  store_le<std::uint64_t>(payload + 5, layout.element_count);
  payload[13] = static_cast<std::uint8_t>(layout.tail_size);
  if (!tail.empty()) std::memcpy(payload + layout.tail_offset, tail.data(), tail.size());
}

std::uint64_t max_payload_size(std::uint64_t input_size, std::uint32_t element_width,
                               std::uint32_t frame_size) {
  std::uint64_t n = input_size / element_width;
  return make_layout(input_size, element_width, frame_size, n * 8 * element_width).size;
}

std::uint64_t max_container_size(std::uint64_t input_size, std::uint32_t element_width,
                                 std::uint32_t frame_size) {
  return kContainerHeaderSize + max_payload_size(input_size, element_width, frame_size);
}

ParsedPayload parse_payload(ByteSpan payload, std::uint64_t original_size) {
  ByteReader r(payload);
  auto width = r.read<std::uint8_t>("FL element width");
  if (width != 1 && width != 2 && width != 4) {
    throw DecodeError("FL: element width " + std::to_string(width) + " is not 1, 2 or 4");
  }
  auto frame_size = r.read<std::uint32_t>("FL frame size");
  if (frame_size < kMinFrameSize || frame_size > kMaxFrameSize) {
    throw DecodeError("FL: frame size " + std::to_string(frame_size) + " is out of range");
  }
  auto element_count = r.read<std::uint64_t>("FL element count");
  auto tail_size = r.read<std::uint8_t>("FL tail size");
  if (element_count != original_size / width || tail_size != original_size % width) {
    throw DecodeError("FL: " + std::to_string(element_count) + " elements of width " +
                      std::to_string(width) + " and a " + std::to_string(tail_size) +
                      "-byte tail do not make the original size " + std::to_string(original_size));
  }
  ParsedPayload p;
  p.tail = r.take(tail_size, "FL tail");
  p.bits = r.take(frame_count(element_count, frame_size), "FL bits[]");
  for (std::uint8_t b : p.bits) {
    if (b < 1 || b > 8u * width) {
      throw DecodeError("FL: frame bit width " + std::to_string(b) + " is outside 1.." +
                        std::to_string(8 * width));
    }
  }
  p.layout =
      make_layout(original_size, width, frame_size, total_bits(p.bits, element_count, frame_size));
  if (r.remaining() != 4 * p.layout.word_count) {
    throw DecodeError("FL: bits[] imply " + std::to_string(4 * p.layout.word_count) +
                      " bytes of packed words, payload has " + std::to_string(r.remaining()));
  }
  p.words = r.take(r.remaining(), "FL words");
  if (std::uint32_t used = p.layout.total_bits % 32; used != 0) {
    auto last = load_le<std::uint32_t>(p.words.data() + p.words.size() - 4);
    if ((last >> used) != 0) throw DecodeError("FL: padding bits after the last value are set");
  }
  return p;
}

}  // namespace gcbench::fl
