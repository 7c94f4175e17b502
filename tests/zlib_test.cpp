// zlib baseline: round trips at every level, gzip interoperability and size parity with
// `gzip -6 -n`, and what is particular to a gzip member (damaged input in general:
// tests/registry_codecs_test.cpp, as for every codec).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "baselines/zlib/zlib_codec.hpp"
#include "corpora/synthetic.hpp"
#include "gcbench/errors.hpp"
#include "support/codec_checks.hpp"
#include "support/shell.hpp"

namespace {

using gcbench::Bytes;
using gcbench::ByteSpan;
using gcbench::DecodeError;

const gcbench::Codec& codec() {
  static const gcbench::CodecPtr c = gcbench::zlib::make_codec();
  return *c;
}

Bytes text_bytes(const std::string& s) {
  return Bytes(s.begin(), s.end());
}

bool have_gzip() {
  return std::system("command -v gzip >/dev/null 2>&1") == 0;
}

using gcbench::testing::run_capture;

TEST(Zlib, DescribesItself) {
  const auto& info = codec().info();
  EXPECT_EQ(info.name, "zlib");
  EXPECT_EQ(info.device, gcbench::Device::cpu);
  ASSERT_EQ(info.axes.size(), 1u);
  EXPECT_EQ(info.axes[0].name, "level");
  EXPECT_EQ(info.axes[0].default_value, 6);
  EXPECT_EQ(info.axes[0].min, 1);
  EXPECT_EQ(info.axes[0].max, 9);
}

TEST(Zlib, RoundTripsAtEveryLevel) {
  using gcbench::synthetic::Kind;
  std::vector<Bytes> inputs = {Bytes{}, Bytes{42},
                               text_bytes("abracadabra abracadabra abracadabra")};
  for (Kind kind : {Kind::random_bytes, Kind::runs, Kind::small_ints}) {
    gcbench::synthetic::Spec s;
    s.kind = kind;
    s.size_bytes = 300000;
    inputs.push_back(gcbench::synthetic::generate(s));
  }
  for (std::int64_t level = 1; level <= 9; ++level) {
    for (const auto& in : inputs) {
      gcbench::testing::expect_round_trip(codec(), in, {{"level", level}});
    }
  }
}

TEST(Zlib, WritesTheHeaderOfGzipMinusN) {
  // magic, deflate, no flags, mtime 0, XFL (2 = best, 4 = fastest, else 0), OS 3 (Unix)
  const Bytes in = text_bytes("hello, hello, hello");
  for (auto [level, xfl] : {std::pair{6, 0}, std::pair{9, 2}, std::pair{1, 4}}) {
    const Bytes out = codec().compress(in, {{"level", level}});
    ASSERT_GE(out.size(), 18u);
    EXPECT_EQ(Bytes(out.begin(), out.begin() + 10),
              (Bytes{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, static_cast<std::uint8_t>(xfl), 3}))
        << "level " << level;
  }
}

TEST(Zlib, RejectsTrailingDataAndASecondMember) {
  const Bytes in = text_bytes("some text, some text");
  Bytes out = codec().compress(in, {});
  Bytes garbage = out;
  garbage.push_back(0);
  EXPECT_THROW(codec().decompress(garbage, {}), DecodeError);
  Bytes two = out;
  two.insert(two.end(), out.begin(), out.end());
  EXPECT_THROW(codec().decompress(two, {}), DecodeError);
}

TEST(Zlib, ShortOrEmptyInputSaysItIsNoGzipMember) {
  const gcbench::CodecPtr codec = gcbench::zlib::make_codec();
  for (const Bytes& bad : {Bytes{}, Bytes(19, 0x1f)}) {
    try {
      codec->decompress(bad, {});
      ADD_FAILURE() << bad.size() << " bytes decoded";
    } catch (const DecodeError& e) {
      EXPECT_NE(std::string(e.what()).find("not a gzip member: " + std::to_string(bad.size())),
                std::string::npos)
          << e.what();
    }
  }
}

TEST(Zlib, AClaimedHugeSizeAllocatesNothingAbsurd) {
  Bytes out = codec().compress(text_bytes("tiny"), {});
  for (int i = 1; i <= 4; ++i) out[out.size() - i] = 0xff;  // ISIZE = 4 GiB - 1
  EXPECT_THROW(codec().decompress(out, {}), DecodeError);
}

// gzip's own deflate splits blocks differently from zlib's, so sizes are close, not equal;
// the header and the trailer (CRC-32, size) are byte-identical, and each side decodes the other.
TEST(Zlib, MatchesGzipMinus6OnCalgaryAndCanterbury) {
  if (!have_gzip()) GTEST_SKIP() << "the gzip program is not installed";
  std::size_t files = 0;
  for (const std::string corpus : {"calgary", "canterbury"}) {
    for (const auto& f : gcbench::testing::corpus_files(corpus)) {
      ++files;
      const Bytes original = gcbench::corpora::read_file(f.path);
      const Bytes ours = codec().compress(original, {{"level", 6}});
      const Bytes gzip = run_capture("gzip -6 -n -c '" + f.path.string() + "'");
      ASSERT_GE(gzip.size(), 18u) << f.path;
      const double ratio = static_cast<double>(ours.size()) / static_cast<double>(gzip.size());
      EXPECT_NEAR(ratio, 1.0, 0.02)
          << f.path << ": zlib " << ours.size() << " vs gzip " << gzip.size();
      EXPECT_TRUE(std::equal(gzip.begin(), gzip.begin() + 10, ours.begin())) << "header";
      EXPECT_TRUE(std::equal(gzip.end() - 8, gzip.end(), ours.end() - 8)) << "trailer";
      EXPECT_EQ(codec().decompress(gzip, {}), original) << "decoding gzip's output";

      char tmp[] = "/tmp/gcbench-zlib-XXXXXX";
      const int fd = ::mkstemp(tmp);
      ASSERT_GE(fd, 0);
      ::close(fd);
      std::ofstream(tmp, std::ios::binary)
          .write(reinterpret_cast<const char*>(ours.data()),
                 static_cast<std::streamsize>(ours.size()));
      EXPECT_EQ(run_capture(std::string("gzip -dc ") + tmp), original) << "gzip decoding ours";
      std::remove(tmp);
    }
  }
  if (files == 0) GTEST_SKIP() << "no Calgary or Canterbury files (see the corpus lines above)";
  EXPECT_EQ(files, 29u);
}

}  // namespace
