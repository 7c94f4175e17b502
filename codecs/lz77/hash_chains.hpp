#pragma once
// gzip-style chained hashing: head[] holds the newest position of each 3-byte hash, prev[]
// links each position to the previous one with the same hash. Every candidate with a match of
// kMinMatch or more bytes shares the hash, so walking the whole chain (newest first) until it
// leaves the window sees every position the other finders see. The hash finder asks it at the
// parse's positions; bench/probes/lz77_parse_convergence.cpp at every position.
#include <bit>
#include <cstdint>
#include <vector>

#include "codecs/lz77/finder.hpp"

namespace gcbench::lz77 {

inline constexpr std::uint32_t kHashBits = 12;  // HSIZ = 4096, as in the thesis
inline constexpr std::uint32_t kHashShift =
    (kHashBits + kMinMatch - 1) / kMinMatch;  // gzip's H_SHIFT

inline std::uint32_t hash3(const std::uint8_t* p) {
  return ((std::uint32_t{p[0]} << (2 * kHashShift)) ^ (std::uint32_t{p[1]} << kHashShift) ^ p[2]) &
         ((1u << kHashBits) - 1);
}

// The longest, nearest match at increasing positions of one chunk.
class HashChains {
 public:
  explicit HashChains(const ChunkTask& t)
      : t_(t),
        base_(window_low(t, t.begin)),
        next_insert_(base_),
        // DSIZ: 4096 for the thesis window; a slot is reused only once its position has left
        // the window, so a chain never follows a stale link.
        prev_mask_(std::bit_ceil(t.geometry.max_offset + 1) - 1),
        head_(std::size_t{1} << kHashBits, 0),
        prev_(prev_mask_ + 1, 0) {}

  Match longest(std::uint64_t p, std::uint32_t cap) {
    insert_before(p);
    const std::uint64_t lo = window_low(t_, p);
    const std::uint8_t* ahead = t_.data + p;
    Match best;
    for (std::uint32_t link = head_[hash3(ahead)]; link != 0;
         link = prev_[(link - 1) & prev_mask_]) {
      const std::uint64_t s = base_ + link - 1;
      if (s < lo) break;  // chains run newest first: the rest is outside the window too
      if (t_.data[s + best.length] != ahead[best.length]) continue;
      const std::uint32_t n = common_prefix(t_.data + s, ahead, cap);
      if (n > best.length) {  // strictly longer: ties keep the nearer one
        best = {n, static_cast<std::uint32_t>(p - s)};
        if (n == cap) break;
      }
    }
    return best;
  }

 private:
  // Inserts every position passed since the last call, starting with the preceding data of
  // the block inside the window. Reading 3 bytes at q < p is in bounds: cap >= 3 at p.
  void insert_before(std::uint64_t p) {
    for (; next_insert_ < p; ++next_insert_) {
      const std::uint32_t h = hash3(t_.data + next_insert_);
      // Links are positions relative to base_ plus one, so 0 ends a chain.
      const auto link = static_cast<std::uint32_t>(next_insert_ - base_ + 1);
      prev_[(link - 1) & prev_mask_] = head_[h];
      head_[h] = link;
    }
  }

  const ChunkTask& t_;
  std::uint64_t base_;
  std::uint64_t next_insert_;
  std::uint32_t prev_mask_;
  std::vector<std::uint32_t> head_;
  std::vector<std::uint32_t> prev_;
};

}  // namespace gcbench::lz77
