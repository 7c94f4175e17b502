// FL CPU reference: round trips at every frame size, the pinned payload format and forged
// containers (what every registered codec shares is tests/registry_codecs_test.cpp).
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "codecs/fl/fl.hpp"
#include "codecs/fl/fl_payload.hpp"
#include "codecs/fl/format.hpp"
#include "gcbench/container.hpp"
#include "support/codec_checks.hpp"
#include "support/inputs.hpp"

namespace gcbench {
namespace {

const CodecPtr& codec() {
  static const CodecPtr c = fl::make_cpu_codec();
  return c;
}

Params params(std::int64_t width, std::int64_t frame_size, std::int64_t threads = 0) {
  return {{"element_width", width}, {"frame_size", frame_size}, {"threads", threads}};
}

using testing::mixed_widths;

TEST(FlCpu, RoundTripsAtEveryWidthAndFrameSize) {
  for (std::int64_t width : {1, 2, 4}) {
    for (std::int64_t frame_size : {1, 3, 32, 1000, 1024}) {
      for (const auto& [name, data] : testing::edge_inputs()) {
        SCOPED_TRACE(name + " width " + std::to_string(width) + " frame " +
                     std::to_string(frame_size));
        testing::expect_round_trip(*codec(), data, params(width, frame_size));
      }
    }
  }
}

TEST(FlCpu, RoundTripsAtTheLargestFrameSize) {
  Bytes data = mixed_widths(50000, 5);
  testing::expect_round_trip(*codec(), data, params(4, fl::kMaxFrameSize));
}

TEST(FlCpu, MaxBitValuesTakeFullWidth) {
  for (std::int64_t width : {1, 2, 4}) {
    Bytes data(4 * 100, 0xFF);
    Bytes packed = codec()->compress(data, params(width, 10));
    fl::ParsedPayload p =
        fl::parse_payload(open_container(packed, fl::kContainerFormat).payload, 400);
    for (std::uint8_t b : p.bits) EXPECT_EQ(b, 8 * width);
    EXPECT_EQ(p.words.size(), data.size());  // no room saved, none wasted
  }
}

// The seed's example: [0, 2, 1, 5, 5, 7, 10, 1, 13] in frames of 3 -> bits [2, 3, 4], 27 bits.
TEST(FlCpu, GoldenPayloadOfTheSeedExample) {
  Bytes data = {0, 2, 1, 5, 5, 7, 10, 1, 13};
  Bytes packed = codec()->compress(data, params(1, 3));
  Bytes expected = {
      1,  // element width
      3,
      0,
      0,
      0,  // frame size
      9,
      0,
      0,
      0,
      0,
      0,
      0,
      0,  // element count
      0,  // tail size
      2,
      3,
      4,  // bits[]
      // 0 | 2<<2 | 1<<4 | 5<<6 | 5<<9 | 7<<12 | 10<<15 | 1<<19 | 13<<23 = 0x068D7B58
      0x58,
      0x7B,
      0x8D,
      0x06,
  };
  ByteSpan payload = open_container(packed, fl::kContainerFormat).payload;
  EXPECT_EQ(Bytes(payload.begin(), payload.end()), expected);
}

// Width 2 pins the byte order of elements and the verbatim tail.
TEST(FlCpu, GoldenPayloadWithTail) {
  Bytes data = {0x34, 0x12, 0xFF, 0x00, 0xAB};  // elements 0x1234, 0x00FF, tail 0xAB
  Bytes packed = codec()->compress(data, params(2, 2));
  Bytes expected = {
      2,                                   // element width
      2,    0,    0,    0,                 // frame size
      2,    0,    0,    0,    0, 0, 0, 0,  // element count
      1,    0xAB,                          // tail
      13,                                  // bits[0]: 0x1234 | 0x00FF needs 13 bits
      0x34, 0xF2, 0x1F, 0x00,              // 0x1234 | 0xFF << 13
  };
  ByteSpan payload = open_container(packed, fl::kContainerFormat).payload;
  EXPECT_EQ(Bytes(payload.begin(), payload.end()), expected);
}

// A container around a hand-made payload, with a valid header checksum.
Bytes forge(std::uint64_t original_size, const Bytes& payload, std::uint32_t original_crc = 0) {
  return make_container({fl::kContainerFormat.id, original_size, payload.size(), original_crc},
                        payload);
}

Bytes fl_payload(std::uint8_t width, std::uint32_t frame_size, std::uint64_t count,
                 const Bytes& rest) {
  Bytes p;
  put_le<std::uint8_t>(p, width);
  put_le<std::uint32_t>(p, frame_size);
  put_le<std::uint64_t>(p, count);
  put_le<std::uint8_t>(p, 0);  // tail size
  p.insert(p.end(), rest.begin(), rest.end());
  return p;
}

TEST(FlCpu, ForgedContainerOfAValidPayloadDecodes) {
  // Guards the tests below: forge() itself makes acceptable containers.
  Bytes data = {0, 2, 1, 5, 5, 7, 10, 1, 13};
  Bytes payload = fl_payload(1, 3, 9, {2, 3, 4, 0x58, 0x7B, 0x8D, 0x06});
  EXPECT_EQ(codec()->decompress(forge(9, payload, crc32_of(data)), {}), data);
}

TEST(FlCpu, RejectsForgedHeadersWithoutAllocating) {
  constexpr std::uint64_t kHuge = std::uint64_t{60} << 30;  // under kMaxOriginalSize
  const std::vector<std::pair<std::string, Bytes>> cases = {
      {"60 GiB of frames, no bits[]", forge(kHuge, fl_payload(1, 1, kHuge, {}))},
      {"60 GiB, bits[] but no words",
       forge(kHuge, fl_payload(4, fl::kMaxFrameSize, kHuge / 4, Bytes(960, 32)))},
      {"element count 2^60", forge(9, fl_payload(1, 3, std::uint64_t{1} << 60, {1, 1, 1, 0}))},
      {"element count 2^64-1", forge(9, fl_payload(1, 3, ~std::uint64_t{0}, {1, 1, 1, 0}))},
      {"element count too small", forge(9, fl_payload(1, 3, 8, {1, 1, 1, 0}))},
      {"frame size 0", forge(9, fl_payload(1, 0, 9, {1, 1, 1, 0}))},
      {"frame size 2^24 + 1", forge(9, fl_payload(1, fl::kMaxFrameSize + 1, 9, {1, 0, 0, 0}))},
      {"element width 3", forge(9, fl_payload(3, 3, 3, {1, 0, 0, 0}))},
      {"bits 0", forge(9, fl_payload(1, 3, 9, {0, 3, 4, 0x58, 0x7B, 0x8D, 0x06}))},
      {"bits 9 at width 1", forge(9, fl_payload(1, 3, 9, {9, 3, 4, 0x58, 0x7B, 0x8D, 0x06}))},
      {"extra word", forge(9, fl_payload(1, 3, 9, {2, 3, 4, 0x58, 0x7B, 0x8D, 0x06, 0, 0, 0, 0}))},
      {"missing word byte", forge(9, fl_payload(1, 3, 9, {2, 3, 4, 0x58, 0x7B, 0x8D}))},
      {"padding bit set", forge(9, fl_payload(1, 3, 9, {2, 3, 4, 0x58, 0x7B, 0x8D, 0x86}))},
  };
  testing::expect_all_rejected(*codec(), cases);
}

}  // namespace
}  // namespace gcbench
