#pragma once
// Device-side match finding under the parsing rules of format.hpp, shared by both GPU designs.
// Each function answers for one position: the longest match of ahead[0..cap) against the
// `window` bytes before it (nearest among equals), or a length below kMinMatch for none. The
// bytes may sit in global or shared memory; `ahead` must be readable up to ahead[cap - 1] and
// back to ahead[-window].
#include <cstdint>

#include "codecs/lz77/format.hpp"

namespace gcbench::lz77::gpu {

struct DevMatch {
  std::uint32_t length = 0;
  std::uint32_t offset = 0;
};

// Largest Z-algorithm pattern (the wide look-ahead); the thesis needs 15.
inline constexpr std::uint32_t kMaxPattern = 257;

// gzip's 3-byte hash with 12 bits (HSIZ = 4096, as the thesis and the CPU reference).
inline constexpr std::uint32_t kHashBits = 12;
inline constexpr std::uint32_t kHashSize = 1u << kHashBits;

__device__ __forceinline__ std::uint32_t hash3(const std::uint8_t* p) {
  constexpr std::uint32_t shift = (kHashBits + kMinMatch - 1) / kMinMatch;
  return ((std::uint32_t{p[0]} << (2 * shift)) ^ (std::uint32_t{p[1]} << shift) ^ p[2]) &
         (kHashSize - 1);
}

__device__ __forceinline__ std::uint32_t common_prefix(const std::uint8_t* a, const std::uint8_t* b,
                                                       std::uint32_t cap) {
  std::uint32_t n = 0;
  while (n < cap && a[n] == b[n]) ++n;
  return n;
}

// Offers the candidate `d` bytes back; keeps it only when strictly longer (callers visit
// candidates nearest first, so ties keep the nearer one). Returns true once cap is reached.
__device__ __forceinline__ bool offer(const std::uint8_t* ahead, std::uint32_t d, std::uint32_t cap,
                                      DevMatch& best) {
  const std::uint8_t* src = ahead - d;
  // A longer match must agree at index best.length; most candidates fail here.
  if (src[best.length] != ahead[best.length]) return false;
  const std::uint32_t n = common_prefix(src, ahead, cap);
  if (n > best.length) {
    best = {n, d};
    return n == cap;
  }
  return false;
}

// brute: every window position, nearest first.
__device__ inline DevMatch longest_brute(const std::uint8_t* ahead, std::uint32_t window,
                                         std::uint32_t cap) {
  DevMatch best;
  for (std::uint32_t d = 1; d <= window; ++d) {
    if (offer(ahead, d, cap, best)) break;
  }
  return best;
}

// z: the Z-algorithm over S = ahead[0..cap) + separator + (window bytes, then the first
// cap - 1 look-ahead bytes an overlapping match may read). Only the pattern's Z values are
// kept: a Z-box starting in the text never reaches past the separator, so its mirror index is
// always inside the pattern. Text Z values are consumed as they are computed, far to near;
// ">=" keeps the nearest of equally long matches.
__device__ inline DevMatch longest_z(const std::uint8_t* ahead, std::uint32_t window,
                                     std::uint32_t cap) {
  const std::uint32_t m = cap;
  const std::uint8_t* text = ahead - window;
  const std::uint32_t size = m + 1 + window + m - 1;
  // S[i] as a 9-bit symbol; 256 is the separator.
  auto sym = [&](std::uint32_t i) -> std::uint32_t {
    return i < m ? ahead[i] : i == m ? 256u : text[i - m - 1];
  };
  std::uint16_t zp[kMaxPattern];
  DevMatch best;
  std::uint32_t l = 0, r = 0;  // [l, r): rightmost segment known to equal a prefix of S
  for (std::uint32_t i = 1; i < m + 1 + window; ++i) {
    std::uint32_t k = 0;
    if (i < r) k = min(r - i, std::uint32_t{zp[i - l]});
    while (i + k < size && sym(k) == sym(i + k)) ++k;
    if (i + k > r) {
      l = i;
      r = i + k;
    }
    if (i < m) {
      zp[i] = static_cast<std::uint16_t>(k);
    } else if (i > m && k > 0 && k >= best.length) {
      best = {k, window - (i - m - 1)};
    }
  }
  return best;
}

}  // namespace gcbench::lz77::gpu
