#pragma once
// RLE payload (inside the gcbench container, format kContainerFormat): runs as counts and
// values.
//
//   u8   element_width        1, 2 or 4
//   u64  element_count        n = original_size / element_width
//   u8   tail_size            original_size % element_width bytes, stored verbatim next
//   ..   tail bytes
//   u64  run_count            R
//   u32  counts[R]            run lengths, each >= 1; a run longer than 2^32-1 elements is
//                             split into pieces of 2^32-1 followed by the remainder
//   ..   values[R]            element_width bytes each, little-endian
//
// Runs are maximal: two consecutive runs have different values unless the first was split
// because of the count limit. Decoders check sum(counts) == element_count.
#include <cstdint>

#include "gcbench/container.hpp"

namespace gcbench::rle {

// RLE's id in the container header (include/gcbench/container.hpp).
inline constexpr ContainerFormat kContainerFormat{2, "rle"};

// The largest value of one counts[] entry (not a limit on run_count).
inline constexpr std::uint64_t kMaxRunCount = 0xFFFFFFFFull;

}  // namespace gcbench::rle
