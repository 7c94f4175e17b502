// Z-algorithm: for each position p, the Z-values of S = look-ahead + separator + window give
// the common prefix of the look-ahead with every window position, in O(m + n).
//
// S is never built: the look-ahead P = in[p, p+cap) and the text T = in[lo, p+cap-1) (the
// window plus the part of the look-ahead an overlapping match may read) are both contiguous in
// the input. The separator bounds every Z-value in T by cap, so a Z-box in T never reaches
// past cap characters and its inner lookups only need the Z-values of P.
#include <vector>

#include "codecs/lz77/finder.hpp"

namespace gcbench::lz77 {
namespace {

// z[k] = common prefix of P and P[k..] for 1 <= k < m (z[0] unused).
void z_of_pattern(const std::uint8_t* pat, std::uint32_t m, std::vector<std::uint32_t>& z) {
  z.assign(m, 0);
  std::uint32_t l = 0, r = 0;  // [l, r): the rightmost segment known to match a prefix
  for (std::uint32_t i = 1; i < m; ++i) {
    std::uint32_t k = i < r ? std::min(r - i, z[i - l]) : 0;
    while (i + k < m && pat[k] == pat[i + k]) ++k;
    z[i] = k;
    if (i + k > r) {
      l = i;
      r = i + k;
    }
  }
}

}  // namespace

void factorize_z(const ChunkTask& t, std::vector<Triple>& out) {
  std::vector<std::uint32_t> zp;
  factorize_with(t, out, [&](std::uint64_t p, std::uint32_t cap) {
    const std::uint8_t* pat = t.data + p;
    z_of_pattern(pat, cap, zp);
    const std::uint64_t lo = window_low(t, p);
    const std::uint8_t* text = t.data + lo;
    const std::uint64_t sources = p - lo;  // text positions that start a match
    Match best;
    std::uint64_t l = 0, r = 0;  // Z-box in the text: text[l, r) == pat[0, r - l)
    for (std::uint64_t i = 0; i < sources; ++i) {
      std::uint32_t k = 0;
      if (i < r) {
        k = static_cast<std::uint32_t>(std::min<std::uint64_t>(r - i, zp[i - l]));
      }
      if (i >= r || k == r - i) {  // at or past the box end: extend by comparison
        // text[i + k] exists while k < cap: the text runs cap - 1 bytes past the last source.
        while (k < cap && text[i + k] == pat[k]) ++k;
        if (i + k > r) {
          l = i;
          r = i + k;
        }
      }
      if (k > 0 && k >= best.length) {  // ties: the later source is nearer
        best = {k, static_cast<std::uint32_t>(p - (lo + i))};
      }
    }
    return best;
  });
}

}  // namespace gcbench::lz77
