// What LZ77's jump decoding waits on in its resolve passes (issue 65): jump's link kernel writes
// a word per byte, the byte itself or a link to its source where that lies in an earlier chunk (a
// copy within the chunk inherits its source's word), and each resolve pass follows up to kHops
// = 16 links a word. For each file (thesis geometry, chunks of 4096 bytes, window scope block
// over 1024 chunks, the GPU codec's defaults): how many links lie between each byte and its
// literal, and the dependent reads a pass costs a 512-word warp tile when lanes follow four
// words at a time in lockstep (each group of 128 words costs its longest chain, capped, plus
// the first read) against lanes that own L words in a row and follow C chains at once, taking
// their next word as soon as one ends (the warp costs its busiest lane's sum):
// codecs/lz77/decompress_gpu.cu's resolve_kernel, before and after that change.
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

// Links between each byte and its literal, as jump's words chain them.
std::vector<u32> hops_per_byte(const std::vector<std::uint8_t>& in) {
  std::vector<u32> hops(in.size(), 0);
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
        hops[p] = source >= begin ? hops[source] : hops[source] + 1;
      }
      hops[p++] = 0;  // the triple's next byte, a literal
    }
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
  const std::vector<u32> hops = hops_per_byte(in);

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
  return 0;
}
