// LZ77 CPU reference: exact triples, finder equivalence, parallel determinism, hostile input.
#include <gtest/gtest.h>

#include <cstdint>

#include <random>
#include <string>
#include <vector>

#include "codecs/lz77/decode.hpp"
#include "codecs/lz77/format.hpp"
#include "codecs/lz77/lz77.hpp"
#include "codecs/lz77/payload.hpp"
#include "gcbench/container.hpp"
#include "gcbench/errors.hpp"
#include "support/codec_checks.hpp"

namespace gcbench {
namespace {

using testing::describe;
using testing::expect_round_trip;

const Codec& codec() {
  static const CodecPtr c = lz77::make_cpu_codec();
  return *c;
}

Bytes bytes_of(const std::string& s) {
  return Bytes(s.begin(), s.end());
}

ByteSpan payload_of(const Bytes& container) {
  return ByteSpan(container).subspan(kContainerHeaderSize);
}

// --- synthetic inputs ---

Bytes random_bytes(std::size_t n, std::uint32_t seed, int alphabet = 256) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> dist(0, alphabet - 1);
  Bytes b(n);
  for (auto& x : b) x = static_cast<std::uint8_t>('a' + dist(rng) % 256);
  return b;
}

// A random block repeated with a few mutations: long matches, at many distances.
Bytes long_repeats(std::size_t n, std::size_t period, std::uint32_t seed) {
  Bytes unit = random_bytes(period, seed, 8);
  std::mt19937 rng(seed + 1);
  Bytes b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = unit[i % period];
  for (std::size_t i = 0; i < n / 97; ++i) b[rng() % n] ^= 0x20;
  return b;
}

struct NamedInput {
  std::string name;
  Bytes data;
};

std::vector<NamedInput> synthetic_inputs() {
  return {
      {"empty", {}},
      {"one_byte", {0x42}},
      {"three_bytes", bytes_of("aaa")},
      {"random_5000", random_bytes(5000, 1)},
      {"small_alphabet_20000", random_bytes(20000, 2, 4)},
      {"all_equal_10000", Bytes(10000, 0x61)},
      {"repeats_p100", long_repeats(30000, 100, 3)},
      {"repeats_p4095", long_repeats(12000, 4095, 4)},  // exactly the thesis window
      {"repeats_p4096", long_repeats(12000, 4096, 5)},  // one past it
      {"repeats_p32767", long_repeats(40000, 32767, 6)},
      {"not_chunk_multiple", long_repeats(3 * 4096 + 17, 300, 7)},
  };
}

std::vector<Params> finder_param_sets() {
  std::vector<Params> sets;
  for (std::int64_t config : {0, 1}) {
    for (std::int64_t scope : {0, 1}) {
      sets.push_back({{"config", config}, {"window_scope", scope}});  // fewer chunks than items
      sets.push_back(
          {{"config", config}, {"window_scope", scope}, {"chunk", 64}, {"work_items", 3}});
      sets.push_back(
          {{"config", config}, {"window_scope", scope}, {"chunk", 65536}, {"work_items", 1}});
    }
  }
  return sets;
}

Params with(Params p, const std::string& key, std::int64_t value) {
  p[key] = value;
  return p;
}

// --- corpus files, read once ---

const std::vector<NamedInput>& corpus_inputs() {
  static const std::vector<NamedInput> files = [] {
    std::vector<NamedInput> out;
    for (const char* corpus : {"calgary", "canterbury"}) {
      for (const auto& f : testing::corpus_files(corpus)) {
        out.push_back({std::string(corpus) + "/" + f.entry.name, corpora::read_file(f.path)});
      }
    }
    return out;
  }();
  return files;
}

// --- the container as the test reads it, independently of the implementation ---

struct Triple {
  std::uint32_t offset, length;
  char next;
  bool operator==(const Triple&) const = default;
};

void put_thesis(Bytes& out, const Triple& t) {
  out.push_back(static_cast<std::uint8_t>(t.offset & 0xFF));
  out.push_back(static_cast<std::uint8_t>((t.offset >> 8) | (t.length << 4)));
  out.push_back(static_cast<std::uint8_t>(t.next));
}

void put_wide(Bytes& out, const Triple& t) {
  put_le<std::uint32_t>(
      out, t.offset | (t.length << 15) | (std::uint32_t{static_cast<std::uint8_t>(t.next)} << 24));
}

// Payload laid out field by field as format.hpp documents it.
Bytes make_payload(std::uint8_t config, std::uint8_t scope, std::uint32_t chunk,
                   std::uint32_t work_items, std::vector<std::uint64_t> block_offsets,
                   std::vector<std::uint32_t> chunk_triples, const Bytes& area) {
  Bytes p;
  p.push_back(config);
  p.push_back(scope);
  put_le<std::uint32_t>(p, chunk);
  put_le<std::uint32_t>(p, work_items);
  put_le<std::uint64_t>(p, chunk_triples.size());
  put_le<std::uint64_t>(p, block_offsets.size() - 1);
  for (auto o : block_offsets) put_le<std::uint64_t>(p, o);
  for (auto n : chunk_triples) put_le<std::uint32_t>(p, n);
  p.insert(p.end(), area.begin(), area.end());
  return p;
}

// --- info and parameters ---

TEST(Lz77Cpu, DescribesItself) {
  const CodecInfo& info = codec().info();
  EXPECT_EQ(info.name, "lz77");
  EXPECT_EQ(info.version, "1");
  EXPECT_EQ(info.device, Device::cpu);
  const Params p = resolve_params(info.axes, {});
  EXPECT_EQ(p.at("finder"), 0);
  EXPECT_EQ(p.at("work_items"), 1024);
  EXPECT_EQ(p.at("chunk"), 4096);
  EXPECT_EQ(p.at("config"), 0);
  EXPECT_EQ(p.at("window_scope"), 0);
  EXPECT_EQ(p.at("threads"), 0);
  for (const auto& a : info.axes) {
    if (a.name == "finder") {
      EXPECT_EQ(a.names, (std::vector<std::string>{"hash", "z", "brute"}));
    }
    if (a.name == "finder" || a.name == "threads" || a.name == "decode_mode") {
      EXPECT_FALSE(a.in_container) << a.name;
    } else {
      EXPECT_TRUE(a.in_container) << a.name;
    }
  }
  EXPECT_THROW(codec().compress(Bytes(10), {{"chunk", 63}}), ParamError);
  EXPECT_THROW(codec().compress(Bytes(10), {{"work_items", 0}}), ParamError);
  EXPECT_THROW(codec().compress(Bytes(10), {{"finder", 3}}), ParamError);
}

// --- golden triples, worked out by hand from the parsing rules ---
//
// Chunk 0 (64 bytes): 'a' x 61, 'b', 'a', 'a'.
//   p=0 literal; p=1,17,33 (1,15,'a'); p=49: 12 more 'a' before the 'b' -> (1,12,'b');
//   p=62 would match "aa" but only 1 byte may be copied before the chunk ends -> literals.
// Chunk 1 (16 bytes): "aaaabcabcabcabcX".
//   window_scope=block: p=64 "aaaab" is longest at 57 (d=7) -> (7,5,'c'); p=70 overlapping
//   (3,9,'X') capped at 9 by the chunk end.
//   window_scope=chunk (or work_items=1): literal 'a', (1,3,'b'), literal 'c', (3,9,'X').
const std::string kGoldenInput = std::string(61, 'a') + "baa" + "aaaabcabcabcabcX";

const std::vector<Triple> kGoldenChunk0 = {{0, 0, 'a'},  {1, 15, 'a'}, {1, 15, 'a'}, {1, 15, 'a'},
                                           {1, 12, 'b'}, {0, 0, 'a'},  {0, 0, 'a'}};
const std::vector<Triple> kGoldenChunk1Block = {{7, 5, 'c'}, {3, 9, 'X'}};
const std::vector<Triple> kGoldenChunk1Own = {{0, 0, 'a'}, {1, 3, 'b'}, {0, 0, 'c'}, {3, 9, 'X'}};

Bytes golden_payload(std::uint8_t scope, std::uint32_t work_items, const std::vector<Triple>& c0,
                     const std::vector<Triple>& c1, bool wide) {
  Bytes area;
  for (const auto* chunk : {&c0, &c1}) {
    for (const Triple& t : *chunk) wide ? put_wide(area, t) : put_thesis(area, t);
  }
  const std::uint64_t tb = wide ? 4 : 3;
  std::vector<std::uint64_t> offsets = {0};
  if (work_items == 1) offsets.push_back(c0.size() * tb);
  offsets.push_back(area.size());
  return make_payload(
      wide ? 1 : 0, scope, 64, work_items, offsets,
      {static_cast<std::uint32_t>(c0.size()), static_cast<std::uint32_t>(c1.size())}, area);
}

TEST(Lz77Cpu, GoldenTriples) {
  const Bytes input = bytes_of(kGoldenInput);
  ASSERT_EQ(input.size(), 80u);
  // wide: max_length 257 lets the first match run to the 'b' at 61.
  const std::vector<Triple> wide_chunk0 = {{0, 0, 'a'}, {1, 60, 'b'}, {0, 0, 'a'}, {0, 0, 'a'}};
  struct Case {
    const char* name;
    Params params;
    Bytes payload;
  };
  const Case cases[] = {
      {"thesis block",
       {{"chunk", 64}, {"work_items", 2}},
       golden_payload(0, 2, kGoldenChunk0, kGoldenChunk1Block, false)},
      {"thesis chunk",
       {{"chunk", 64}, {"work_items", 2}, {"window_scope", 1}},
       golden_payload(1, 2, kGoldenChunk0, kGoldenChunk1Own, false)},
      {"thesis one item",
       {{"chunk", 64}, {"work_items", 1}},
       golden_payload(0, 1, kGoldenChunk0, kGoldenChunk1Own, false)},
      {"wide block",
       {{"chunk", 64}, {"work_items", 2}, {"config", 1}},
       golden_payload(0, 2, wide_chunk0, kGoldenChunk1Block, true)},
  };
  for (const Case& c : cases) {
    for (std::int64_t finder : {0, 1, 2}) {
      const Params p = with(c.params, "finder", finder);
      const Bytes container = expect_round_trip(codec(), input, p);
      const ByteSpan payload = payload_of(container);
      EXPECT_TRUE(std::equal(payload.begin(), payload.end(), c.payload.begin(), c.payload.end()))
          << c.name << " finder " << finder;
    }
  }
}

// --- the three finders agree ---

void expect_finders_agree(const std::string& name, const Bytes& input, const Params& params) {
  const Bytes hash = codec().compress(input, with(params, "finder", 0));
  const Bytes z = codec().compress(input, with(params, "finder", 1));
  const Bytes brute = codec().compress(input, with(params, "finder", 2));
  EXPECT_EQ(hash, z) << name << " " << describe(params) << ": hash vs z";
  EXPECT_EQ(hash, brute) << name << " " << describe(params) << ": hash vs brute";
  EXPECT_EQ(codec().decompress(hash, params), input) << name << " " << describe(params);
}

TEST(Lz77Cpu, FindersAgreeOnSyntheticInputs) {
  for (const auto& in : synthetic_inputs()) {
    for (const Params& p : finder_param_sets()) expect_finders_agree(in.name, in.data, p);
  }
}

TEST(Lz77Cpu, FindersAgreeOnCorpora) {
  if (corpus_inputs().empty()) GTEST_SKIP() << "no Calgary/Canterbury files available";
#if GCBENCH_SANITIZED
  // The z and brute finders run about ten times slower under the sanitizers: every file's first
  // 64 KiB there (its memory checked on every kind of content); the release run compares whole
  // files.
  constexpr std::size_t kPrefix = std::size_t{64} << 10;
#else
  constexpr std::size_t kPrefix = SIZE_MAX;
#endif
  for (const auto& in : corpus_inputs()) {
    const Bytes data(in.data.begin(), in.data.begin() + static_cast<std::ptrdiff_t>(
                                                            std::min(in.data.size(), kPrefix)));
    expect_finders_agree(in.name, data, {});
  }
}

// --- round trips and determinism ---

TEST(Lz77Cpu, RoundTripsCorpora) {
  if (corpus_inputs().empty()) GTEST_SKIP() << "no Calgary/Canterbury files available";
  // The defaults are every codec's check (tests/registry_codecs_test.cpp).
  const std::vector<Params> sets = {
      {{"config", 1}},
      {{"window_scope", 1}},
      {{"config", 1}, {"window_scope", 1}},
      {{"work_items", 1}},
      {{"work_items", 1536}, {"chunk", 256}},
      {{"work_items", 5}, {"chunk", 1024}, {"config", 1}},
  };
  for (const auto& in : corpus_inputs()) {
    for (const Params& p : sets) {
      SCOPED_TRACE(in.name + " " + describe(p));
      const Bytes container = expect_round_trip(codec(), in.data, p);
      EXPECT_EQ(codec().decompress(container, with(p, "decode_mode", 1)), in.data);
    }
    // Raw thesis triples already save a fifth of English text (the entropy stage does more).
    if (in.name == "calgary/book1") {
      EXPECT_LT(codec().compress(in.data, {}).size(), in.data.size() * 4 / 5);
    }
  }
}

TEST(Lz77Cpu, ThreadCountsGiveIdenticalBytes) {
  std::vector<NamedInput> inputs = {{"repeats", long_repeats(200000, 1000, 11)},
                                    {"text", random_bytes(100000, 12, 6)}};
  for (const auto& in : inputs) {
    for (const Params& base : {Params{{"chunk", 1024}, {"work_items", 7}},
                               Params{{"chunk", 512}, {"window_scope", 1}, {"config", 1}}}) {
      const Bytes one = codec().compress(in.data, with(base, "threads", 1));
      for (std::int64_t threads : {2, 3}) {
        EXPECT_EQ(codec().compress(in.data, with(base, "threads", threads)), one)
            << in.name << " threads " << threads;
        EXPECT_EQ(codec().decompress(one, {{"threads", threads}}), in.data) << in.name;
      }
    }
  }
}

TEST(Lz77Cpu, SequentialAndParallelDecodingAgree) {
  const Bytes input = long_repeats(150000, 5000, 21);
  for (std::int64_t scope : {0, 1}) {
    const Bytes container =
        codec().compress(input, {{"chunk", 1024}, {"work_items", 10}, {"window_scope", scope}});
    const auto opened = open_container(container, lz77::kContainerFormat);
    const auto payload = lz77::parse_payload(opened.payload, opened.header.original_size);
    Bytes sequential(input.size());
    lz77::decode_sequential(payload, sequential.data());
    EXPECT_EQ(sequential, input) << "scope " << scope;
    for (int threads : {1, 2, 3}) {
      Bytes parallel(input.size());
      lz77::decode_parallel(payload, threads, parallel.data());
      EXPECT_EQ(parallel, sequential) << "scope " << scope;
    }
    EXPECT_EQ(codec().decompress(container, {{"decode_mode", 1}}), input);
    EXPECT_EQ(codec().decompress(container, {{"decode_mode", 0}, {"threads", 3}}), input);
  }
}

// Block scope reaches into earlier chunks of its block: it must compress better than chunk
// scope on data whose repeats cross chunk boundaries, and not reach into an earlier block.
TEST(Lz77Cpu, WindowScopeChangesReach) {
  const Bytes input = long_repeats(64 * 40, 64, 31);
  const Bytes block = codec().compress(input, {{"chunk", 64}, {"work_items", 40}});
  const Bytes own = codec().compress(input, {{"chunk", 64}, {"window_scope", 1}});
  const Bytes one = codec().compress(input, {{"chunk", 64}, {"work_items", 1}});
  EXPECT_LT(block.size(), own.size());
  // With one chunk per block, block scope and chunk scope code the same triples.
  const auto triples = [](const Bytes& c) {
    return lz77::parse_payload(payload_of(c), 64 * 40).triples;
  };
  const ByteSpan a = triples(own), b = triples(one);
  EXPECT_TRUE(std::equal(a.begin(), a.end(), b.begin(), b.end()));
}

// --- hostile input ---

TEST(Lz77Cpu, RejectsDamagedContainers) {
  const Bytes input = bytes_of(
      "the quick brown fox jumps over the lazy dog; the quick brown fox jumps again and again "
      "while the lazy dog sleeps, sleeps, sleeps under the tree by the quick brown river.....");
  for (std::int64_t config : {0, 1}) {
    for (std::int64_t scope : {0, 1}) {
      testing::expect_hostile_inputs_rejected(
          codec(), input,
          {{"chunk", 64}, {"work_items", 2}, {"config", config}, {"window_scope", scope}});
    }
  }
  testing::expect_hostile_inputs_rejected(codec(), Bytes{7}, {});
}

void expect_decode_error(const Bytes& container, const std::string& message_part,
                         const std::string& what) {
  for (std::int64_t mode : {0, 1}) {
    try {
      codec().decompress(container, {{"decode_mode", mode}});
      ADD_FAILURE() << what << ": accepted";
    } catch (const DecodeError& e) {
      EXPECT_NE(std::string(e.what()).find(message_part), std::string::npos)
          << what << ": unexpected message '" << e.what() << "'";
    }
  }
}

TEST(Lz77Cpu, RejectsCraftedPayloads) {
  const Bytes input = bytes_of(kGoldenInput);  // 80 bytes: two 64-byte chunks
  const auto wrap = [&](const Bytes& payload) {
    return wrap_container(lz77::kContainerFormat, input, payload);
  };
  Bytes area;
  for (const auto* chunk : {&kGoldenChunk0, &kGoldenChunk1Block}) {
    for (const Triple& t : *chunk) put_thesis(area, t);
  }
  const auto valid = [&](std::uint8_t config, std::uint8_t scope, std::uint32_t chunk,
                         std::uint32_t items) {
    return make_payload(config, scope, chunk, items, {0, area.size()}, {7, 2}, area);
  };
  ASSERT_EQ(codec().decompress(wrap(valid(0, 0, 64, 2)), {}), input);

  expect_decode_error(wrap(valid(2, 0, 64, 2)), "unknown config", "config 2");
  expect_decode_error(wrap(valid(0, 2, 64, 2)), "unknown window_scope", "scope 2");
  expect_decode_error(wrap(valid(0, 0, 0, 2)), "chunk 0", "chunk 0");
  expect_decode_error(wrap(valid(0, 0, 63, 2)), "chunk 63", "chunk 63");
  expect_decode_error(wrap(valid(0, 0, (1u << 20) + 1, 2)), "chunk", "chunk too large");
  expect_decode_error(wrap(valid(0, 0, 64, 0)), "work_items 0", "no work items");
  expect_decode_error(wrap(valid(0, 0, 64, (1u << 20) + 1)), "work_items", "too many items");
  expect_decode_error(wrap(make_payload(0, 0, 64, 2, {0, area.size()}, {7, 2, 0}, area)),
                      "chunk_count", "one chunk too many");
  expect_decode_error(wrap(make_payload(0, 0, 64, 1, {0, area.size()}, {7, 2}, area)),
                      "block_count", "one block too few");
  expect_decode_error(wrap(make_payload(0, 0, 64, 2, {3, area.size()}, {7, 2}, area)),
                      "block_offsets[0]", "first offset");
  expect_decode_error(wrap(make_payload(0, 0, 64, 2, {0, area.size() - 3}, {7, 2}, area)),
                      "offsets do not match", "last offset short");
  expect_decode_error(wrap(make_payload(0, 0, 64, 1, {0, 30, area.size()}, {7, 2}, area)),
                      "offsets do not match", "offsets disagree with counts");
  expect_decode_error(wrap(make_payload(0, 0, 64, 1, {0, 21, 9}, {7, 2}, area)),
                      "offsets do not match", "offsets not monotone");
  Bytes longer = area;
  longer.insert(longer.end(), {0, 0, 'x'});
  expect_decode_error(wrap(make_payload(0, 0, 64, 2, {0, area.size()}, {7, 2}, longer)),
                      "triple area", "trailing triple");
  expect_decode_error(wrap(make_payload(0, 0, 64, 2, {0, 0}, {0, 0}, {})), "claims 0 triples",
                      "no triples for data");
  expect_decode_error(wrap(make_payload(0, 0, 64, 2, {0, 3 * 65}, {65, 0}, Bytes(3 * 65))),
                      "claims 65 triples", "more triples than bytes");
  // The tables of a claimed huge file must be present before anything is allocated.
  {
    Bytes payload = make_payload(0, 0, 64, 2, {0, 0}, {}, {});
    store_le<std::uint64_t>(payload.data() + 10, std::uint64_t{1} << 30);  // chunk_count
    store_le<std::uint64_t>(payload.data() + 18, std::uint64_t{1} << 29);  // block_count
    Bytes container = wrap(payload);
    store_le<std::uint64_t>(container.data() + 8, std::uint64_t{1} << 36);  // original size
    store_le<std::uint32_t>(container.data() + 28, crc32_of(ByteSpan(container.data(), 28)));
    expect_decode_error(container, "tables need", "64 GiB claimed");
  }

  // Triples that break the copy bounds; the counts stay consistent so only decoding sees it.
  const auto with_triple = [&](std::size_t index, const Triple& t, std::uint8_t config = 0) {
    std::vector<Triple> all = kGoldenChunk0;
    all.insert(all.end(), kGoldenChunk1Block.begin(), kGoldenChunk1Block.end());
    all[index] = t;
    Bytes a;
    for (const Triple& x : all) config == 0 ? put_thesis(a, x) : put_wide(a, x);
    return wrap(make_payload(config, 0, 64, 2, {0, a.size()}, {7, 2}, a));
  };
  expect_decode_error(with_triple(0, {1, 15, 'a'}), "before its window", "copy before byte 0");
  expect_decode_error(with_triple(1, {2, 15, 'a'}), "before its window", "copy before byte 0");
  expect_decode_error(with_triple(0, {0, 3, 'a'}), "invalid", "match without offset");
  expect_decode_error(with_triple(0, {5, 0, 'a'}), "invalid", "literal with offset");
  expect_decode_error(with_triple(1, {1, 2, 'a'}), "invalid", "match shorter than 3");
  expect_decode_error(with_triple(4, {1, 15, 'b'}), "past the end of its chunk",
                      "match crossing the chunk end");
  expect_decode_error(with_triple(4, {1, 11, 'b'}), "short", "chunk left unfilled");
  expect_decode_error(with_triple(1, {1, 300, 'a'}, 1), "invalid", "wide length 300");
  {  // chunk scope: chunk 1 may not reach into chunk 0
    Bytes payload = make_payload(0, 1, 64, 2, {0, area.size()}, {7, 2}, area);
    expect_decode_error(wrap(payload), "before its window", "chunk scope reach-back");
  }
  {  // block scope with one item per block: same
    Bytes payload = make_payload(0, 0, 64, 1, {0, 21, area.size()}, {7, 2}, area);
    expect_decode_error(wrap(payload), "before its window", "reach into earlier block");
  }
}

}  // namespace
}  // namespace gcbench
