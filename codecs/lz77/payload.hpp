#pragma once
// Writing and validating the LZ77 payload (layout in format.hpp). Shared by the CPU reference
// and any other implementation, so that every decoder applies the same checks.
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "codecs/lz77/format.hpp"
#include "codecs/lz77/params.hpp"
#include "gcbench/bytes.hpp"

namespace gcbench::lz77 {

// Ranges the codec's axes accept; a payload outside them is rejected as hostile.
inline constexpr std::uint32_t kMinChunk = 64;
inline constexpr std::uint32_t kMaxChunk = 1u << 20;
inline constexpr std::uint32_t kMaxWorkItems = 1u << 20;
// config, window_scope, chunk, work_items, chunk_count, block_count.
inline constexpr std::uint64_t kPayloadFixedSize = 1 + 1 + 4 + 4 + 8 + 8;

// How a file of `original_size` bytes is cut into chunks and launch blocks.
struct Layout {
  Config config = Config::thesis;
  WindowScope scope = WindowScope::block;
  std::uint32_t chunk = kDefaultChunk;
  std::uint32_t work_items = kDefaultWorkItems;
  std::uint64_t original_size = 0;
  std::uint64_t chunk_count = 0;
  std::uint64_t block_count = 0;

  Geometry geo() const { return geometry(config); }
  std::uint64_t chunk_begin(std::uint64_t c) const { return c * chunk; }
  std::uint64_t chunk_end(std::uint64_t c) const {
    return std::min<std::uint64_t>((c + 1) * chunk, original_size);
  }
  std::uint64_t first_chunk_of_block(std::uint64_t b) const { return b * work_items; }
  std::uint64_t chunk_end_of_block(std::uint64_t b) const {
    return std::min<std::uint64_t>((b + 1) * work_items, chunk_count);
  }
  // First byte a match in chunk c may copy from.
  std::uint64_t window_start(std::uint64_t c) const {
    return scope == WindowScope::block ? chunk_begin(c / work_items * work_items) : chunk_begin(c);
  }
};

// Throws ParamError for chunk or work_items outside the accepted ranges.
Layout make_layout(std::uint64_t original_size, Config config, WindowScope scope,
                   std::uint32_t chunk, std::uint32_t work_items);

// The layout for the format parameters: the one place where the CPU and GPU codecs turn their
// axes into a layout.
Layout layout_for(std::uint64_t original_size, const FormatParams& format);

// Worst case: one triple per input byte.
std::uint64_t max_payload_size(const Layout& layout);

// The kPayloadFixedSize bytes that start every payload (config ... block_count).
Bytes payload_fixed_fields(const Layout& layout);

// Everything before the triple area, for `chunk_triples[c]` triples in chunk c; appending the
// triples chunk after chunk completes the payload.
Bytes payload_head(const Layout& layout, std::span<const std::uint32_t> chunk_triples);

// The whole payload, with the triples stored back to back in `triple_area`.
Bytes build_payload(const Layout& layout, std::span<const std::uint32_t> chunk_triples,
                    ByteSpan triple_area);

// A validated payload. Every field is consistent with the others and with the original size:
// block offsets match the chunks' triple counts, every chunk holds between
// ceil(len / (max_length + 1)) and len triples, so the output size is bounded by the payload.
struct ParsedPayload {
  Layout layout;
  std::vector<std::uint64_t> block_offsets;       // block_count + 1, bytes into `triples`
  std::vector<std::uint64_t> chunk_first_triple;  // chunk_count + 1, prefix sum of counts
  ByteSpan triples;                               // the triple area

  std::uint64_t triple_count(std::uint64_t c) const {
    return chunk_first_triple[c + 1] - chunk_first_triple[c];
  }
  const std::uint8_t* chunk_triples(std::uint64_t c) const {
    return triples.data() + chunk_first_triple[c] * layout.geo().triple_bytes;
  }
};

// Throws DecodeError naming the first inconsistent field. The triples themselves are checked
// while decoding (decode.hpp).
ParsedPayload parse_payload(ByteSpan payload, std::uint64_t original_size);

}  // namespace gcbench::lz77
