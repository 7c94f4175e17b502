// How far apart LZ77's greedy parse could run in parallel (issue 65, compression): a parse
// started anywhere in a chunk soon lands on a position of the true parse (from the chunk's
// start) and from there visits the same positions, so S parses of a chunk, each started at
// one S-th of it and run until it meets the next one's path, give the chunk's triples with a
// critical path of the longest of them. For each file (thesis geometry, chunks of 4096 bytes,
// window scope block over 1024 chunks, the GPU codec's defaults): the steps a late start takes
// to meet the true parse, and the parse steps per chunk alone against S parallel parses.
// Match lengths come from the hash finder's chains (codecs/lz77/hash_chains.hpp), asked at
// every position; the parse they give is checked against the hash finder's, chunk by chunk.
//
// usage: lz77_parse_convergence FILE...
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>

#include "codecs/lz77/hash_chains.hpp"

namespace {

using gcbench::lz77::ChunkTask;
using u64 = std::uint64_t;

constexpr u64 kChunk = gcbench::lz77::kDefaultChunk;
constexpr u64 kWorkItems = gcbench::lz77::kDefaultWorkItems;
constexpr std::array<u64, 4> kParses = {2, 4, 8, 16};
constexpr int kMaxSteps = 64;

struct Totals {
  u64 bytes = 0, triples = 0, starts = 0, unmet = 0;
  std::array<u64, kMaxSteps + 1> steps_to_meet{};  // late starts by steps (kMaxSteps: more)
  std::array<u64, kParses.size()> critical{};      // sum over chunks of the longest parse
};

// next[i] for the chunk's positions: where the greedy parse goes after position begin + i.
std::vector<std::uint32_t> next_positions(const ChunkTask& t) {
  gcbench::lz77::HashChains chains(t);
  std::vector<std::uint32_t> next(t.end - t.begin);
  for (u64 p = t.begin; p < t.end; ++p) {
    const auto cap =
        static_cast<std::uint32_t>(std::min<u64>(t.geometry.max_length, t.end - p - 1));
    std::uint32_t length = 0;
    if (cap >= gcbench::lz77::kMinMatch && gcbench::lz77::window_low(t, p) < p) {
      length = chains.longest(p, cap).length;
    }
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

void chunk_figures(const std::vector<std::uint32_t>& next, Totals& totals) {
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
  // S parses: parse k from k * n / S until it reaches a position the parse k + 1 visits (the
  // last to the chunk's end); the chunk takes as long as the longest.
  std::vector<std::uint8_t> visited(n + 1);
  for (std::size_t i = 0; i < kParses.size(); ++i) {
    const u64 parses = kParses[i];
    u64 longest = 0;
    std::fill(visited.begin(), visited.end(), 0);
    for (u64 k = parses; k-- > 0;) {  // from the last: each stops on its successor's path
      const auto start = static_cast<std::uint32_t>(k * n / parses);
      std::vector<std::uint8_t> mine(n + 1, 0);
      u64 steps = 0;
      for (std::uint32_t p = start; p < n && !(k + 1 < parses && visited[p]); p = next[p]) {
        mine[p] = 1;
        ++steps;
      }
      for (std::uint32_t p = 0; p < n; ++p) visited[p] = mine[p] || (visited[p] && p >= start);
      longest = std::max(longest, steps);
    }
    totals.critical[i] += longest;
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
    const gcbench::lz77::Geometry geo = gcbench::lz77::geometry(gcbench::lz77::Config::thesis);
    for (u64 begin = 0; begin < data.size(); begin += kChunk) {
      const u64 window_start = begin / (kChunk * kWorkItems) * (kChunk * kWorkItems);
      const ChunkTask task{data.data(), window_start, begin,
                           std::min<u64>(begin + kChunk, data.size()), geo};
      const std::vector<std::uint32_t> next = next_positions(task);
      if (!same_parse(task, next)) {
        std::fprintf(stderr, "%s: chunk at %llu parses unlike the hash finder\n", argv[f],
                     static_cast<unsigned long long>(begin));
        return 1;
      }
      chunk_figures(next, totals);
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
  std::printf("parse steps on the critical path, all chunks (1 parse: %llu):\n",
              static_cast<unsigned long long>(totals.triples));
  for (std::size_t i = 0; i < kParses.size(); ++i) {
    std::printf("  %2llu parses a chunk: %llu, %.2fx fewer\n",
                static_cast<unsigned long long>(kParses[i]),
                static_cast<unsigned long long>(totals.critical[i]),
                static_cast<double>(totals.triples) / static_cast<double>(totals.critical[i]));
  }
}
