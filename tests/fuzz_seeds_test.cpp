// The committed libFuzzer seed corpus (tests/fuzz/corpus/<decoder>/), one folder per fuzz target,
// in the targets' input formats (tests/fuzz/fuzz_decoder.cpp): fl, rle and lz77 payloads behind
// a 5-byte little-endian original size; gzip members (zlib, gzip), zstd frames, and LZ4 frames
// and gzip members behind a byte that picks the threads (lz4, libdeflate). Seeds of gcbench's own
// encoders must be what they write now; those of a library's or program's encoder, whose bytes
// may change with its version, must decode to their original. GCBENCH_WRITE_FUZZ_SEEDS=1
// rewrites them (those of the peers built here):
//   GCBENCH_WRITE_FUZZ_SEEDS=1 build-asan/tests/fuzz_seeds_test
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "baselines/gzip/gzip_codec.hpp"
#include "baselines/peers/peers.hpp"
#include "baselines/zlib/zlib_codec.hpp"
#include "codecs/fl/fl.hpp"
#include "codecs/lz77/lz77.hpp"
#include "codecs/rle/rle.hpp"
#include "gcbench/container.hpp"

namespace gcbench {
namespace {

namespace fs = std::filesystem;

struct Seed {
  std::string decoder;
  std::string name;
  Bytes input;  // fuzz input: original size (5 bytes) + payload
};

// A seed of another encoder: a stream that must decode to `original`.
struct ForeignSeed {
  std::string decoder;
  std::string name;
  Bytes input;       // fuzz input: the thread byte (lz4, libdeflate), then the stream
  std::size_t skip;  // bytes before the stream
  Bytes original;
  Params params;
};

Bytes text(std::size_t size) {
  const std::string words = "the quick brown fox jumps over the lazy dog; ";
  Bytes b(size);
  for (std::size_t i = 0; i < size; ++i) b[i] = static_cast<std::uint8_t>(words[i % words.size()]);
  return b;
}

Bytes ramp(std::size_t size) {
  Bytes b(size);
  for (std::size_t i = 0; i < size; ++i) b[i] = static_cast<std::uint8_t>((i * 7) ^ (i >> 3));
  return b;
}

Bytes runs(std::size_t size) {
  Bytes b(size);
  for (std::size_t i = 0; i < size; ++i) b[i] = static_cast<std::uint8_t>(i / 13 % 5);
  return b;
}

Seed make_seed(const std::string& decoder, const std::string& name, const Codec& codec,
               const Bytes& original, const Params& params) {
  const Bytes container = codec.compress(original, params);
  // Round trip first: a seed is a valid container.
  EXPECT_EQ(codec.decompress(container, params), original) << decoder << "/" << name;
  Seed s{decoder, name, {}};
  for (int i = 0; i < 5; ++i)
    s.input.push_back(static_cast<std::uint8_t>(original.size() >> (8 * i)));
  s.input.insert(s.input.end(), container.begin() + kContainerHeaderSize, container.end());
  return s;
}

std::vector<Seed> all_seeds() {
  std::vector<Seed> seeds;
  const CodecPtr fl = fl::make_cpu_codec();
  const CodecPtr rle = rle::make_cpu_codec();
  const CodecPtr lz77 = lz77::make_cpu_codec();
  seeds.push_back(
      make_seed("fl", "w1-ramp", *fl, ramp(200), {{"element_width", 1}, {"frame_size", 16}}));
  seeds.push_back(
      make_seed("fl", "w2-runs", *fl, runs(161), {{"element_width", 2}, {"frame_size", 8}}));
  seeds.push_back(
      make_seed("fl", "w4-text", *fl, text(130), {{"element_width", 4}, {"frame_size", 4}}));
  seeds.push_back(make_seed("fl", "empty", *fl, {}, {}));
  seeds.push_back(make_seed("rle", "w1-runs", *rle, runs(300), {{"element_width", 1}}));
  seeds.push_back(make_seed("rle", "w2-runs", *rle, runs(201), {{"element_width", 2}}));
  seeds.push_back(make_seed("rle", "w4-zeros", *rle, Bytes(1027, 0), {{"element_width", 4}}));
  seeds.push_back(make_seed("rle", "empty", *rle, {}, {}));
  seeds.push_back(
      make_seed("lz77", "thesis-block", *lz77, text(400), {{"chunk", 64}, {"work_items", 2}}));
  seeds.push_back(make_seed("lz77", "thesis-chunk-scope", *lz77, ramp(300),
                            {{"chunk", 64}, {"window_scope", 1}}));
  seeds.push_back(make_seed("lz77", "wide", *lz77, text(600), {{"config", 1}, {"chunk", 128}}));
  seeds.push_back(make_seed("lz77", "empty", *lz77, {}, {}));
  return seeds;
}

// `thread_byte` (odd: one thread, even: two; see fuzz_decoder.cpp) before the stream, or none.
ForeignSeed make_foreign_seed(const std::string& decoder, const std::string& name,
                              const Codec& codec, const Bytes& original, const Params& params,
                              std::optional<std::uint8_t> thread_byte = std::nullopt) {
  ForeignSeed s{decoder, name, {}, thread_byte ? 1u : 0u, original, params};
  if (thread_byte) s.input.push_back(*thread_byte);
  const Bytes stream = codec.compress(original, params);
  s.input.insert(s.input.end(), stream.begin(), stream.end());
  return s;
}

// The seeds of every fuzz target but fl, rle and lz77, for the codecs built here (and the gzip
// program, when installed), with the codec that decodes them.
std::vector<std::pair<ForeignSeed, const Codec*>> foreign_seeds() {
  static const std::vector<CodecPtr> codecs = [] {
    std::vector<CodecPtr> c;
    c.push_back(zlib::make_codec());
    if (std::optional<gzip::Program> program = gzip::find_program(nullptr))
      c.push_back(gzip::make_codec(*program));
#if GCBENCH_HAVE_LIBDEFLATE
    c.push_back(peers::make_libdeflate_codec());
#endif
#if GCBENCH_HAVE_LZ4
    c.push_back(peers::make_lz4_codec());
#endif
#if GCBENCH_HAVE_ZSTD
    c.push_back(peers::make_zstd_codec());
#endif
    return c;
  }();
  std::vector<std::pair<ForeignSeed, const Codec*>> seeds;
  for (const CodecPtr& codec : codecs) {
    const std::string name = codec->info().name;
    const bool threads_axis = name == "libdeflate" || name == "lz4";
    const auto add = [&](const std::string& seed, const Bytes& original, const Params& params,
                         std::uint8_t thread_byte) {
      seeds.emplace_back(
          make_foreign_seed(name, seed, *codec, original, params,
                            threads_axis ? std::optional<std::uint8_t>(thread_byte) : std::nullopt),
          codec.get());
    };
    add("text", text(400), {}, 1);
    add("runs", runs(300), {}, 1);
    add("empty", {}, {}, 1);
    if (threads_axis) add("chunked", ramp(200), {{"threads", 2}}, 0);
  }
  return seeds;
}

fs::path corpus_dir() {
  return fs::path(__FILE__).parent_path() / "fuzz" / "corpus";
}

bool writing() {
  return std::getenv("GCBENCH_WRITE_FUZZ_SEEDS") != nullptr;
}

void write_seed(const fs::path& path, const Bytes& input) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(input.data()),
             static_cast<std::streamsize>(input.size()));
}

// The committed seed at `path`; a test failure when it is missing.
std::optional<Bytes> committed_seed(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    ADD_FAILURE() << path << " is missing; rerun with GCBENCH_WRITE_FUZZ_SEEDS=1";
    return std::nullopt;
  }
  return Bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(FuzzSeeds, CommittedCorpusIsCurrent) {
  std::size_t total = 0;
  for (const Seed& s : all_seeds()) {
    const fs::path path = corpus_dir() / s.decoder / s.name;
    total += s.input.size();
    if (writing()) {
      write_seed(path, s.input);
    } else if (const std::optional<Bytes> committed = committed_seed(path)) {
      EXPECT_EQ(*committed, s.input) << path << " is stale; rerun with GCBENCH_WRITE_FUZZ_SEEDS=1";
    }
  }
  EXPECT_LT(total, 8u << 10);  // a few KB
}

TEST(FuzzSeeds, EveryOtherTargetHasSeedsThatDecode) {
  for (const auto& [s, codec] : foreign_seeds()) {
    const fs::path path = corpus_dir() / s.decoder / s.name;
    if (writing()) {
      write_seed(path, s.input);
    } else if (const std::optional<Bytes> committed = committed_seed(path)) {
      ASSERT_GE(committed->size(), s.skip) << path;
      const Bytes stream(committed->begin() + static_cast<std::ptrdiff_t>(s.skip),
                         committed->end());
      EXPECT_EQ(codec->decompress(stream, s.params), s.original) << path;
    }
  }
}

// Every fuzz target (tests/fuzz/CMakeLists.txt) has a committed seed folder.
TEST(FuzzSeeds, EveryFuzzTargetHasASeedFolder) {
  for (const char* target : {"fl", "rle", "lz77", "zlib", "gzip", "libdeflate", "lz4", "zstd"}) {
    EXPECT_TRUE(fs::is_directory(corpus_dir() / target)) << target << " has no seeds";
  }
}

}  // namespace
}  // namespace gcbench
