// Brute force: compare the look-ahead against every window position, nearest first.
#include "codecs/lz77/finder.hpp"

namespace gcbench::lz77 {

void factorize_brute(const ChunkTask& t, std::vector<Triple>& out) {
  factorize_with(t, out, [&](std::uint64_t p, std::uint32_t cap) {
    const std::uint8_t* ahead = t.data + p;
    Match best;
    for (std::uint64_t s = p - 1;; --s) {
      // A candidate must agree at the byte that would make it longer than the best so far;
      // this skips most positions without changing which one wins.
      if (t.data[s + best.length] == ahead[best.length]) {
        const std::uint32_t n = common_prefix(t.data + s, ahead, cap);
        if (n > best.length) {  // strictly longer: ties keep the nearer one
          best = {n, static_cast<std::uint32_t>(p - s)};
          if (n == cap) break;
        }
      }
      if (s == window_low(t, p)) break;
    }
    return best;
  });
}

}  // namespace gcbench::lz77
