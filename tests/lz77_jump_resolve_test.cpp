// LZ77 jump decoding's resolve passes on the CPU: the lanes' logic the GPU runs
// (codecs/lz77/jump_resolve.hpp), driven tile by tile as resolve_kernel drives it, on link words
// built from the CPU finder's triples. Warps run in any order on the GPU, so each pass runs here
// in the two extreme ones: reads that see every write of the pass so far, and reads that see
// only the passes before (what the pass count must survive).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "codecs/lz77/finder.hpp"
#include "codecs/lz77/format.hpp"
#include "codecs/lz77/jump_resolve.hpp"

namespace gcbench::lz77 {
namespace {

using u8 = std::uint8_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

// The link kernel's words for `in` cut into chunks of `chunk` bytes, `work_items` a block.
template <typename W>
std::vector<W> link_words(const std::vector<u8>& in, u64 chunk, u64 work_items) {
  std::vector<W> words(in.size());
  std::vector<Triple> triples;
  for (u64 begin = 0; begin < in.size(); begin += chunk) {
    const u64 end = std::min<u64>(in.size(), begin + chunk);
    const u64 window = begin / (chunk * work_items) * (chunk * work_items);
    triples.clear();
    factorize_hash(ChunkTask{in.data(), window, begin, end, geometry(Config::thesis)}, triples);
    u64 p = begin;
    for (const Triple& t : triples) {
      for (u32 k = 0; k < t.length; ++k, ++p) {
        const u64 source = p - t.offset;
        words[p] = source >= begin ? words[source] : kJumpLink<W> | static_cast<W>(source);
      }
      words[p++] = t.next;
    }
    EXPECT_EQ(p, end);
  }
  return words;
}

enum class Reads { kAsWritten, kPassBefore };

struct Resolved {
  std::vector<u8> out;
  u32 passes_run = 0;
  bool link_left = false;
};

// `passes` resolve passes over `words` as resolve_kernel runs them: a tile at a time, each
// lane's words followed from the tile's stage, the stage written back where a word moved, every
// byte of the tile written out; a later pass only over the tiles the one before left a link in.
template <typename W>
Resolved resolve(std::vector<W> words, u32 passes, Reads reads) {
  const u64 n = words.size(), tiles = (n + kJumpTile - 1) / kJumpTile;
  Resolved r{std::vector<u8>(n, 0xEE)};
  std::vector<u8> tile_left(tiles, 1);
  std::vector<W> stage(kJumpTile);
  for (u32 pass = 0; pass < passes; ++pass) {
    const std::vector<W> before = words;
    const W* source = reads == Reads::kPassBefore ? before.data() : words.data();
    r.link_left = false;
    ++r.passes_run;
    for (u64 tile = 0; tile < tiles; ++tile) {
      if (!tile_left[tile]) continue;
      const W base = static_cast<W>(tile * kJumpTile);
      const auto size = static_cast<u32>(std::min<u64>(kJumpTile, n - base));
      std::copy_n(words.begin() + base, size, stage.begin());
      bool left = false, moved = false;
      for (u32 lane = 0; lane < 32; ++lane) {
        const u32 begin = std::min(lane * kJumpLaneWords, size);
        const u32 end = std::min(begin + kJumpLaneWords, size);
        left |= follow_lane(source, stage.data(), base, begin, end, moved);
      }
      if (moved) std::copy_n(stage.begin(), size, words.begin() + base);
      for (u32 i = 0; i < size; ++i) r.out[base + i] = static_cast<u8>(stage[i]);
      tile_left[tile] = left;
      r.link_left |= left;
    }
    if (!r.link_left) break;
  }
  return r;
}

// Text-like bytes: words from a small vocabulary, so that matches reach back over many chunks.
std::vector<u8> text(u64 n, u32 seed) {
  static const char* const kWords[] = {"the ", "cat ", "sat ", "on ",  "mat ",  "and ",
                                       "a ",   "dog ", "ran ", "far ", "<tag>", "</tag>\n"};
  std::mt19937 rng(seed);
  std::vector<u8> b;
  while (b.size() < n) {
    const char* w = kWords[rng() % std::size(kWords)];
    while (*w && b.size() < n) b.push_back(static_cast<u8>(*w++));
  }
  return b;
}

// Words as the link kernel writes them where every chunk copies the one before (a block of
// `chunks` chunks of `chunk` bytes): each byte of chunk c a link to the same byte of chunk c - 1,
// the first chunk's bytes literal, so a chain runs back to the block's first chunk.
template <typename W>
std::vector<W> chained_words(u64 chunk, u64 chunks, std::vector<u8>& original) {
  std::vector<W> words(chunk * chunks);
  original.resize(words.size());
  for (u64 p = 0; p < words.size(); ++p) {
    original[p] = static_cast<u8>('a' + p % chunk % 26);
    words[p] = p < chunk ? original[p] : kJumpLink<W> | static_cast<W>(p - chunk);
  }
  return words;
}

template <typename W>
void expect_resolves(const std::vector<W>& words, const std::vector<u8>& original, u32 passes) {
  for (const Reads reads : {Reads::kAsWritten, Reads::kPassBefore}) {
    const Resolved r = resolve(words, passes, reads);
    SCOPED_TRACE(reads == Reads::kAsWritten ? "reads as written" : "reads of the pass before");
    EXPECT_FALSE(r.link_left) << "links left after " << passes << " passes";
    EXPECT_TRUE(r.out == original);
  }
}

template <typename W>
void expect_resolves(const std::vector<u8>& in, u64 chunk, u64 work_items) {
  SCOPED_TRACE(testing::Message() << "chunk " << chunk << ", " << work_items << " a block");
  const u64 chunks = (in.size() + chunk - 1) / chunk;
  expect_resolves(link_words<W>(in, chunk, work_items), in,
                  jump_passes(std::min<u64>(work_items, chunks)));
}

TEST(Lz77JumpResolve, TextResolvesInTheirPassesInEitherOrder) {
  const std::vector<u8> in = text(3 << 20, 7);
  expect_resolves<u32>(in, kDefaultChunk, kDefaultWorkItems);
  expect_resolves<u64>(in, kDefaultChunk, kDefaultWorkItems);
  // Small chunks: tiles span chunks, and blocks hold chains of up to 1023 hops.
  expect_resolves<u32>(std::vector<u8>(in.begin(), in.begin() + (256 << 10)), 64, 1024);
}

TEST(Lz77JumpResolve, ChainsLongerThanAPassNeedEveryPass) {
  std::vector<u8> original;
  const std::vector<u32> words = chained_words<u32>(64, 1024, original);
  const u32 passes = jump_passes(1024);
  ASSERT_EQ(passes, 3u);
  // Seen only from the pass before, one pass fewer than the count leaves links.
  EXPECT_TRUE(resolve(words, passes - 1, Reads::kPassBefore).link_left);
  expect_resolves(words, original, passes);
  expect_resolves(chained_words<u64>(64, 1024, original), original, passes);
  // Chunks of whole tiles, as the default 4096 bytes are.
  expect_resolves(chained_words<u32>(kJumpTile * 2, 300, original), original, jump_passes(300));
}

TEST(Lz77JumpResolve, StrayWordsEndInBoundsAndInTime) {
  // Links anywhere, to themselves and beyond: each lane must stop, read only below the word it
  // holds (the vector's own bounds, which a sanitizer build checks), and leave such words links.
  std::mt19937 rng(3);
  std::vector<u32> words(5000);
  for (u32& w : words) w = rng();
  words[100] = kJumpLink<u32> | 100;   // itself
  words[101] = kJumpLink<u32> | 4999;  // ahead
  const Resolved r = resolve(words, 4, Reads::kAsWritten);
  EXPECT_EQ(r.passes_run, 4u);  // links that cannot move stay links
  EXPECT_TRUE(r.link_left);
}

}  // namespace
}  // namespace gcbench::lz77
