// The adaptive order-0 range coder and the thesis-style LZ77 entropy size.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "codecs/entropy/range_coder.hpp"
#include "codecs/lz77/entropy_streams.hpp"
#include "codecs/lz77/format.hpp"
#include "codecs/lz77/lz77.hpp"
#include "codecs/lz77/payload.hpp"
#include "gcbench/container.hpp"
#include "gcbench/errors.hpp"
#include "support/codec_checks.hpp"
#include "support/inputs.hpp"

namespace gcbench::entropy {
namespace {

using testing::random_bytes;

// Geometric-like: symbol k with probability about 2^-(k+1).
Bytes skewed_bytes(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::geometric_distribution<int> dist(0.5);
  Bytes b(n);
  for (auto& x : b) x = static_cast<std::uint8_t>(std::min(dist(rng), 255));
  return b;
}

// Empirical order-0 entropy in bytes: the floor any order-0 coder is measured against.
double order0_entropy_bytes(ByteSpan data) {
  std::array<double, 256> count{};
  for (auto b : data) count[b] += 1;
  double bits = 0;
  for (double c : count) {
    if (c > 0) bits -= c * std::log2(c / static_cast<double>(data.size()));
  }
  return bits / 8;
}

Bytes first_corpus_file(const std::string& name) {
  for (const auto& f : gcbench::testing::corpus_files("calgary")) {
    if (f.entry.name == name) return corpora::read_file(f.path);
  }
  return {};
}

void expect_range_round_trip(const Bytes& data, const std::string& what) {
  const Bytes coded = range_encode(data);
  EXPECT_EQ(range_decode(coded, data.size()), data) << what;
}

TEST(RangeCoder, RoundTrips) {
  expect_range_round_trip({}, "empty");
  expect_range_round_trip({0}, "one zero");
  expect_range_round_trip({255}, "one 255");
  expect_range_round_trip(Bytes(100000, 7), "all equal");
  expect_range_round_trip(skewed_bytes(200000, 1), "skewed");
  expect_range_round_trip(random_bytes(200000, 2), "random");
  Bytes ramp(70000);
  for (std::size_t i = 0; i < ramp.size(); ++i) ramp[i] = static_cast<std::uint8_t>(i * 7 / 5);
  expect_range_round_trip(ramp, "ramp");
  const Bytes book = first_corpus_file("paper1");
  if (!book.empty()) expect_range_round_trip(book, "calgary/paper1");
}

TEST(RangeCoder, ApproachesOrder0Entropy) {
  const Bytes skewed = skewed_bytes(200000, 3);
  const double floor = order0_entropy_bytes(skewed);
  const double coded = static_cast<double>(range_encode(skewed).size());
  EXPECT_LT(coded * 8 / static_cast<double>(skewed.size()), 8.0);
  EXPECT_LT(coded, floor * 1.02 + 64) << "order-0 floor " << floor;
  EXPECT_GT(coded, floor * 0.98) << "coded below the order-0 entropy: the test input is wrong";

  const Bytes random = random_bytes(200000, 4);
  // The adaptive model pays about 1% on uniform bytes (sampling noise of its counts).
  EXPECT_LE(range_encode(random).size(), random.size() + random.size() * 3 / 200 + 16);

  // One symbol repeated costs almost nothing.
  EXPECT_LT(range_encode(Bytes(100000, 1)).size(), 200u);
}

TEST(RangeCoder, RejectsBadStreams) {
  const Bytes data = skewed_bytes(5000, 5);
  const Bytes coded = range_encode(data);
  for (std::size_t len = 0; len < coded.size(); ++len) {
    EXPECT_THROW(range_decode(ByteSpan(coded.data(), len), data.size()), DecodeError)
        << "truncated to " << len;
  }
  Bytes longer = coded;
  longer.push_back(0);
  EXPECT_THROW(range_decode(longer, data.size()), DecodeError) << "trailing byte";
  // Asking for more symbols than were coded runs out of input.
  EXPECT_THROW(range_decode(coded, std::uint64_t{1} << 40), DecodeError);
  // Garbage either decodes to something or is rejected; it never overreads (ASan build).
  for (std::uint32_t seed = 0; seed < 50; ++seed) {
    const Bytes junk = random_bytes(64, seed);
    try {
      range_decode(junk, 100);
    } catch (const DecodeError&) {
    }
  }
}

TEST(Lz77Entropy, StreamsDecodeToTheTriples) {
  const CodecPtr lz = lz77::make_cpu_codec();
  std::vector<std::pair<std::string, Bytes>> inputs = {
      {"empty", {}}, {"one byte", {9}}, {"skewed", skewed_bytes(50000, 6)}};
  const Bytes paper = first_corpus_file("paper1");
  if (!paper.empty()) inputs.emplace_back("calgary/paper1", paper);
  for (const auto& [name, data] : inputs) {
    for (std::int64_t config : {0, 1}) {
      const Bytes container = lz->compress(data, {{"config", config}});
      const auto opened = open_container(container, lz77::kContainerFormat);
      const auto payload = lz77::parse_payload(opened.payload, opened.header.original_size);
      const Bytes coded = lz77::entropy_encode(container);
      EXPECT_EQ(lz77::entropy_size(container), coded.size());
      const Bytes area = lz77::entropy_decode(coded);
      EXPECT_TRUE(
          std::equal(area.begin(), area.end(), payload.triples.begin(), payload.triples.end()))
          << name << " config " << config;
      if (data.size() > 10000) {
        EXPECT_LT(coded.size(), payload.triples.size() * 3 / 4) << name << " config " << config;
      }
    }
  }
  EXPECT_THROW(lz77::entropy_encode(Bytes(40, 0)), DecodeError);
}

TEST(Lz77Entropy, ThesisRatioOnPaper1) {
  const Bytes paper = first_corpus_file("paper1");
  if (paper.empty()) GTEST_SKIP() << "calgary/paper1 not available";
  const Bytes container = lz77::make_cpu_codec()->compress(paper, {});
  // The thesis's entropy-coded LZ77 beats half the original on English text.
  EXPECT_LT(lz77::entropy_size(container), paper.size() / 2);
}

TEST(Lz77Entropy, RejectsBadStreams) {
  const Bytes data = skewed_bytes(3000, 7);
  const Bytes coded = lz77::entropy_encode(lz77::make_cpu_codec()->compress(data, {}));
  for (std::size_t len = 0; len < coded.size(); ++len) {
    EXPECT_THROW(lz77::entropy_decode(ByteSpan(coded.data(), len)), DecodeError)
        << "truncated to " << len;
  }
  for (std::size_t i = 0; i < coded.size(); ++i) {
    Bytes bad = coded;
    bad[i] ^= 0xFF;
    try {
      lz77::entropy_decode(bad);
    } catch (const DecodeError&) {
    }
  }
  Bytes bad_config = coded;
  bad_config[0] = 2;
  EXPECT_THROW(lz77::entropy_decode(bad_config), DecodeError);
}

}  // namespace
}  // namespace gcbench::entropy
