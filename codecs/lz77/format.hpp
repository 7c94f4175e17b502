#pragma once
// LZ77 payload (inside the gcbench container, format kContainerFormat): the thesis's triples,
// or wide ones.
//
//   u8   config               0 = thesis (4096 window, 16 look-ahead, 3-byte triples)
//                             1 = wide   (32768 window, 258 look-ahead, 4-byte triples)
//   u8   window_scope         0 = block (window reaches earlier chunks of the same block)
//                             1 = chunk (every chunk independent)
//   u32  chunk                bytes per work item (default 4096)
//   u32  work_items           chunks per launch block
//   u64  chunk_count          ceil(original_size / chunk)
//   u64  block_count          ceil(chunk_count / work_items)
//   u64  block_offsets[block_count + 1]   byte offset of each block's triples within the
//                             triple area; block_offsets[0] = 0, last = triple area size
//   u32  chunk_triples[chunk_count]       triples in each chunk
//   ..   triple area          all triples, chunk after chunk
//
// Triple (offset, length, next): offset = distance back to the match source (0 = no match),
// length = match length (0 or min_match..max_length), next = the byte after the match.
//   thesis: 3 bytes: b0 = offset & 0xFF, b1 = (offset >> 8) | (length << 4), b2 = next
//           offset 1..4095 (12 bits), length 3..15 (4 bits)
//   wide:   4 bytes, u32 LE = offset | (length << 15) | (next << 24)
//           offset 1..32767 (15 bits), length 3..257 (9 bits)
//
// Parsing rules (identical for every match finder and device, so triples are identical):
// - at position p of a chunk [cs, ce): the longest match of in[p..] against a source
//   s = p - d with 1 <= d <= max_offset and s >= window_start, where window_start is the
//   block's first byte (scope block) or cs (scope chunk); the source may overlap p
//   (overlapping copy). Its length is capped at min(max_length, ce - p - 1) so that the
//   match and its next byte end inside the chunk.
// - a match shorter than min_match (3) is coded as a literal (0, 0, in[p]).
// - among equally long matches the nearest (smallest d) wins.
// - the position then advances by length + 1.
//
// Decoders accept exactly the triples above: a literal is (0, 0, next), a match has
// 1 <= offset <= max_offset and min_match <= length <= max_length; anything else is rejected.
// The checks every decoder shares (header fields, tables, per-chunk triple counts) are
// parse_payload() in payload.hpp; triple packing is triple.hpp; decode.hpp decodes a chunk.
#include <cstdint>

#include "gcbench/container.hpp"

namespace gcbench::lz77 {

// LZ77's id in the container header (include/gcbench/container.hpp).
inline constexpr ContainerFormat kContainerFormat{3, "lz77"};

enum class Config : std::uint8_t { thesis = 0, wide = 1 };
enum class WindowScope : std::uint8_t { block = 0, chunk = 1 };

struct Geometry {
  std::uint32_t max_offset;  // largest distance a triple can code
  std::uint32_t max_length;  // longest match (look-ahead minus the next byte)
  std::uint32_t triple_bytes;
};

inline constexpr std::uint32_t kMinMatch = 3;
inline constexpr std::uint32_t kDefaultChunk = 4096;
inline constexpr std::uint32_t kDefaultWorkItems = 1024;

constexpr Geometry geometry(Config c) {
  return c == Config::thesis ? Geometry{4095, 15, 3} : Geometry{32767, 257, 4};
}

struct Triple {
  std::uint32_t offset;
  std::uint32_t length;
  std::uint8_t next;
};

}  // namespace gcbench::lz77
