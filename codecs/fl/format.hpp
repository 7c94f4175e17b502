#pragma once
// FL payload (inside the gcbench container, format kContainerFormat): fixed-length bit-packing
// per frame.
//
//   u8   element_width        1, 2 or 4
//   u32  frame_size           elements per frame
//   u64  element_count        n = original_size / element_width
//   u8   tail_size            original_size % element_width bytes, stored verbatim next
//   ..   tail bytes
//   u8   bits[frames]         frames = ceil(n / frame_size); bits[f] = max bit width in frame f,
//                             at least 1 (a value of 0 needs 1 bit), at most 8*element_width
//   u32  words[]              packed values, LSB first in little-endian 32-bit words;
//                             frame f starts at bit exclusive_scan(bits[f] * frame_len(f)),
//                             element j of frame f at start + j*bits[f]; a value may straddle
//                             two words. words = ceil(total_bits / 32); unused bits are 0.
//
// All integers little-endian. The values are the input read as little-endian unsigned ints.
#include <cstdint>

#include "gcbench/container.hpp"

namespace gcbench::fl {

// FL's id in the container header (include/gcbench/container.hpp).
inline constexpr ContainerFormat kContainerFormat{1, "fl"};

inline constexpr std::uint32_t kDefaultFrameSize = 1024;
inline constexpr std::uint32_t kMinFrameSize = 1;
inline constexpr std::uint32_t kMaxFrameSize = 1u << 24;
inline constexpr std::size_t kFixedHeaderSize = 1 + 4 + 8 + 1;

// Bits needed for v, with 0 needing 1 bit (bits[] above).
constexpr std::uint32_t bit_width_of(std::uint32_t v) {
  std::uint32_t b = 1;
  while (b < 32 && (v >> b) != 0) ++b;
  return b;
}

}  // namespace gcbench::fl
