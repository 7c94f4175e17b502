// gzip program baseline: exact size equality with `gzip -6 -n -c`, a member whose trailer lies,
// and what happens without a gzip program or with one that fails (round trips and damaged input:
// tests/registry_codecs_test.cpp, as for every codec).
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "baselines/gzip/gzip_codec.hpp"
#include "gcbench/container.hpp"
#include "gcbench/errors.hpp"
#include "gcbench/registry.hpp"
#include "support/codec_checks.hpp"
#include "support/shell.hpp"

namespace {

using gcbench::Bytes;
using gcbench::DecodeError;
namespace gz = gcbench::gzip;

// The installed program, or nullptr (tests that need it skip, saying why).
const gcbench::Codec* installed() {
  static const gcbench::CodecPtr c = [] {
    std::string reason;
    auto p = gz::find_program(&reason);
    return p ? gz::make_codec(*p) : gcbench::CodecPtr{};
  }();
  return c.get();
}

#define REQUIRE_GZIP()                                            \
  const gcbench::Codec* codec = installed();                      \
  if (codec == nullptr) {                                         \
    std::string why;                                              \
    gz::find_program(&why);                                       \
    GTEST_SKIP() << "the gzip program is not installed: " << why; \
  }

using gcbench::testing::run_capture;

// An executable shell script in a fresh temporary folder; removed with the object.
class Script {
 public:
  explicit Script(const std::string& body) {
    char dir[] = "/tmp/gcbench-gzip-XXXXXX";
    dir_ = ::mkdtemp(dir);
    path_ = dir_ + "/fake-gzip";
    std::ofstream(path_) << "#!/bin/sh\n" << body << "\n";
    ::chmod(path_.c_str(), 0755);
  }
  ~Script() {
    std::remove(path_.c_str());
    ::rmdir(dir_.c_str());
  }
  const std::string& path() const { return path_; }

 private:
  std::string dir_, path_;
};

TEST(Gzip, DescribesItselfWithVersionAndPath) {
  REQUIRE_GZIP();
  const auto& info = codec->info();
  EXPECT_EQ(info.name, "gzip");
  EXPECT_EQ(info.device, gcbench::Device::cpu);
  EXPECT_EQ(info.role, gcbench::Role::baseline);
  EXPECT_TRUE(info.axes.empty());
  EXPECT_EQ(info.version.rfind("gzip ", 0), 0u) << info.version;
  EXPECT_NE(info.version.find('/'), std::string::npos) << "path missing: " << info.version;
  EXPECT_NE(info.description.find("wall time"), std::string::npos);
  EXPECT_NE(gcbench::find_codec("gzip", gcbench::Device::cpu), nullptr) << "not registered";
}

TEST(Gzip, RejectsATrailerThatDeclaresLess) {
  REQUIRE_GZIP();
  // A valid member whose trailer declares less than it holds.
  Bytes member = codec->compress(Bytes(5000, 'a'), {});
  member[member.size() - 4] = 10;
  member[member.size() - 3] = 0;
  EXPECT_THROW(codec->decompress(member, {}), DecodeError);
}

// Sizes equal the program's own output, byte for byte, on every mirrored file.
TEST(Gzip, EqualsGzipMinus6OnCalgaryAndCanterbury) {
  REQUIRE_GZIP();
  std::size_t files = 0;
  for (const std::string corpus : {"calgary", "canterbury"}) {
    for (const auto& f : gcbench::testing::corpus_files(corpus)) {
      ++files;
      const Bytes original = gcbench::corpora::read_file(f.path);
      const Bytes ours = codec->compress(original, {});
      const Bytes theirs = run_capture("gzip -6 -n -c '" + f.path.string() + "'");
      EXPECT_EQ(ours.size(), theirs.size()) << f.path;
      EXPECT_TRUE(ours == theirs) << f.path << ": bytes differ";
      EXPECT_EQ(codec->decompress(ours, {}), original) << f.path;
    }
  }
  if (files == 0) GTEST_SKIP() << "no Calgary or Canterbury files (see the corpus lines above)";
  EXPECT_EQ(files, 29u);
}

TEST(Gzip, WithoutAProgramItIsUnavailableWithAReason) {
  ::setenv("GCBENCH_GZIP", "/nonexistent/gzip", 1);
  std::string reason;
  const auto p = gz::find_program(&reason);
  ::unsetenv("GCBENCH_GZIP");
  EXPECT_FALSE(p.has_value());
  EXPECT_NE(reason.find("/nonexistent/gzip"), std::string::npos) << reason;
  EXPECT_NE(reason.find("install gzip"), std::string::npos) << reason;

  const std::string old_path = std::getenv("PATH") ? std::getenv("PATH") : "";
  ::setenv("PATH", "/nonexistent", 1);
  const auto q = gz::find_program(&reason);
  ::setenv("PATH", old_path.c_str(), 1);
  EXPECT_FALSE(q.has_value());
  EXPECT_NE(reason.find("on PATH"), std::string::npos) << reason;

  // A program that vanished after it was found is an error for the call, not a crash.
  const auto gone = gz::make_codec({"/nonexistent/gzip", "gzip 0"});
  EXPECT_THROW(gone->compress(Bytes(100, 1), {}), std::runtime_error);
}

TEST(Gzip, AFailingProgramIsAnErrorNeverASize) {
  const Bytes input(100000, 'x');
  const Script fails("cat >/dev/null; echo broken >&2; exit 1");
  const auto c1 = gz::make_codec({fails.path(), "fake"});
  try {
    c1->compress(input, {});
    ADD_FAILURE() << "a failing program gave a size";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("broken"), std::string::npos) << e.what();
  }
  const Script silent("cat >/dev/null; exit 0");
  const auto c2 = gz::make_codec({silent.path(), "fake"});
  EXPECT_THROW(c2->compress(input, {}), std::runtime_error);
  const Script early("exit 0");  // stops reading at once: EPIPE, not SIGPIPE
  const auto c3 = gz::make_codec({early.path(), "fake"});
  EXPECT_THROW(c3->compress(input, {}), std::runtime_error);

  if (const gcbench::Codec* real = installed()) {
    const Bytes member = real->compress(input, {});
    EXPECT_THROW(c1->decompress(member, {}), DecodeError);
    EXPECT_THROW(c2->decompress(member, {}), DecodeError);
    const Script floods("cat >/dev/null; head -c 50000000 /dev/zero");
    const auto c4 = gz::make_codec({floods.path(), "fake"});
    EXPECT_THROW(c4->decompress(member, {}), DecodeError) << "more output than declared";
  }
}

// gzip -d decodes what follows the first member too (a .Z member expands far more than
// deflate), so whatever the program writes, the decoder reads no more than the decode limit
// and stops the program; the trailer (here: nearly 4 GiB) is no bound.
TEST(Gzip, HoldsTheProgramsOutputToTheDecodeLimit) {
  const gcbench::ScopedDecodeLimit limit({gcbench::kMaxOriginalSize, 1 << 20, 1});
  Bytes member = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 3, 0, 0, 0, 0, 0, 0xf0, 0xff, 0xff, 0xff};
  const Script floods("cat >/dev/null; head -c 100000000 /dev/zero");
  const auto c = gz::make_codec({floods.path(), "fake"});
  try {
    c->decompress(member, {});
    ADD_FAILURE() << "no error";
  } catch (const DecodeError& e) {
    EXPECT_STREQ(e.what(),
                 "gzip: decompressed output exceeds the decode limit of 1048576 bytes for a "
                 "20-byte container; gzip -d stopped");
  }
}

// An empty gzip member, then a .Z member (LZW, 16-bit codes, no block mode) of `codes` codes,
// each naming the entry being made (its string is the previous one and one more byte), so that
// output grows with the square of the input: gzip -d decodes both. Codes are packed LSB first;
// when their width grows, the rest of the current group of 8 codes is skipped, as compress does.
Bytes lzw_bomb(int codes) {
  Bytes out = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x1f, 0x9d, 16};
  std::uint64_t bits = 0;
  int held = 0;
  const auto put = [&](std::uint32_t code, int width) {
    bits |= std::uint64_t{code} << held;
    for (held += width; held >= 8; held -= 8, bits >>= 8) out.push_back(bits & 0xff);
  };
  int width = 9, in_group = 0;
  std::uint32_t next_entry = 256;
  for (int i = 0; i < codes; ++i) {
    if (next_entry > (width == 16 ? 65536u : (1u << width) - 1)) {
      for (; in_group % 8 != 0; ++in_group) put(0, width);
      ++width;
      in_group = 0;
    }
    put(i == 0 ? 'a' : std::min<std::uint32_t>(next_entry, 65535), width);
    ++in_group;
    if (i > 0 && next_entry < 65536) ++next_entry;
  }
  put(0, 8);
  return out;
}

// The finding itself: gzip -d expands a .Z member after the gzip member about 1000 times past
// the decode limit here, which the decoder holds it to.
TEST(Gzip, StopsALzwMemberAfterTheGzipMemberAtTheDecodeLimit) {
  REQUIRE_GZIP();
  const gcbench::ScopedDecodeLimit limit({gcbench::kMaxOriginalSize, 4096, 1});
  const Bytes bomb = lzw_bomb(3000);  // 4 KiB; gzip -d writes 4.5 MB of 'a'
  try {
    codec->decompress(bomb, {});
    ADD_FAILURE() << "no error";
  } catch (const DecodeError& e) {
    EXPECT_EQ(std::string(e.what()), "gzip: decompressed output exceeds the decode limit of " +
                                         std::to_string(bomb.size()) + " bytes for a " +
                                         std::to_string(bomb.size()) +
                                         "-byte container; gzip -d stopped");
  }
}

// The same bomb under a limit of 96 MiB, well past it (about 112 MB of 'a'): stopped, and what the
// decoder held meanwhile stays within 1.25x the limit (a doubling buffer would reach 2x).
TEST(Gzip, ABombStoppedAtItsLimitHoldsNoMoreThanTheLimit) {
  REQUIRE_GZIP();
  constexpr std::uint64_t kLimit = std::uint64_t{96} << 20;
  const gcbench::ScopedDecodeLimit limit({gcbench::kMaxOriginalSize, kLimit, 1});
  const Bytes bomb = lzw_bomb(15000);
  rusage before{};
  getrusage(RUSAGE_SELF, &before);
  EXPECT_THROW(codec->decompress(bomb, {}), DecodeError);
  rusage after{};
  getrusage(RUSAGE_SELF, &after);
  const auto grew = static_cast<std::uint64_t>(after.ru_maxrss - before.ru_maxrss) * 1024;
  EXPECT_LE(grew, kLimit + kLimit / 4) << "peak RSS grew by " << grew << " bytes";
}

}  // namespace
