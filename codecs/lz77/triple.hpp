#pragma once
// Packing of one triple into its 3 (thesis) or 4 (wide) bytes, exactly as format.hpp lays it
// out. constexpr so that device code can use it too (nvcc --expt-relaxed-constexpr).
#include <cstdint>

#include "codecs/lz77/format.hpp"

namespace gcbench::lz77 {

// The triple's bytes as a little-endian word (the fourth byte is 0 for thesis).
constexpr std::uint32_t triple_word(Config config, const Triple& t) {
  if (config == Config::thesis) {
    return t.offset | (t.length << 12) | (std::uint32_t{t.next} << 16);
  }
  return t.offset | (t.length << 15) | (std::uint32_t{t.next} << 24);
}

constexpr void pack_triple(Config config, const Triple& t, std::uint8_t* dst) {
  const std::uint32_t word = triple_word(config, t);
  const int bytes = config == Config::thesis ? 3 : 4;
  for (int i = 0; i < bytes; ++i) dst[i] = static_cast<std::uint8_t>(word >> (8 * i));
}

// The triple of a little-endian word as triple_word() makes it.
constexpr Triple unpack_triple_word(Config config, std::uint32_t word) {
  if (config == Config::thesis) {
    return Triple{word & 0xFFF, (word >> 12) & 0xF, static_cast<std::uint8_t>(word >> 16)};
  }
  return Triple{word & 0x7FFF, (word >> 15) & 0x1FF, static_cast<std::uint8_t>(word >> 24)};
}

constexpr Triple unpack_triple(Config config, const std::uint8_t* src) {
  const int bytes = config == Config::thesis ? 3 : 4;
  std::uint32_t word = 0;
  for (int i = 0; i < bytes; ++i) word |= std::uint32_t{src[i]} << (8 * i);
  return unpack_triple_word(config, word);
}

// A triple the format can hold: a literal (0, 0, next), or a match with
// 1 <= offset <= max_offset and kMinMatch <= length <= max_length.
constexpr bool is_valid_triple(const Geometry& g, const Triple& t) {
  if (t.length == 0) return t.offset == 0;
  return t.offset >= 1 && t.offset <= g.max_offset && t.length >= kMinMatch &&
         t.length <= g.max_length;
}

}  // namespace gcbench::lz77
