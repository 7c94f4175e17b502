// The committed libFuzzer seed corpus (tests/fuzz/corpus/<decoder>/): valid fl, rle and lz77
// payloads in the fuzz targets' input format (5-byte little-endian original size, then the
// payload; see tests/fuzz/fuzz_decoder.cpp). This test checks that the committed seeds are what
// the current encoders write; GCBENCH_WRITE_FUZZ_SEEDS=1 rewrites them:
//   GCBENCH_WRITE_FUZZ_SEEDS=1 build/tests/fuzz_seeds_test
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

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

TEST(FuzzSeeds, CommittedCorpusIsCurrent) {
  const fs::path corpus = fs::path(__FILE__).parent_path() / "fuzz" / "corpus";
  const bool write = std::getenv("GCBENCH_WRITE_FUZZ_SEEDS") != nullptr;
  std::size_t total = 0;
  for (const Seed& s : all_seeds()) {
    const fs::path path = corpus / s.decoder / s.name;
    total += s.input.size();
    if (write) {
      fs::create_directories(path.parent_path());
      std::ofstream(path, std::ios::binary)
          .write(reinterpret_cast<const char*>(s.input.data()),
                 static_cast<std::streamsize>(s.input.size()));
      continue;
    }
    std::ifstream in(path, std::ios::binary);
    ASSERT_TRUE(in) << path << " is missing; rerun with GCBENCH_WRITE_FUZZ_SEEDS=1";
    const Bytes committed{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    EXPECT_EQ(committed, s.input) << path << " is stale; rerun with GCBENCH_WRITE_FUZZ_SEEDS=1";
  }
  EXPECT_LT(total, 8u << 10);  // a few KB
}

}  // namespace
}  // namespace gcbench
