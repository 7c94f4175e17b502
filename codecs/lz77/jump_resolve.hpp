#pragma once
// jump decoding's resolve passes, the part that is plain logic: what a lane does with its words
// (decompress_gpu.cu's resolve_kernel runs it on the GPU, tests/lz77_jump_resolve_test.cpp on
// the CPU) and how many passes resolve any chain. constexpr, so that device code can call it
// too (nvcc --expt-relaxed-constexpr).
//
// jump's link kernel writes a word per output byte: the byte itself, or kJumpLink | the position
// of its source where that lies in an earlier chunk (a copy within the chunk inherits its source's
// word), so a link's target always lies below the position of the word holding it. A resolve
// pass follows up to kHops links a word and writes back where it got.
#include <cstdint>

namespace gcbench::lz77 {

template <typename W>
inline constexpr W kJumpLink = W{1} << (8 * sizeof(W) - 1);

// Links a pass follows for one word: enough that real data needs one or two passes, few enough
// that a pass stays short where chains are long (a byte repeated over many chunks).
inline constexpr std::uint32_t kHops = 16;

// A pass works a tile of kJumpTile words a warp, each lane kJumpLaneWords of them in a row,
// following up to kJumpChains chains at once and taking the lane's next word as soon as one
// ends. A warp thus waits for its busiest lane's total of reads, not for the longest chain of
// every group of words: on Silesia a word needs 3-5 reads on average while nearly every 128 words
// hold a chain of 16 or more (bench/probes/lz77_jump_hops.cpp; notes/log.md, "Resolve passes
// that wait for the lane's sum").
inline constexpr std::uint32_t kJumpLaneWords = 16;
inline constexpr std::uint32_t kJumpChains = 4;
inline constexpr std::uint32_t kJumpTile = 32 * kJumpLaneWords;

// Passes that resolve any chain of a block of `chunks` chunks. A link drops to an earlier chunk of
// its block, so a chain has fewer hops than the block has chunks. If every link has advanced A
// hops along its chain after a pass, each of the next pass's kHops reads lands on a word that has
// advanced A hops too: (kHops + 1) A in all, and (kHops + 1)^p hops after p passes, whatever
// order the tiles of a pass run in.
constexpr std::uint32_t jump_passes(std::uint64_t chunks) {
  std::uint32_t passes = 1;
  for (std::uint64_t reach = kHops + 1; reach < chunks; reach *= kHops + 1) ++passes;
  return passes;
}

// One lane's words [begin, end) of its tile's `stage` (stage[i] is the word at position
// base + i) followed over at most kHops links each through `words`, kJumpChains chains at a
// time, and written back to the stage. The check that a target lies below the position read
// keeps a stray word from reading out of bounds, or in a circle, regardless. Returns whether a
// link is left among them; sets `moved` if any word advanced.
template <typename W>
constexpr bool follow_lane(const W* words, W* stage, W base, std::uint32_t begin, std::uint32_t end,
                           bool& moved) {
  constexpr W kLink = kJumpLink<W>;
  std::uint32_t next = begin;
  std::uint32_t idx[kJumpChains] = {}, hops[kJumpChains] = {};
  W w[kJumpChains] = {}, pos[kJumpChains] = {};
  // Chain k takes the lane's next link (its other words are bytes already), or ends (idx = end).
  auto take = [&](std::uint32_t k) {
    while (next < end && (stage[next] & kLink) == 0) ++next;
    idx[k] = next < end ? next++ : end;
    w[k] = idx[k] < end ? stage[idx[k]] : 0;
    pos[k] = base + idx[k];
    hops[k] = 0;
  };
  auto movable = [&](std::uint32_t k) {
    return (w[k] & kLink) && hops[k] < kHops && (w[k] & ~kLink) < pos[k];
  };
  for (std::uint32_t k = 0; k < kJumpChains; ++k) take(k);
  bool left = false;
  for (;;) {
    bool busy = false;
    for (std::uint32_t k = 0; k < kJumpChains; ++k) {
      // A chain that cannot move on is done: its word written back, the next link taken.
      while (idx[k] < end && !movable(k)) {
        stage[idx[k]] = w[k];
        left |= (w[k] & kLink) != 0;
        moved |= hops[k] > 0;
        take(k);
      }
      busy |= idx[k] < end;
    }
    if (!busy) return left;
    W read[kJumpChains] = {};
    for (std::uint32_t k = 0; k < kJumpChains; ++k) {  // the chains' reads, in flight together
      if (idx[k] < end) read[k] = words[w[k] & ~kLink];
    }
    for (std::uint32_t k = 0; k < kJumpChains; ++k) {
      if (idx[k] < end) pos[k] = w[k] & ~kLink, w[k] = read[k], ++hops[k];
    }
  }
}

}  // namespace gcbench::lz77
