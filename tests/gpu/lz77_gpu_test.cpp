// GPU LZ77: containers byte-identical to the CPU reference for every finder and GPU design
// (warp: hash and brute), GPU decompression in every mode, hostile containers rejected.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "codecs/lz77/format.hpp"
#include "codecs/lz77/lz77.hpp"
#include "codecs/lz77/payload.hpp"
#include "corpora/synthetic.hpp"
#include "gcbench/container.hpp"
#include "support/codec_checks.hpp"
#include "support/gpu_test.hpp"

namespace gcbench {
namespace {

class Lz77Gpu : public testing::GpuTest {
 protected:
  // Params from "axis=value" pairs, spelled as the driver spells them.
  static Params params(const Codec& codec,
                       std::initializer_list<std::pair<const char*, std::string>> kv) {
    Params p;
    for (const auto& [name, value] : kv) {
      for (const AxisSpec& a : codec.info().axes) {
        if (a.name == name) p[name] = a.parse(value);
      }
    }
    return p;
  }

  // GPU container == CPU container for each finder and design, and the GPU decodes it in
  // every mode the container allows.
  void expect_identical(ByteSpan input, const std::string& what,
                        std::initializer_list<std::pair<const char*, std::string>> format,
                        std::vector<std::string> finders = {"hash", "z", "brute"},
                        std::vector<std::string> designs = {"thread", "block", "warp"}) {
    Params cpu_p = params(*cpu_, format);
    Bytes reference;
    for (const std::string& finder : finders) {
      cpu_p["finder"] = params(*cpu_, {{"finder", finder}}).at("finder");
      if (reference.empty()) reference = cpu_->compress(input, cpu_p);
      for (const std::string& design : designs) {
        if (design == "warp" && finder == "z") continue;  // rejected, see WarpDesignRejectsZ
        Params gpu_p = params(*gpu_, format);
        gpu_p["finder"] = cpu_p["finder"];
        gpu_p["design"] = params(*gpu_, {{"design", design}}).at("design");
        const Bytes got = gpu_->compress(input, gpu_p);
        ASSERT_EQ(got.size(), reference.size())
            << what << " finder=" << finder << " design=" << design;
        const auto diff = std::mismatch(got.begin(), got.end(), reference.begin());
        ASSERT_TRUE(diff.first == got.end())
            << what << " finder=" << finder << " design=" << design << ": first difference at byte "
            << (diff.first - got.begin()) << " of " << got.size();
      }
    }
    const bool chunked = format_has(format, "window_scope", "chunk");
    for (const char* mode : {"auto", "block", "chunk", "jump"}) {
      if (std::string(mode) == "chunk" && !chunked) continue;
      const Bytes out = gpu_->decompress(reference, params(*gpu_, {{"decode_mode", mode}}));
      ASSERT_EQ(out.size(), input.size()) << what << " decode_mode=" << mode;
      ASSERT_TRUE(std::equal(out.begin(), out.end(), input.begin()))
          << what << " decode_mode=" << mode;
    }
  }

  static bool format_has(std::initializer_list<std::pair<const char*, std::string>> kv,
                         const std::string& name, const std::string& value) {
    for (const auto& [n, v] : kv) {
      if (n == name && v == value) return true;
    }
    return false;
  }

  CodecPtr cpu_ = lz77::make_cpu_codec();
  CodecPtr gpu_ = lz77::make_gpu_codec();
};

Bytes synth(synthetic::Kind kind, std::uint64_t size, std::uint64_t seed = 7) {
  synthetic::Spec s;
  s.kind = kind;
  s.size_bytes = size;
  s.seed = seed;
  return synthetic::generate(s);
}

// A random block repeated with sparse changes: long matches at many distances, some beyond
// the thesis window.
Bytes long_repeats(std::uint64_t size) {
  const Bytes seed = synth(synthetic::Kind::random_bytes, 5000, 3);
  Bytes out(size);
  for (std::uint64_t i = 0; i < size; ++i) {
    out[i] = seed[i % seed.size()];
    if (i % 977 == 0) out[i] ^= 0x5A;
  }
  return out;
}

// Runs without a GPU too.
TEST(Lz77GpuCodec, AxesMatchTheCpuFormatAxes) {
  const CodecPtr cpu_ = lz77::make_cpu_codec();
  const CodecPtr gpu_ = lz77::make_gpu_codec();
  for (const AxisSpec& a : cpu_->info().axes) {
    if (!a.in_container) continue;
    bool found = false;
    for (const AxisSpec& b : gpu_->info().axes) {
      if (b.name == a.name) {
        found = true;
        EXPECT_EQ(b.default_value, a.default_value) << a.name;
        EXPECT_EQ(b.min, a.min) << a.name;
        EXPECT_EQ(b.max, a.max) << a.name;
      }
    }
    EXPECT_TRUE(found) << a.name;
  }
}

// Every finder, design, scope, config and decoder on small inputs: the subset that
// compute-sanitizer runs (the thread design costs O(chunk * window) per thread under it).
TEST_F(Lz77Gpu, SmallAllPaths) {
  const Bytes repeats = long_repeats(9'000);
  const Bytes equal = synth(synthetic::Kind::all_equal, 5'000);
  for (const char* config : {"thesis", "wide"}) {
    for (const char* scope : {"block", "chunk"}) {
      const std::string what = std::string(config) + " window_scope=" + scope;
      expect_identical(
          repeats, "repeats " + what,
          {{"config", config}, {"window_scope", scope}, {"chunk", "256"}, {"work_items", "5"}});
      expect_identical(
          equal, "all_equal " + what,
          {{"config", config}, {"window_scope", scope}, {"chunk", "300"}, {"work_items", "4"}});
    }
  }
}

TEST_F(Lz77Gpu, SyntheticThesisBothScopes) {
  const std::vector<std::pair<std::string, Bytes>> inputs = {
      {"random", synth(synthetic::Kind::random_bytes, 3 * 4096 + 1234)},
      {"all_equal", synth(synthetic::Kind::all_equal, 2 * 4096 + 77)},
      {"runs", synth(synthetic::Kind::runs, 5 * 4096)},
      {"long_repeats", long_repeats(6 * 4096 + 5)},
      {"one_byte", Bytes{42}},
      {"empty", Bytes{}},
  };
  for (const auto& [name, input] : inputs) {
    for (const char* scope : {"block", "chunk"}) {
      SCOPED_TRACE(name + " window_scope=" + scope);
      expect_identical(input, name, {{"window_scope", scope}});
    }
  }
}

TEST_F(Lz77Gpu, ChunkAndWorkItemShapes) {
  const Bytes input = long_repeats(40'000);
  // Several launch blocks, a chunk that is not a power of two, the smallest chunk, and fewer
  // chunks than work items.
  expect_identical(input, "work_items=3 chunk=1000", {{"work_items", "3"}, {"chunk", "1000"}});
  expect_identical(input, "work_items=5 chunk=64", {{"work_items", "5"}, {"chunk", "64"}});
  expect_identical(input, "work_items=5120", {{"work_items", "5120"}});
  expect_identical(input, "chunk=65536 scope=chunk",
                   {{"chunk", "65536"}, {"window_scope", "chunk"}});
  expect_identical(input, "work_items=2 chunk=3000 scope=chunk",
                   {{"work_items", "2"}, {"chunk", "3000"}, {"window_scope", "chunk"}});
}

TEST_F(Lz77Gpu, WideConfig) {
  const Bytes text = long_repeats(100'000);
  expect_identical(text, "wide", {{"config", "wide"}});
  expect_identical(text, "wide scope=chunk", {{"config", "wide"}, {"window_scope", "chunk"}});
  expect_identical(synth(synthetic::Kind::all_equal, 70'001), "wide all_equal",
                   {{"config", "wide"}, {"work_items", "4"}, {"chunk", "9000"}});
}

TEST_F(Lz77Gpu, CalgaryAndCanterbury) {
  for (const char* corpus : {"calgary", "canterbury"}) {
    const auto files = testing::corpus_files(corpus);
    if (files.empty()) GTEST_SKIP() << corpus << " is not in the corpus mirror";
    for (const auto& f : files) {
      const Bytes data = corpora::read_file(f.path);
      expect_identical(data, std::string(corpus) + "/" + f.entry.name, {});
    }
  }
}

TEST_F(Lz77Gpu, CalgaryWideAndChunkScope) {
  const auto files = testing::corpus_files("calgary");
  if (files.empty()) GTEST_SKIP() << "calgary is not in the corpus mirror";
  for (const auto& f : files) {
    const Bytes data = corpora::read_file(f.path);
    expect_identical(data, "calgary/" + f.entry.name + " scope=chunk", {{"window_scope", "chunk"}},
                     {"hash"});
    expect_identical(data, "calgary/" + f.entry.name + " wide", {{"config", "wide"}}, {"hash"});
  }
}

// hash in every design on every mirrored Silesia file; brute and z (O(window) per position)
// on xml only, the smallest, to keep the suite within minutes.
TEST_F(Lz77Gpu, Silesia) {
  const auto files = testing::corpus_files("silesia");
  if (files.empty()) GTEST_SKIP() << "silesia is not in the corpus mirror";
  for (const auto& f : files) {
    const Bytes data = corpora::read_file(f.path);
    const std::string what = "silesia/" + f.entry.name;
    if (f.entry.name == "xml") {
      expect_identical(data, what, {});
    } else {
      expect_identical(data, what, {}, {"hash"});
    }
  }
}

TEST_F(Lz77Gpu, ChunkDecodeNeedsChunkScope) {
  const Bytes input = long_repeats(10'000);
  const Bytes packed = gpu_->compress(input, {});
  EXPECT_THROW(gpu_->decompress(packed, params(*gpu_, {{"decode_mode", "chunk"}})), ParamError);
}

TEST_F(Lz77Gpu, WarpDesignRejectsZ) {
  const Bytes input = long_repeats(1000);
  EXPECT_THROW(gpu_->compress(input, params(*gpu_, {{"finder", "z"}, {"design", "warp"}})),
               ParamError);
}

// Links across many chunks: 64 random bytes repeated, in 64-byte chunks, so that every match
// copies the previous chunk, whose byte at that place is a copy too: a byte of chunk c is c
// links away from its literal in chunk 0 of the launch block, chains that jump must resolve.
// 17 chunks a block is the most one resolve pass takes (16 links a word); 289 the most for two,
// and 300 chunks of 1024 a block need three.
TEST_F(Lz77Gpu, JumpResolvesLongChains) {
  const Bytes seed = synth(synthetic::Kind::random_bytes, 64, 5);
  Bytes periodic(64 * 300 + 9);
  for (std::size_t i = 0; i < periodic.size(); ++i) periodic[i] = seed[i % seed.size()];
  for (const char* work_items : {"17", "289", "1024"}) {
    expect_identical(periodic, std::string("periodic work_items=") + work_items,
                     {{"chunk", "64"}, {"work_items", work_items}}, {"hash"});
  }
}

TEST_F(Lz77Gpu, HostileContainersRejected) {
  const Bytes input = long_repeats(300);
  for (const char* mode : {"auto", "block", "jump"}) {
    SCOPED_TRACE(mode);
    testing::expect_hostile_inputs_rejected(
        *gpu_, input, params(*gpu_, {{"chunk", "64"}, {"work_items", "3"}, {"decode_mode", mode}}));
  }
  testing::expect_hostile_inputs_rejected(
      *gpu_, input, params(*gpu_, {{"chunk", "100"}, {"window_scope", "chunk"}}));
}

// A triple reaching before its window passes every table check on the host; the device must
// find it and say so.
TEST_F(Lz77Gpu, DeviceFindsOffsetBeforeWindow) {
  const Bytes input = long_repeats(256);
  const Params p = params(*gpu_, {{"chunk", "128"}, {"window_scope", "chunk"}});
  Bytes packed = gpu_->compress(input, p);
  const auto opened = open_container(packed, lz77::kContainerFormat);
  const auto payload = lz77::parse_payload(opened.payload, input.size());
  // The first triple of chunk 1 is a literal; make it a 3-byte match 5 bytes back (chunk 0).
  // The header checksum covers only the header, so the edited container opens normally.
  const auto at = static_cast<std::size_t>(payload.chunk_triples(1) - packed.data());
  ASSERT_EQ(packed[at + 1] >> 4, 0) << "expected a literal at the start of chunk 1";
  packed[at] = 5;
  packed[at + 1] = 3 << 4;
  for (const char* mode : {"chunk", "jump"}) {
    try {
      gpu_->decompress(packed, params(*gpu_, {{"decode_mode", mode}}));
      FAIL() << mode << " accepted an offset before the window";
    } catch (const DecodeError& e) {
      EXPECT_NE(std::string(e.what()).find("before its window"), std::string::npos) << e.what();
    }
  }
}

// The chunk-staged decoders compute the output CRC of each 32 KiB (eight chunks) as they write
// it, the tail after the last whole tile in a pass of its own: a changed byte in either part is a
// checksum mismatch in every decode mode. A literal's byte is changed (the first triple of a
// window_scope=chunk chunk is one), so that the payload still decodes, to other bytes.
TEST_F(Lz77Gpu, OutputChecksumCoversFusedTilesAndTail) {
  const Bytes input = long_repeats(3 * 32768 + 5000);
  const Params p = params(*gpu_, {{"window_scope", "chunk"}});
  const Bytes packed = gpu_->compress(input, p);
  const auto opened = open_container(packed, lz77::kContainerFormat);
  const auto payload = lz77::parse_payload(opened.payload, input.size());
  // Chunk 1: part 1 of tile 0; chunk 23: part 7 of tile 2; chunk 24: the tail.
  for (const std::uint64_t chunk : {1, 23, 24}) {
    Bytes damaged = packed;
    const auto at = static_cast<std::size_t>(payload.chunk_triples(chunk) - packed.data());
    ASSERT_EQ(damaged[at + 1] >> 4, 0) << "expected a literal at the start of chunk " << chunk;
    damaged[at + 2] ^= 0x01;
    for (const char* mode : {"auto", "chunk", "block", "jump"}) {
      SCOPED_TRACE(std::string("chunk ") + std::to_string(chunk) + " decode_mode=" + mode);
      const Params m = params(*gpu_, {{"decode_mode", mode}});
      EXPECT_EQ(gpu_->decompress(packed, m), input);
      try {
        gpu_->decompress(damaged, m);
        FAIL() << "a changed output byte passed the checksum";
      } catch (const DecodeError& e) {
        EXPECT_NE(std::string(e.what()).find("checksum mismatch"), std::string::npos) << e.what();
      }
    }
  }
}

}  // namespace
}  // namespace gcbench
