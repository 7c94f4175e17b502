#pragma once
// The thesis's ratio basis: the triples of an LZ77 container split into three
// streams - offsets (high and low byte, each with its own model), lengths, next bytes - each
// coded with the adaptive order-0 range coder.
//
// Coded layout (all little-endian):
//   u8   config               as in the LZ77 payload (decides the triple packing)
//   u64  triple_count
//   u64  size of the offsets stream, u64 of the lengths stream, u64 of the next-bytes stream
//   ..   the three streams, in that order
// The container's block and chunk tables are not coded: the size counts the triples only,
// as the thesis did.
#include <cstdint>

#include "gcbench/bytes.hpp"

namespace gcbench::lz77 {

inline constexpr std::uint64_t kEntropyStreamsHeaderSize = 1 + 8 + 3 * 8;

// Codes the triples of an LZ77 container (DecodeError if it is not a valid one).
Bytes entropy_encode(ByteSpan lz77_container);

// The size of entropy_encode's output: what the thesis-style tables report.
std::uint64_t entropy_size(ByteSpan lz77_container);

// Decodes the streams back into the container's triple area (packed as in format.hpp).
// Throws DecodeError for anything entropy_encode cannot have written.
Bytes entropy_decode(ByteSpan coded);

}  // namespace gcbench::lz77
