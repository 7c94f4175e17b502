// Synthetic inputs: exact sizes, determinism per seed, and the property each kind promises.
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <vector>

#include "corpora/synthetic.hpp"

namespace {

using gcbench::Bytes;
using namespace gcbench::synthetic;

constexpr Kind kAllKinds[] = {Kind::runs, Kind::small_ints, Kind::sorted_keys, Kind::random_bytes,
                              Kind::all_equal};

// The little-endian integer view of the whole elements of `b`.
std::vector<std::uint32_t> elements(const Bytes& b, std::uint32_t width) {
  std::vector<std::uint32_t> out(b.size() / width);
  for (std::size_t i = 0; i < out.size(); ++i) {
    std::uint32_t v = 0;
    for (std::uint32_t k = 0; k < width; ++k) v |= std::uint32_t{b[i * width + k]} << (8 * k);
    out[i] = v;
  }
  return out;
}

Spec spec(Kind kind, std::uint64_t size, std::uint32_t width = 1, std::uint64_t seed = 1) {
  Spec s;
  s.kind = kind;
  s.size_bytes = size;
  s.element_width = width;
  s.seed = seed;
  return s;
}

TEST(Synthetic, SizeIsExactForEveryKindAndWidth) {
  for (Kind kind : kAllKinds) {
    for (std::uint32_t width : {1u, 2u, 4u}) {
      for (std::uint64_t size : {0ull, 1ull, 2ull, 3ull, 5ull, 7ull, 1000ull, 4097ull}) {
        EXPECT_EQ(generate(spec(kind, size, width)).size(), size)
            << kind_name(kind) << " width " << width;
      }
    }
  }
}

TEST(Synthetic, SameSeedSameBytesOtherSeedOtherBytes) {
  for (Kind kind : kAllKinds) {
    for (std::uint32_t width : {1u, 2u, 4u}) {
      const Bytes a = generate(spec(kind, 10001, width, 7));
      EXPECT_EQ(a, generate(spec(kind, 10001, width, 7))) << kind_name(kind);
      EXPECT_NE(a, generate(spec(kind, 10001, width, 8))) << kind_name(kind);
    }
  }
}

TEST(Synthetic, ATailShorterThanAnElementContinuesThePattern) {
  // The shorter output is a prefix of the longer: the tail is the next element's low bytes.
  for (Kind kind : kAllKinds) {
    const Bytes whole = generate(spec(kind, 4000, 4, 3));
    const Bytes cut = generate(spec(kind, 3999, 4, 3));
    EXPECT_TRUE(std::equal(cut.begin(), cut.end(), whole.begin())) << kind_name(kind);
  }
}

TEST(Synthetic, RunsHaveTheRequestedMeanLength) {
  for (std::uint32_t width : {1u, 2u, 4u}) {
    for (double mean : {1.0, 4.0, 32.0}) {
      Spec s = spec(Kind::runs, std::uint64_t{1} << 20, width, 11);
      s.mean_run = mean;
      const auto v = elements(generate(s), width);
      std::size_t runs = 1;
      for (std::size_t i = 1; i < v.size(); ++i) runs += v[i] != v[i - 1];
      const double measured = static_cast<double>(v.size()) / static_cast<double>(runs);
      EXPECT_NEAR(measured, mean, 0.05 * mean) << "width " << width;
    }
  }
}

TEST(Synthetic, RejectsImpossibleSpecs) {
  Spec s = spec(Kind::runs, 100);
  s.mean_run = 0.5;
  EXPECT_THROW(generate(s), std::invalid_argument);
  EXPECT_THROW(generate(spec(Kind::small_ints, 100, 3)), std::invalid_argument);
  EXPECT_THROW(generate(spec(Kind::random_bytes, 100, 8)), std::invalid_argument);
}

TEST(Synthetic, SmallIntsStayBelowTwoToTheBitsAndUseTheRange) {
  struct Case {
    std::uint32_t width, bits, expected_bits;
  };
  for (Case c : {Case{1, 3, 3}, Case{1, 12, 8}, Case{2, 12, 12}, Case{4, 20, 20}, Case{4, 1, 1}}) {
    Spec s = spec(Kind::small_ints, 1 << 18, c.width, 5);
    s.value_bits = c.bits;
    const auto v = elements(generate(s), c.width);
    std::uint32_t max = 0;
    for (std::uint32_t x : v) max = std::max(max, x);
    const std::uint64_t limit = std::uint64_t{1} << c.expected_bits;
    EXPECT_LT(max, limit) << "width " << c.width << " bits " << c.bits;
    EXPECT_GE(max, limit - 1 - limit / 64) << "the top of the range is never used";
  }
  Spec zero = spec(Kind::small_ints, 1000, 2);
  zero.value_bits = 0;
  for (std::uint32_t x : elements(generate(zero), 2)) EXPECT_EQ(x, 0u);
}

TEST(Synthetic, SortedKeysAreNonDecreasingWithSmallGapsAndNotConstant) {
  for (std::uint32_t width : {1u, 2u, 4u}) {
    for (std::uint64_t size : {std::uint64_t{1000}, std::uint64_t{1} << 20}) {
      const auto v = elements(generate(spec(Kind::sorted_keys, size, width, 9)), width);
      for (std::size_t i = 1; i < v.size(); ++i) {
        ASSERT_LE(v[i - 1], v[i]) << "width " << width << " at " << i;
        ASSERT_LE(v[i] - v[i - 1], 16u) << "gap too large at " << i;
      }
      EXPECT_LT(v.front(), v.back()) << "width " << width << " size " << size;
    }
  }
}

TEST(Synthetic, RandomBytesAreRoughlyUniform) {
  const Bytes b = generate(spec(Kind::random_bytes, 1 << 20, 1, 13));
  std::array<double, 256> count{};
  for (std::uint8_t x : b) count[x] += 1;
  const double expected = static_cast<double>(b.size()) / 256;
  double chi2 = 0;
  for (double c : count) chi2 += (c - expected) * (c - expected) / expected;
  EXPECT_LT(chi2, 400) << "255 degrees of freedom: about 255 expected";
}

TEST(Synthetic, AllEqualRepeatsOneElement) {
  for (std::uint32_t width : {1u, 2u, 4u}) {
    const auto v = elements(generate(spec(Kind::all_equal, 999, width, 21)), width);
    for (std::uint32_t x : v) ASSERT_EQ(x, v.front());
  }
}

TEST(Synthetic, KindNamesRoundTrip) {
  for (Kind kind : kAllKinds) EXPECT_EQ(parse_kind(kind_name(kind)), kind);
  EXPECT_STREQ(kind_name(Kind::sorted_keys), "sorted_keys");
  EXPECT_THROW(parse_kind("zeros"), std::invalid_argument);
}

}  // namespace
