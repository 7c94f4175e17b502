// What LZ77's jump decoding waits on in its resolve passes (issue 65): jump's link kernel writes
// a word per byte, the byte itself or a link to its source where that lies in an earlier chunk (a
// copy within the chunk inherits its source's word), and each resolve pass follows up to kHops
// = 16 links a word. For each file (thesis geometry, chunks of 4096 bytes, window scope block
// over 1024 chunks, the GPU codec's defaults): how many links lie between each byte and its
// literal, and the dependent reads a pass costs a 512-word warp tile when lanes follow four
// words at a time in lockstep (each group of 128 words costs its longest chain, capped, plus
// the first read) against lanes that own L words in a row and follow C chains at once, taking
// their next word as soon as one ends (the warp costs its busiest lane's sum; built, it was
// slower: rounds are not the passes' cost, bench/NOTES.md); and the rounds over every pass for
// other choices of links a pass and words a lane.
// Triples come from the hash finder, the GPU codec's default.
//
// usage: lz77_jump_hops FILE [BYTES [OFFSET]]   (BYTES from OFFSET of FILE; default all)
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "codecs/lz77/finder.hpp"
#include "codecs/lz77/payload.hpp"

namespace {

using namespace gcbench::lz77;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

constexpr u64 kChunk = kDefaultChunk;
constexpr u64 kBlock = u64{kDefaultWorkItems} * kChunk;
constexpr u32 kHops = 16;         // decompress_gpu.cu's kHops
constexpr u64 kTile = 512;        // a warp's tile, in words
constexpr u64 kGroupWords = 128;  // the lockstep design's tile: 4 words a lane

constexpr std::int64_t kLiteral = -1;

// jump's words as link targets: kLiteral for a byte, else the position its link points to.
std::vector<std::int64_t> link_targets(const std::vector<std::uint8_t>& in) {
  std::vector<std::int64_t> target(in.size(), kLiteral);
  std::vector<Triple> triples;
  for (u64 begin = 0; begin < in.size(); begin += kChunk) {
    const u64 end = std::min<u64>(in.size(), begin + kChunk);
    triples.clear();
    factorize_hash(
        ChunkTask{in.data(), begin / kBlock * kBlock, begin, end, geometry(Config::thesis)},
        triples);
    u64 p = begin;
    for (const Triple& t : triples) {
      for (u32 k = 0; k < t.length; ++k, ++p) {
        const u64 source = p - t.offset;
        target[p] = source >= begin ? target[source] : static_cast<std::int64_t>(source);
      }
      target[p++] = kLiteral;  // the triple's next byte
    }
  }
  return target;
}

// Links between each byte and its literal.
std::vector<u32> hops_per_byte(const std::vector<std::int64_t>& target) {
  std::vector<u32> hops(target.size(), 0);
  for (u64 p = 0; p < target.size(); ++p) {
    if (target[p] != kLiteral) hops[p] = hops[target[p]] + 1;
  }
  return hops;
}

u32 reads(u32 hops) {
  return std::min(hops, kHops) + 1;
}

// Dependent reads a warp tile costs in lockstep: per 128 words, the longest capped chain.
double lockstep_rounds(const std::vector<u32>& hops) {
  u64 rounds = 0, groups = 0;
  for (u64 g = 0; g < hops.size(); g += kGroupWords, ++groups) {
    u32 longest = 0;
    for (u64 i = g; i < std::min<u64>(hops.size(), g + kGroupWords); ++i) {
      longest = std::max(longest, reads(hops[i]));
    }
    rounds += longest;
  }
  return static_cast<double>(rounds) / groups * (kTile / kGroupWords);
}

// The same with lanes of `lane_words` words in a row and `chains` chains each: a lane's word
// goes to whichever chain frees first; the warp costs its busiest chain.
double lane_sum_rounds(const std::vector<u32>& hops, u64 lane_words, u32 chains) {
  const u64 warp_words = 32 * lane_words;
  u64 rounds = 0, warps = 0;
  std::vector<u64> busy(chains);
  for (u64 w = 0; w < hops.size(); w += warp_words, ++warps) {
    u64 longest = 0;
    for (u64 lane = w; lane < std::min<u64>(hops.size(), w + warp_words); lane += lane_words) {
      std::fill(busy.begin(), busy.end(), 0);
      for (u64 i = lane; i < std::min<u64>(hops.size(), lane + lane_words); ++i) {
        *std::min_element(busy.begin(), busy.end()) += reads(hops[i]);
      }
      longest = std::max(longest, *std::max_element(busy.begin(), busy.end()));
    }
    rounds += longest;
  }
  return static_cast<double>(rounds) / warps * kTile / warp_words;
}

// Every pass of a lane design with `cap` links a word a pass (jump_passes' count for the
// block), each pass's reads seeing only the passes before (the order the pass count must
// survive); later passes only over the tiles the one before left a link in. Rounds a 512-word
// tile over all passes, as lane_sum_rounds counts them.
double all_pass_rounds(std::vector<std::int64_t> target, u32 cap, u64 lane_words, u32 chains) {
  const u64 n = target.size(), warp_words = 32 * lane_words;
  const u64 tiles = (n + warp_words - 1) / warp_words;
  const u64 chunks = std::min<u64>(kDefaultWorkItems, (n + kChunk - 1) / kChunk);
  u32 passes = 1;
  for (u64 reach = cap + 1; reach < chunks; reach *= cap + 1) ++passes;
  std::vector<char> tile_left(tiles, 1);
  std::vector<u64> busy(chains);
  u64 rounds = 0;
  for (u32 pass = 0; pass < passes; ++pass) {
    const std::vector<std::int64_t> before = target;
    for (u64 tile = 0; tile < tiles; ++tile) {
      if (!tile_left[tile]) continue;
      u64 longest = 0;
      bool left = false;
      for (u64 lane = tile * warp_words; lane < std::min(n, (tile + 1) * warp_words);
           lane += lane_words) {
        std::fill(busy.begin(), busy.end(), 0);
        for (u64 i = lane; i < std::min(n, lane + lane_words); ++i) {
          if (target[i] == kLiteral) continue;
          u32 hops = 0;
          std::int64_t at = target[i];
          while (hops < cap && at != kLiteral) at = before[at], ++hops;
          // A link read to a byte ends the chain; the byte is what the word becomes.
          target[i] = at;
          left |= at != kLiteral;
          *std::min_element(busy.begin(), busy.end()) += hops;
        }
        longest = std::max(longest, *std::max_element(busy.begin(), busy.end()));
      }
      tile_left[tile] = left;
      rounds += longest + 1;  // and the tile's staging
    }
  }
  return static_cast<double>(rounds) / tiles * kTile / warp_words;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 4) {
    std::fprintf(stderr, "usage: lz77_jump_hops FILE [BYTES [OFFSET]]\n");
    return 2;
  }
  std::ifstream file(argv[1], std::ios::binary);
  if (!file) {
    std::fprintf(stderr, "lz77_jump_hops: cannot read %s\n", argv[1]);
    return 1;
  }
  const std::vector<std::uint8_t> all((std::istreambuf_iterator<char>(file)), {});
  const u64 offset = std::min<u64>(all.size(), argc > 3 ? std::stoull(argv[3]) : 0);
  const u64 bytes = std::min<u64>(all.size() - offset, argc > 2 ? std::stoull(argv[2]) : ~u64{0});
  const std::vector<std::uint8_t> in(all.begin() + offset, all.begin() + offset + bytes);
  const std::vector<std::int64_t> target = link_targets(in);
  const std::vector<u32> hops = hops_per_byte(target);

  u64 sum = 0, capped = 0, literal = 0, beyond = 0;
  for (const u32 h : hops) {
    sum += h;
    capped += reads(h);
    literal += h == 0;
    beyond += h > kHops;
  }
  const double n = static_cast<double>(std::max<u64>(1, hops.size()));
  std::printf("%s: %llu bytes from %llu; hops mean %.2f, 0 hops %.1f%%, over %u %.1f%%\n", argv[1],
              static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(offset),
              sum / n, 100 * literal / n, kHops, 100 * beyond / n);
  std::printf("dependent reads: a group of 128 words in lockstep %.2f (its longest), a word %.2f\n",
              lockstep_rounds(hops) / (kTile / kGroupWords), capped / n);
  std::printf("rounds a %llu-word tile: lockstep %.1f", static_cast<unsigned long long>(kTile),
              lockstep_rounds(hops));
  for (const u64 lane_words : {4, 8, 16, 32}) {
    for (const u32 chains : {4u, 8u}) {
      std::printf(" | %llu x %u: %.1f", static_cast<unsigned long long>(lane_words), chains,
                  lane_sum_rounds(hops, lane_words, chains));
    }
  }
  std::printf("\n");
  std::printf("rounds a %llu-word tile, every pass, 4 chains a lane (links a pass, lane words):",
              static_cast<unsigned long long>(kTile));
  for (const u32 cap : {8u, 16u, 32u}) {
    for (const u64 lane_words : {16, 32}) {
      std::printf(" | %u, %llu: %.1f", cap, static_cast<unsigned long long>(lane_words),
                  all_pass_rounds(target, cap, lane_words, 4));
    }
  }
  std::printf("\n");
  return 0;
}
