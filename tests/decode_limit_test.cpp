// The decoder memory policy (container.hpp): decompression bombs of every codec shape are
// rejected with "exceeds the decode limit" before the output is allocated, the resident set
// stays bounded, legitimate highly compressible inputs still decode, and allocation failure
// inside a decoder is a DecodeError.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstdint>
#include <new>
#include <string>
#include <vector>

#include "codecs/fl/fl.hpp"
#include "codecs/lz77/lz77.hpp"
#include "codecs/rle/format.hpp"
#include "codecs/rle/rle.hpp"
#include "gcbench/container.hpp"
#include "gcbench/errors.hpp"
#include "gcbench/registry.hpp"

namespace gcbench {
namespace {

// Peak resident set of this process in bytes.
std::uint64_t peak_rss() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<std::uint64_t>(u.ru_maxrss) * 1024;
}

// Runs `decode`, expects a DecodeError naming the decode limit, and checks that the peak RSS
// grew by less than 32 MiB meanwhile (the bombs below claim gigabytes).
template <typename F>
void expect_rejected_cheaply(F&& decode) {
  const std::uint64_t before = peak_rss();
  try {
    decode();
    ADD_FAILURE() << "the bomb decoded";
  } catch (const DecodeError& e) {
    EXPECT_NE(std::string(e.what()).find("exceeds the decode limit"), std::string::npos)
        << e.what();
  }
  EXPECT_LT(peak_rss() - before, std::uint64_t{32} << 20);
}

void put_u32(Bytes& b, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
void put_u64(Bytes& b, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

// An RLE container (element width 1) of `runs` runs of `count` elements each: consistent
// counts behind a valid header checksum, as an attacker would make it.
Bytes rle_bomb(std::uint64_t runs, std::uint32_t count) {
  Bytes payload;
  payload.push_back(1);  // element_width
  put_u64(payload, runs * count);
  payload.push_back(0);  // tail_size
  put_u64(payload, runs);
  for (std::uint64_t r = 0; r < runs; ++r) put_u32(payload, count);
  for (std::uint64_t r = 0; r < runs; ++r) payload.push_back(static_cast<std::uint8_t>(r));
  return make_container({rle::kContainerFormat.id, runs * count, 0, 0}, payload);
}

TEST(DecodeLimit, DefaultPolicyIsDocumented) {
  const DecodeLimit d = decode_limit();
  EXPECT_EQ(d.absolute, kMaxOriginalSize);
  EXPECT_EQ(d.floor, std::uint64_t{64} << 20);
  EXPECT_EQ(d.ratio, 4096u);
  EXPECT_EQ(decode_limit_for(55), std::uint64_t{64} << 20);                     // the floor
  EXPECT_EQ(decode_limit_for(std::uint64_t{1} << 20), std::uint64_t{4} << 30);  // 4096 x
  EXPECT_EQ(decode_limit_for(std::uint64_t{1} << 40), kMaxOriginalSize);        // the cap
  EXPECT_EQ(decode_limit_for(~std::uint64_t{0}), kMaxOriginalSize);             // no overflow
}

TEST(DecodeLimit, ScopedLimitIsRestored) {
  {
    ScopedDecodeLimit scoped({1000, 10, 2});
    EXPECT_EQ(decode_limit_for(100), 200u);
    EXPECT_EQ(decode_limit_for(1), 10u);
    EXPECT_EQ(decode_limit_for(10000), 1000u);
    EXPECT_THROW(check_decode_limit("x", "size", 201, 100), DecodeError);
    EXPECT_NO_THROW(check_decode_limit("x", "size", 200, 100));
  }
  EXPECT_EQ(decode_limit(), DecodeLimit{});
}

TEST(DecodeLimit, RleHugeCountsAreRejectedBeforeAllocating) {
  // One count of 2^32-1: a 55-byte container claiming 4 GiB (measured: 1-4 GiB of RSS before).
  Bytes one = rle_bomb(1, 0xFFFFFFFFu);
  EXPECT_LT(one.size(), 64u);
  expect_rejected_cheaply([&] { rle::make_cpu_codec()->decompress(one, {}); });
  // 15 maximal counts: ~60 GiB behind 130 bytes (was std::bad_alloc), with threads.
  Bytes many = rle_bomb(15, 0xFFFFFFFFu);
  expect_rejected_cheaply([&] { rle::make_cpu_codec()->decompress(many, {{"threads", 4}}); });
}

TEST(DecodeLimit, RleBombUnderARaisedLimitFailsOnlyAtTheChecksum) {
  // Within the limit the decoder works as before: 128 MiB of runs with a wrong CRC.
  ScopedDecodeLimit scoped({kMaxOriginalSize, std::uint64_t{256} << 20, 4096});
  Bytes c = rle_bomb(1, 128u << 20);
  EXPECT_THROW(rle::make_cpu_codec()->decompress(c, {}), DecodeError);
}

TEST(DecodeLimit, RleLegitimateRepetitiveInputStillDecodes) {
  // 16 MiB of one byte compresses to a ~50-byte container (ratio > 300000): under the floor.
  const Bytes zeros(std::size_t{16} << 20, 7);
  const CodecPtr codec = rle::make_cpu_codec();
  const Bytes c = codec->compress(zeros, {});
  EXPECT_LT(c.size(), 64u);
  EXPECT_EQ(codec->decompress(c, {}), zeros);
  // Above the floor the caller raises the limit.
  ScopedDecodeLimit scoped({kMaxOriginalSize, 1 << 20, 4096});
  expect_rejected_cheaply([&] { codec->decompress(c, {}); });
}

// FL's maximum legal expansion: one bit per 4-byte element (32x); a limit of 16x the container
// rejects it before anything is allocated, the default decodes it.
TEST(DecodeLimit, FlMaximumLegalExpansion) {
  const Bytes zeros(std::size_t{8} << 20, 0);
  const CodecPtr codec = fl::make_cpu_codec();
  const Params p{{"element_width", 4}, {"frame_size", 1 << 24}};
  const Bytes c = codec->compress(zeros, p);
  EXPECT_GE(zeros.size() / c.size(), 31u);  // 32x less the header
  EXPECT_EQ(codec->decompress(c, p), zeros);
  ScopedDecodeLimit scoped({kMaxOriginalSize, 0, 16});
  expect_rejected_cheaply([&] { codec->decompress(c, p); });
}

// LZ77's maximum legal expansion: every triple a longest match (wide config: ~50x).
TEST(DecodeLimit, Lz77MaximumLegalExpansion) {
  const Bytes zeros(std::size_t{8} << 20, 0);
  const CodecPtr codec = lz77::make_cpu_codec();
  for (std::int64_t config : {0, 1}) {
    const Params p{{"config", config}};
    const Bytes c = codec->compress(zeros, p);
    EXPECT_EQ(codec->decompress(c, p), zeros);
    ScopedDecodeLimit scoped({kMaxOriginalSize, 0, 2});
    expect_rejected_cheaply([&] { codec->decompress(c, p); });
    expect_rejected_cheaply([&] {
      codec->decompress(c, {{"config", config}, {"decode_mode", 1}});
    });
  }
}

TEST(DecodeLimit, AbsoluteCapAppliesToEveryCodec) {
  ScopedDecodeLimit scoped({1 << 20, 0, 4096});
  const Bytes input(std::size_t{2} << 20, 1);
  for (const CodecPtr& codec :
       {fl::make_cpu_codec(), rle::make_cpu_codec(), lz77::make_cpu_codec()}) {
    const Bytes c = codec->compress(input, {});
    expect_rejected_cheaply([&] { codec->decompress(c, {}); });
  }
}

// zlib and the CPU peers (where built) hold their output to the same limit: zeros compress far
// beyond the ratio set here.
TEST(DecodeLimit, BaselinesAndPeersHoldTheirOutputToTheLimit) {
  const Bytes zeros(std::size_t{4} << 20, 0);
  std::size_t tried = 0;
  for (const char* name : {"zlib", "libdeflate", "lz4", "zstd"}) {
    const Codec* codec = find_codec(name, Device::cpu);
    if (codec == nullptr) continue;
    SCOPED_TRACE(name);
    const Bytes c = codec->compress(zeros, {});
    ScopedDecodeLimit scoped({kMaxOriginalSize, 0, 2});
    expect_rejected_cheaply([&] { codec->decompress(c, {}); });
    ++tried;
  }
  EXPECT_GE(tried, 1u);  // zlib is always built
}

TEST(DecodeLimit, AllocationFailureBecomesDecodeError) {
  try {
    decode_guarded("rle", []() -> Bytes { throw std::bad_alloc(); });
    FAIL() << "no exception";
  } catch (const DecodeError& e) {
    EXPECT_NE(std::string(e.what()).find("allocation failed"), std::string::npos);
  }
}

}  // namespace
}  // namespace gcbench
