#pragma once
// The match-finder interface: factorize one chunk into triples under the parsing rules of
// format.hpp. All finders give identical triples and differ only in speed. A call reads only
// the input (never earlier output), so chunks can be factorized in parallel.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "codecs/lz77/format.hpp"

namespace gcbench::lz77 {

enum class Finder : std::uint8_t { hash = 0, z = 1, brute = 2 };

// Chunk [begin, end) of `data` (the whole input); sources may start at window_start or later.
struct ChunkTask {
  const std::uint8_t* data;
  std::uint64_t window_start;
  std::uint64_t begin;
  std::uint64_t end;
  Geometry geometry;
};

// Appends the chunk's triples to `out`.
void factorize_brute(const ChunkTask& task, std::vector<Triple>& out);
void factorize_z(const ChunkTask& task, std::vector<Triple>& out);
void factorize_hash(const ChunkTask& task, std::vector<Triple>& out);

inline void factorize_chunk(Finder finder, const ChunkTask& task, std::vector<Triple>& out) {
  switch (finder) {
    case Finder::hash:
      return factorize_hash(task, out);
    case Finder::z:
      return factorize_z(task, out);
    case Finder::brute:
      return factorize_brute(task, out);
  }
}

// --- helpers shared by the finders ---

struct Match {
  std::uint32_t length = 0;
  std::uint32_t offset = 0;
};

// Lowest source position for a match at p.
inline std::uint64_t window_low(const ChunkTask& t, std::uint64_t p) {
  return p - std::min<std::uint64_t>(t.geometry.max_offset, p - t.window_start);
}

// The longest match a lookup at p may find (the match and its next byte end inside the chunk),
// or 0 where none is made: a cap below kMinMatch, or no source in the window.
inline std::uint32_t lookup_cap(const ChunkTask& t, std::uint64_t p) {
  const auto cap =
      static_cast<std::uint32_t>(std::min<std::uint64_t>(t.geometry.max_length, t.end - p - 1));
  return cap >= kMinMatch && window_low(t, p) < p ? cap : 0;
}

// Common prefix of a[0..cap) and b[0..cap), eight bytes at a time.
inline std::uint32_t common_prefix(const std::uint8_t* a, const std::uint8_t* b,
                                   std::uint32_t cap) {
  std::uint32_t n = 0;
  while (n + 8 <= cap) {
    std::uint64_t x = 0, y = 0;
    std::memcpy(&x, a + n, 8);
    std::memcpy(&y, b + n, 8);
    if (x != y) break;
    n += 8;
  }
  while (n < cap && a[n] == b[n]) ++n;
  return n;
}

// The parse loop every finder shares: at each position ask `longest(p, cap)` for the longest,
// nearest match of at most `cap` bytes (cap >= kMinMatch, and the window at p is non-empty),
// emit a triple and advance past the match and its next byte. Positions are visited in
// increasing order, which the hash finder relies on.
template <typename LongestMatch>
void factorize_with(const ChunkTask& t, std::vector<Triple>& out, LongestMatch&& longest) {
  for (std::uint64_t p = t.begin; p < t.end;) {
    const std::uint32_t cap = lookup_cap(t, p);
    Match m;
    if (cap != 0) m = longest(p, cap);
    if (m.length < kMinMatch) m = {};
    out.push_back(Triple{m.offset, m.length, t.data[p + m.length]});
    p += m.length + 1;
  }
}

}  // namespace gcbench::lz77
