// How far apart LZ77's greedy parse could run in parallel (issue 65, compression): a parse
// started anywhere in a chunk soon lands on a position of the true parse (from the chunk's
// start) and from there visits the same positions, so S parses of a chunk, each started at
// one S-th of it and run until it meets the next one's path, give the chunk's triples with a
// critical path of the longest of them. For each file (thesis geometry, chunks of 4096 bytes,
// window scope block over 1024 chunks, the GPU codec's defaults): the steps a late start takes
// to meet the true parse, and for the warp design's segments of 1024 positions, one parse of
// 32 lanes against S parses of 32 / S lanes run in lockstep rounds: the rounds, and the lookup
// iterations on the critical path (a round costs its slowest parse's lookup; a lookup tests
// its lanes' count of candidates of its bucket an iteration, nearest first, until one reaches
// the cap or none is left: warp_design.cuh's longest_hash).
// Match lengths come from the hash finder's chains (codecs/lz77/hash_chains.hpp), asked at
// every position; the parse they give is checked against the hash finder's, chunk by chunk.
//
// usage: lz77_parse_convergence FILE...
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include "codecs/lz77/hash_chains.hpp"
#include "codecs/lz77/payload.hpp"
#include "codecs/lz77/warp_bucket.hpp"

namespace {

using gcbench::lz77::ChunkTask;
using u64 = std::uint64_t;

constexpr std::uint32_t kChunk = gcbench::lz77::kDefaultChunk;
constexpr std::uint32_t kWorkItems = gcbench::lz77::kDefaultWorkItems;
constexpr u64 kSegment = 1024;  // warp_design.cuh's kSegment
// Parses a warp and the lanes of each lookup: 32 / S lanes each, or all 32 each, the parses'
// lookups interleaved in every thread (independent chains of instructions).
struct Split {
  std::uint32_t parses, lanes;
};
constexpr std::array<Split, 6> kSplits = {{{1, 32}, {2, 16}, {4, 8}, {8, 4}, {2, 32}, {4, 32}}};
constexpr std::uint32_t kBucketBits = gcbench::lz77::kWarpBucketBits;
constexpr int kMaxSteps = 64;

// The indexes a lookup walks: warp_design.cuh's buckets of a 10-bit multiplicative hash, the
// buckets of the shifts and XORs it used before (the first byte's low 2 bits only), and one
// whose buckets hold the positions of equal first 3 bytes only (no candidate rejected at once).
enum Index { kMultiplicative, kShiftXor, kExactKeys, kIndexes };
constexpr const char* kIndexNames[kIndexes] = {"10-bit multiplicative hash (today's index)",
                                               "10-bit shifts and XORs",
                                               "exact 3-byte keys"};

struct Totals {
  u64 bytes = 0, triples = 0, starts = 0, unmet = 0;
  std::array<u64, kMaxSteps + 1> steps_to_meet{};  // late starts by steps (kMaxSteps: more)
  std::array<std::array<u64, kSplits.size()>, kIndexes> rounds{}, iterations{};  // critical path
};

// Per chunk position: the candidates a lookup there tests, nearest first, before one reaches
// the cap (all of its bucket in the window when none does).
std::vector<std::uint32_t> candidates_tested(const ChunkTask& t, Index index) {
  auto bucket = [&](u64 p) {
    const std::uint8_t* b = t.data + p;
    if (index == kShiftXor) {
      constexpr std::uint32_t shift = (kBucketBits + gcbench::lz77::kMinMatch - 1) / 3;
      return ((std::uint32_t{b[0]} << (2 * shift)) ^ (std::uint32_t{b[1]} << shift) ^ b[2]) &
             ((1u << kBucketBits) - 1);
    }
    return gcbench::lz77::warp_bucket(b[0] | (std::uint32_t{b[1]} << 8) |
                                      (std::uint32_t{b[2]} << 16));
  };
  const u64 base = gcbench::lz77::window_low(t, t.begin);
  std::vector<std::int64_t> head(std::size_t{1} << kBucketBits, -1), prev(t.end - base, -1);
  std::vector<std::uint32_t> tested(t.end - t.begin, 0);
  // Up to the last position a lookup can be made at (bucket() reads 3 bytes).
  for (u64 q = base; q + gcbench::lz77::kMinMatch < t.end; ++q) {
    const std::uint32_t h = bucket(q);
    if (const std::uint32_t cap = q >= t.begin ? gcbench::lz77::lookup_cap(t, q) : 0; cap != 0) {
      std::uint32_t n = 0;
      for (std::int64_t s = head[h]; s >= 0 && base + s >= gcbench::lz77::window_low(t, q);
           s = prev[s]) {
        if (index == kExactKeys && std::memcmp(t.data + base + s, t.data + q, 3) != 0) continue;
        ++n;
        if (gcbench::lz77::common_prefix(t.data + base + s, t.data + q, cap) == cap) break;
      }
      tested[q - t.begin] = n;
    }
    prev[q - base] = head[h];
    head[h] = static_cast<std::int64_t>(q - base);
  }
  return tested;
}

// next[i] for the chunk's positions: where the greedy parse goes after position begin + i.
std::vector<std::uint32_t> next_positions(const ChunkTask& t) {
  gcbench::lz77::HashChains chains(t);
  std::vector<std::uint32_t> next(t.end - t.begin);
  for (u64 p = t.begin; p < t.end; ++p) {
    const std::uint32_t cap = gcbench::lz77::lookup_cap(t, p);
    std::uint32_t length = cap != 0 ? chains.longest(p, cap).length : 0;
    if (length < gcbench::lz77::kMinMatch) length = 0;
    next[p - t.begin] = static_cast<std::uint32_t>(p - t.begin + length + 1);
  }
  return next;
}

// False where the positions `next` parses differ from the hash finder's triples.
bool same_parse(const ChunkTask& t, const std::vector<std::uint32_t>& next) {
  std::vector<gcbench::lz77::Triple> triples;
  gcbench::lz77::factorize_hash(t, triples);
  std::uint32_t p = 0;
  for (const gcbench::lz77::Triple& triple : triples) {
    if (p >= next.size() || next[p] != p + triple.length + 1) return false;
    p = next[p];
  }
  return p == next.size();
}

// The triples, and how soon late starts meet the true parse.
void convergence_figures(const std::vector<std::uint32_t>& next, Totals& totals) {
  const auto n = static_cast<std::uint32_t>(next.size());
  std::vector<std::uint8_t> on_parse(n + 1, 0);
  u64 triples = 0;
  for (std::uint32_t p = 0; p < n; p = next[p]) on_parse[p] = 1, ++triples;
  totals.triples += triples;
  // A late start every 64 bytes: steps until it lands on the true parse.
  for (std::uint32_t s = 64; s < n; s += 64) {
    int steps = 0;
    std::uint32_t p = s;
    while (p < n && !on_parse[p] && steps < kMaxSteps) p = next[p], ++steps;
    ++totals.starts;
    if (p >= n) {
      ++totals.unmet;  // ran off the chunk's end first
    } else {
      ++totals.steps_to_meet[steps];
    }
  }
}

void split_figures(const std::vector<std::uint32_t>& next, const std::vector<std::uint32_t>& tested,
                   Index index, Totals& totals) {
  const auto n = static_cast<std::uint32_t>(next.size());
  // Each segment as the warp design cuts it (from the parse's position, kSegment positions),
  // by S parses in lockstep rounds (kSplits): parse k from k / S of the segment, until it
  // lands on a position another parse visited or leaves the segment.
  std::vector<std::uint8_t> visited(n + 1);
  for (std::uint32_t a = 0; a < n;) {
    const std::uint32_t b = std::min<std::uint32_t>(a + kSegment, n);
    for (std::size_t i = 0; i < kSplits.size(); ++i) {
      const auto [parses, lanes] = kSplits[i];
      std::fill(visited.begin() + a, visited.begin() + b, 0);
      std::vector<std::uint32_t> at(parses);
      for (std::uint32_t k = 0; k < parses; ++k) at[k] = a + k * (b - a) / parses;
      std::vector<bool> live(parses, true);
      for (;;) {
        std::uint32_t slowest = 0;
        bool any = false;
        for (std::uint32_t k = 0; k < parses; ++k) {
          if (!live[k]) continue;
          any = true;
          slowest = std::max(slowest, std::max(1u, (tested[at[k]] + lanes - 1) / lanes));
          visited[at[k]] = 1;
        }
        if (!any) break;
        ++totals.rounds[index][i];
        totals.iterations[index][i] += slowest;
        // A parse stops on a visited position (the rest of its path is known), or on the one
        // another parse just reached (the later of the two stops).
        for (std::uint32_t k = 0; k < parses; ++k) {
          if (live[k]) at[k] = next[at[k]];
        }
        for (std::uint32_t k = parses; k-- > 0;) {
          if (!live[k]) continue;
          bool shared = false;
          for (std::uint32_t j = 0; j < k; ++j) shared = shared || (live[j] && at[j] == at[k]);
          live[k] = at[k] < b && !visited[at[k]] && !shared;
        }
      }
    }
    std::uint32_t p = a;  // the next segment starts where the parse leaves this one
    while (p < b) p = next[p];
    a = p;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE...\n", argv[0]);
    return 2;
  }
  Totals totals;
  for (int f = 1; f < argc; ++f) {
    std::ifstream in(argv[f], std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "%s: cannot read\n", argv[f]);
      return 1;
    }
    const std::vector<std::uint8_t> data((std::istreambuf_iterator<char>(in)), {});
    const gcbench::lz77::Layout l =
        gcbench::lz77::make_layout(data.size(), gcbench::lz77::Config::thesis,
                                   gcbench::lz77::WindowScope::block, kChunk, kWorkItems);
    for (u64 c = 0; c < l.chunk_count; ++c) {
      const ChunkTask task{data.data(), l.window_start(c), l.chunk_begin(c), l.chunk_end(c),
                           l.geo()};
      const std::vector<std::uint32_t> next = next_positions(task);
      if (!same_parse(task, next)) {
        std::fprintf(stderr, "%s: chunk at %llu parses unlike the hash finder\n", argv[f],
                     static_cast<unsigned long long>(task.begin));
        return 1;
      }
      convergence_figures(next, totals);
      for (Index index : {kMultiplicative, kShiftXor, kExactKeys}) {
        split_figures(next, candidates_tested(task, index), index, totals);
      }
    }
    totals.bytes += data.size();
  }
  std::printf("%llu bytes, %llu triples (%.2f bytes a triple), chunks of %llu bytes\n",
              static_cast<unsigned long long>(totals.bytes),
              static_cast<unsigned long long>(totals.triples),
              static_cast<double>(totals.bytes) / static_cast<double>(totals.triples),
              static_cast<unsigned long long>(kChunk));
  std::printf("a late start meets the true parse within k steps (%llu starts, every 64 bytes):\n",
              static_cast<unsigned long long>(totals.starts));
  u64 met = 0;
  for (int k = 0; k < kMaxSteps; ++k) {
    met += totals.steps_to_meet[k];
    if (k <= 8 || k == 16 || k == 32 || k == kMaxSteps - 1) {
      std::printf("  %2d  %6.2f%%\n", k,
                  100.0 * static_cast<double>(met) / static_cast<double>(totals.starts));
    }
  }
  std::printf("  not within %d: %.2f%% (of which at the chunk's end first: %.2f%%)\n",
              kMaxSteps - 1,
              100.0 - 100.0 * static_cast<double>(met) / static_cast<double>(totals.starts),
              100.0 * static_cast<double>(totals.unmet) / static_cast<double>(totals.starts));
  for (int index = 0; index < kIndexes; ++index) {
    const auto& rounds = totals.rounds[index];
    const auto& iterations = totals.iterations[index];
    std::printf("segments of %llu positions, %s: on the critical path\n",
                static_cast<unsigned long long>(kSegment), kIndexNames[index]);
    for (std::size_t i = 0; i < kSplits.size(); ++i) {
      std::printf(
          "  %u parses of %2u lanes: %9llu rounds (%.2fx fewer), %9llu lookup iterations "
          "(%.2fx fewer)\n",
          kSplits[i].parses, kSplits[i].lanes, static_cast<unsigned long long>(rounds[i]),
          static_cast<double>(rounds[0]) / static_cast<double>(rounds[i]),
          static_cast<unsigned long long>(iterations[i]),
          static_cast<double>(totals.iterations[0][0]) / static_cast<double>(iterations[i]));
    }
  }
  std::printf("(fewer: against one parse of 32 lanes on today's index)\n");
}
