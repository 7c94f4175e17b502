// RLE CPU reference: round trips, the pinned payload format, run splitting and forged
// containers (what every registered codec shares is tests/registry_codecs_test.cpp).
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "codecs/rle/format.hpp"
#include "codecs/rle/rle.hpp"
#include "codecs/rle/rle_encode.hpp"
#include "codecs/rle/rle_payload.hpp"
#include "gcbench/container.hpp"
#include "support/codec_checks.hpp"
#include "support/inputs.hpp"

namespace gcbench {
namespace {

const CodecPtr& codec() {
  static const CodecPtr c = rle::make_cpu_codec();
  return c;
}

Params params(std::int64_t width, std::int64_t threads = 0) {
  return {{"element_width", width}, {"threads", threads}};
}

using testing::byte_runs;

Bytes payload_of(const Bytes& container) {
  ByteSpan p = open_container(container, rle::kContainerFormat).payload;
  return {p.begin(), p.end()};
}

// The spans of the result point into `container`.
rle::ParsedPayload parse(const Bytes& container) {
  OpenedContainer c = open_container(container, rle::kContainerFormat);
  return rle::parse_payload(c.payload, c.header.original_size);
}

std::uint32_t count_at(const rle::ParsedPayload& p, std::uint64_t r) {
  return load_le<std::uint32_t>(p.counts.data() + 4 * r);
}

TEST(RleCpu, KeepsARunLongerThan2To16InOneCount) {
  for (std::int64_t width : {1, 2, 4}) {
    Bytes data(70001 * width, 0xFF);
    Bytes packed = codec()->compress(data, params(width));
    rle::ParsedPayload p = parse(packed);
    ASSERT_EQ(p.layout.run_count, 1u);
    EXPECT_EQ(count_at(p, 0), 70001u);
  }
}

// The seed's example: [5,5,8,8,8,7,7,7,7,3,4,4,4] -> counts [2,3,4,1,3], values [5,8,7,3,4].
TEST(RleCpu, GoldenPayloadOfTheSeedExample) {
  Bytes data = {5, 5, 8, 8, 8, 7, 7, 7, 7, 3, 4, 4, 4};
  Bytes expected = {
      1,                                                            // element width
      13, 0, 0, 0, 0, 0, 0, 0,                                      // element count
      0,                                                            // tail size
      5,  0, 0, 0, 0, 0, 0, 0,                                      // run count
      2,  0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, 3, 0, 0, 0,  // counts[]
      5,  8, 7, 3, 4,                                               // values[]
  };
  EXPECT_EQ(payload_of(codec()->compress(data, params(1))), expected);
}

// Width 2 pins the byte order of values and the verbatim tail.
TEST(RleCpu, GoldenPayloadWithTail) {
  Bytes data = {0x01, 0x02, 0x01, 0x02, 0x03, 0x00, 0xEE};  // 0x0201 x2, 0x0003, tail 0xEE
  Bytes expected = {
      2,                                   // element width
      3,    0,    0,    0,    0, 0, 0, 0,  // element count
      1,    0xEE,                          // tail
      2,    0,    0,    0,    0, 0, 0, 0,  // run count
      2,    0,    0,    0,    1, 0, 0, 0,  // counts[]
      0x01, 0x02, 0x03, 0x00,              // values[]
  };
  EXPECT_EQ(payload_of(codec()->compress(data, params(2))), expected);
}

TEST(RleCpu, SplitsRunsAtTheCountLimit) {
  Bytes data(5, 7);
  Bytes expected = {
      1,                                   // element width
      5, 0, 0, 0, 0, 0, 0, 0,              // element count
      0,                                   // tail size
      3, 0, 0, 0, 0, 0, 0, 0,              // run count
      2, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0,  // counts[]: 2 + 2 + 1
      7, 7, 7,                             // values[]
  };
  for (int threads : {1, 2, 3, 8}) {
    EXPECT_EQ(rle::encode_payload(data, 1, threads, 2), expected) << threads << " threads";
  }
}

// With a small count limit, pieces cross segment boundaries in every way; the result must
// match the sequential encoder and decode through the codec.
TEST(RleCpu, SplitRunsAreIndependentOfThreadCount) {
  std::vector<Bytes> data = {Bytes(1000, 1), byte_runs(5000, 60, 11), byte_runs(997, 9, 12)};
  for (const Bytes& d : data) {
    for (std::uint32_t width : {1u, 2u, 4u}) {
      for (std::uint64_t max_count : {1u, 2u, 5u, 7u, 64u}) {
        SCOPED_TRACE("size " + std::to_string(d.size()) + " width " + std::to_string(width) +
                     " max " + std::to_string(max_count));
        Bytes sequential = rle::encode_payload(d, width, 1, max_count);
        for (int threads : {2, 3, 8}) {
          EXPECT_EQ(rle::encode_payload(d, width, threads, max_count), sequential)
              << threads << " threads";
        }
        Bytes container = wrap_container(rle::kContainerFormat, d, sequential);
        rle::ParsedPayload p = parse(container);
        for (std::uint64_t r = 0; r < p.layout.run_count; ++r) {
          ASSERT_LE(count_at(p, r), max_count);
        }
        EXPECT_EQ(codec()->decompress(container, {{"threads", 3}}), d);
      }
    }
  }
}

// A container around a hand-made payload, with a valid header checksum.
Bytes forge(std::uint64_t original_size, const Bytes& payload, std::uint32_t original_crc = 0) {
  return make_container({rle::kContainerFormat.id, original_size, payload.size(), original_crc},
                        payload);
}

// Width-1 payload with the given counts and values 1, 2, 3, ... (never equal neighbours).
Bytes rle_payload(std::uint64_t count, std::uint64_t runs, const std::vector<std::uint32_t>& counts,
                  std::uint8_t width = 1) {
  Bytes p;
  put_le<std::uint8_t>(p, width);
  put_le<std::uint64_t>(p, count);
  put_le<std::uint8_t>(p, 0);  // tail size
  put_le<std::uint64_t>(p, runs);
  for (std::uint32_t c : counts) put_le<std::uint32_t>(p, c);
  for (std::size_t r = 0; r < counts.size(); ++r) {
    for (std::uint8_t i = 0; i < width; ++i) p.push_back(static_cast<std::uint8_t>(r + 1));
  }
  return p;
}

TEST(RleCpu, ForgedContainerOfAValidPayloadDecodes) {
  // Guards the tests below: forge() itself makes acceptable containers.
  Bytes data = {1, 1, 2, 3, 3, 3};
  EXPECT_EQ(codec()->decompress(forge(6, rle_payload(6, 3, {2, 1, 3}), crc32_of(data)), {}), data);
}

TEST(RleCpu, RejectsForgedHeadersWithoutAllocating) {
  constexpr std::uint64_t kHuge = std::uint64_t{60} << 30;  // under kMaxOriginalSize
  // 15 counts of 2^32-1 fit under kMaxOriginalSize; 16 of them overshoot it.
  constexpr std::uint64_t kFifteenMax = 15 * rle::kMaxRunCount;
  const std::vector<std::uint32_t> sixteen_max(16, 0xFFFFFFFFu);
  const std::vector<std::pair<std::string, Bytes>> cases = {
      {"60 GiB, 2^40 runs, no data", forge(kHuge, rle_payload(kHuge, std::uint64_t{1} << 40, {}))},
      {"60 GiB, run count 2^62", forge(kHuge, rle_payload(kHuge, std::uint64_t{1} << 62, {}))},
      {"60 GiB, counts sum past it", forge(kFifteenMax, rle_payload(kFifteenMax, 16, sixteen_max))},
      {"60 GiB, counts short of it", forge(kHuge, rle_payload(kHuge, 2, {0xFFFFFFFFu, 5}))},
      {"element count 2^60", forge(6, rle_payload(std::uint64_t{1} << 60, 3, {2, 1, 3}))},
      {"element count 2^64-1", forge(6, rle_payload(~std::uint64_t{0}, 3, {2, 1, 3}))},
      {"element width 3", forge(6, rle_payload(2, 1, {2}, 3))},
      {"run count past element count", forge(2, rle_payload(2, 3, {1, 1, 0}))},
      {"no runs for 6 elements", forge(6, rle_payload(6, 0, {}))},
      {"a count of 0", forge(6, rle_payload(6, 3, {3, 0, 3}))},
      {"counts sum to less", forge(6, rle_payload(6, 3, {2, 1, 2}))},
      {"counts sum to more", forge(6, rle_payload(6, 3, {2, 1, 4}))},
      {"counts wrap around 2^32", forge(6, rle_payload(6, 2, {0xFFFFFFFFu, 7}))},
      {"run count one short", forge(6, rle_payload(6, 2, {2, 1, 3}))},
  };
  testing::expect_all_rejected(*codec(), cases);
}

}  // namespace
}  // namespace gcbench
