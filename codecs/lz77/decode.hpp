#pragma once
// LZ77 decompression of a validated payload. Both entry points write identical output; the
// benchmark times them separately (the codec's `decode_mode` axis picks one).
#include <cstdint>

#include "codecs/lz77/payload.hpp"

namespace gcbench::lz77 {

// Decodes chunk c into out[chunk_begin(c), chunk_end(c)) of the whole output `out`. Reads
// earlier output of the chunk's window, which must already be decoded. Throws DecodeError
// for a triple the format cannot hold, a copy reaching before the window or past the chunk,
// or a chunk whose triples do not produce exactly its length.
void decode_chunk(const ParsedPayload& payload, std::uint64_t c, std::uint8_t* out);

// Both decode the whole payload into `out` (layout.original_size bytes).
// One pass over all chunks in order, on the calling thread.
void decode_sequential(const ParsedPayload& payload, std::uint8_t* out);

// OpenMP over blocks (window_scope block) or over chunks (window_scope chunk, whose chunks
// are independent); threads = 1 runs the same loop on one thread.
void decode_parallel(const ParsedPayload& payload, int threads, std::uint8_t* out);

}  // namespace gcbench::lz77
