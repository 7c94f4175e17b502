#pragma once
// The GPU LZ77 pipeline behind the codec class (lz77_gpu.cu): compression in two designs and
// decompression in two granularities. Both take a validated layout or payload from
// payload.hpp, so the host-side checks are the CPU reference's.
#include <cstdint>

#include "codecs/lz77/finder.hpp"
#include "codecs/lz77/payload.hpp"
#include "gcbench/codec.hpp"

namespace gcbench::lz77::gpu {

// thread: one GPU thread factorizes one chunk, one launch per launch block (the thesis).
// block: a thread block finds the longest match of every position of a 4 KiB tile in shared
// memory, then one thread per chunk walks the precomputed matches (the same greedy parse).
// warp: one warp per chunk parses and finds matches only at the positions the parse visits,
// 32 candidates at a time (hash and brute; z is rejected with ParamError).
enum class Design : std::uint8_t { thread = 0, block = 1, warp = 2 };

// block: one warp per launch block, chunk after chunk (the thesis's parallel decoder);
// chunk: one warp per chunk (window_scope = chunk containers only);
// jump: one warp per chunk for any container, bytes copied from earlier chunks left as links
// to their source, then resolved by pointer jumping (log2(work_items) passes at most);
// automatic picks chunk whenever the container allows it, else jump.
enum class DecodeMode : std::uint8_t { automatic = 0, block = 1, chunk = 2, jump = 3 };

// The payload (format.hpp) for `input`, byte-identical to the CPU reference's.
Bytes compress_payload(ByteSpan input, const Layout& layout, Finder finder, Design design,
                       RunStats* stats);

// The original bytes of a parsed payload. Throws DecodeError for triples that break the
// format (checked on the device), ParamError for mode = chunk on a window_scope = block payload.
Bytes decompress_payload(const ParsedPayload& payload, DecodeMode mode, RunStats* stats);

}  // namespace gcbench::lz77::gpu
