// Synthetic inputs: exact sizes, determinism per seed, and the property each kind promises.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <vector>

#include <omp.h>

#include "corpora/sha256.hpp"
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

// The bytes of the sequential generator that came before the parallel one (git c07373f), as
// SHA-256 digests of 5 MiB + 3 bytes (several blocks of draws, a tail): a synthetic input's
// name keeps meaning the same bytes, so results measured before stay comparable.
TEST(Synthetic, BytesAreThoseOfTheSequentialGenerator) {
  struct Golden {
    const char* kind;
    std::uint32_t width;
    std::uint32_t value_bits;
    const char* sha256;
  };
  const Golden golden[] = {
      {"runs-geo1", 1, 8, "f0a2f95a2289ce9b26466fff5b1dac807aec70d0673a559a36a543bae6838dde"},
      {"runs-geo2", 4, 8, "305bb9b59a27a454def90fca9688ec094aef85eb6e9207eac0e0d6706a69f1ac"},
      {"runs-geo8", 1, 8, "9a9bf36c5b5b4bdeb8ccb12f6df11010c035cd43fc8f7b83952034f96cab2c48"},
      {"runs-geo8", 2, 8, "b1d1b22dfa4bb33d632dd4f28a6f06d442e23302fd7cf0827b86d9cb852f5e77"},
      {"runs-geo8", 4, 8, "2d3f4c544d4844a846e7263798166bc02e0bc3084ad54e95b88c52d9f4e697e5"},
      {"runs-geo64", 4, 8, "addcde864a7534d68e447e3d926d0ce64663f2786a9583f8b40eb5a205f0130d"},
      {"runs-geo4096", 4, 8, "8fa5b2178cfd5961ab6cd5cd2fac8d064af1a6495cd8e8872bb2a82e144ac134"},
      {"runs-uni2", 4, 8, "9a5cc3bc774f445819f7a7467346f15cf59183374b7a9e159ca9d21f7163f368"},
      {"runs-uni8", 2, 8, "de79648a8710524aaed1a7704bc329365eff09d4f23e99b9bed793fb84e776dd"},
      {"runs-uni64", 4, 8, "15de0a352778a0ef97ae1874bfda7f15073dbf35ba6da7e0338f72d087cbd784"},
      {"runs-uni4096", 1, 8, "fc999e90dfb29b0d02ff4cd3bbc783c8044072b5c38471b0811a25bf5d00b12f"},
      {"small_ints", 1, 8, "d4078543e0319a4cfdd24aaee94df6e188780e825955b015375c59bd5f7d0998"},
      {"small_ints", 2, 8, "5ba1365a6df77b6d317ecf6c6fe4824e129f62b7bd7430edbafcee4af77099f4"},
      {"small_ints", 4, 8, "dceda491c54a6bfa26ad59444a6023864482e8dd54c6e399bd39e4cf5f5cabc6"},
      {"small_ints", 2, 3, "acc73cea481c3a2470333c9e27a53f821439039311d1379c1131feaf0b2615af"},
      {"small_ints", 4, 32, "d4078543e0319a4cfdd24aaee94df6e188780e825955b015375c59bd5f7d0998"},
      {"sorted_keys", 4, 8, "f515822f11a48b12e6f9654df3fa16f9dee90ea9ece3feb92dc3cf5b077727bb"},
      {"random_bytes", 1, 8, "d4078543e0319a4cfdd24aaee94df6e188780e825955b015375c59bd5f7d0998"},
      {"all_equal", 2, 8, "ba684ca7ad2bae87f4beeae071f6770382b3074f43b308d4e6825d20698d7ebd"},
  };
  for (const Golden& g : golden) {
    Spec s = parse_kind_text(g.kind);
    s.size_bytes = (std::uint64_t{5} << 20) + 3;
    s.element_width = g.width;
    s.value_bits = g.value_bits;
    EXPECT_EQ(gcbench::corpora::sha256_hex(generate(s)), g.sha256)
        << g.kind << " width " << g.width << " bits " << g.value_bits;
  }
}

// The same bytes on one thread as on several, at sizes around the blocks of draws.
TEST(Synthetic, BytesDoNotDependOnTheThreadCount) {
  const int threads = omp_get_max_threads();
  for (const char* kind : {"runs-geo1", "runs-geo8", "runs-uni64", "small_ints"}) {
    for (std::uint32_t width : {1u, 2u, 4u}) {
      for (std::uint64_t size : {std::uint64_t{0}, std::uint64_t{5}, std::uint64_t{1} << 20,
                                 (std::uint64_t{9} << 20) + 1}) {
        Spec s = parse_kind_text(kind);
        s.size_bytes = size;
        s.element_width = width;
        omp_set_num_threads(1);
        const Bytes one = generate(s);
        omp_set_num_threads(3);
        EXPECT_EQ(generate(s), one) << kind << " width " << width << " size " << size;
      }
    }
  }
  omp_set_num_threads(threads);
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

// The lengths of the runs of `v` (maximal stretches of equal elements).
std::vector<std::size_t> run_lengths(const std::vector<std::uint32_t>& v) {
  std::vector<std::size_t> lengths;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i == 0 || v[i] != v[i - 1])
      lengths.push_back(1);
    else
      ++lengths.back();
  }
  return lengths;
}

TEST(Synthetic, RunLengthKindsHaveTheirMeanAndShape) {
  // The kernels preset's run lengths; enough runs of each (>= 2048) that the sample mean of a
  // geometric distribution lies within 10% at about 4.5 standard deviations.
  for (const char* family : {"runs-geo", "runs-uni"}) {
    for (std::uint32_t mean : {1u, 2u, 8u, 64u, 4096u}) {
      for (std::uint32_t width : {1u, 4u}) {
        Spec s = parse_kind_text(family + std::to_string(mean));
        s.size_bytes = std::max<std::uint64_t>(std::uint64_t{1} << 16, 2048ull * mean) * width;
        s.element_width = width;
        s.seed = 17;
        const auto lengths = run_lengths(elements(generate(s), width));
        // The last run may be cut short by the end of the input.
        const std::vector<std::size_t> whole(lengths.begin(), lengths.end() - 1);
        double sum = 0;
        std::size_t longest = 0, shortest = whole.front();
        for (std::size_t l : whole) {
          sum += static_cast<double>(l);
          longest = std::max(longest, l);
          shortest = std::min(shortest, l);
        }
        const double measured = sum / static_cast<double>(whole.size());
        const std::string what = family + std::to_string(mean) + " width " + std::to_string(width);
        EXPECT_NEAR(measured, mean, 0.1 * mean) << what;
        // Both reach down to short runs (P(L <= m/8) is about 1/8 per run in either).
        EXPECT_LE(shortest, std::max(1u, mean / 8)) << what;
        if (s.run_lengths == RunLengths::uniform) {
          const std::size_t top = 2 * mean - 1;
          EXPECT_LE(longest, top) << what << ": uniform lengths end at 2 mean - 1";
          EXPECT_GE(longest, top - top / 8) << what << ": the top is never reached";
        } else if (mean >= 8) {
          EXPECT_GT(longest, 3 * mean) << what << ": geometric lengths have a tail";
        }
      }
    }
  }
}

TEST(Synthetic, RunLengthKindsAreSeededAndDistinct) {
  Spec geo = parse_kind_text("runs-geo64");
  Spec uni = parse_kind_text("runs-uni64");
  for (Spec* s : {&geo, &uni}) {
    s->size_bytes = 100000;
    s->element_width = 2;
  }
  EXPECT_EQ(generate(geo), generate(geo));
  EXPECT_NE(generate(geo), generate(uni));
  Spec other_seed = geo;
  other_seed.seed = 2;
  EXPECT_NE(generate(geo), generate(other_seed));
}

TEST(Synthetic, KindTextParsesParametersAndRejectsOthers) {
  const Spec plain = parse_kind_text("runs");
  EXPECT_EQ(plain.kind, Kind::runs);
  EXPECT_EQ(plain.mean_run, 8);
  EXPECT_EQ(plain.run_lengths, RunLengths::geometric);
  const Spec uni = parse_kind_text("runs-uni4096");
  EXPECT_EQ(uni.kind, Kind::runs);
  EXPECT_EQ(uni.mean_run, 4096);
  EXPECT_EQ(uni.run_lengths, RunLengths::uniform);
  EXPECT_EQ(parse_kind_text("small_ints").kind, Kind::small_ints);
  for (const char* bad : {"runs-geo", "runs-geo0", "runs-geo08", "runs-geo8x", "runs-uni-8",
                          "runs-geo16777217", "runs-exp8", "runs8"}) {
    EXPECT_THROW(parse_kind_text(bad), std::invalid_argument) << bad;
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
