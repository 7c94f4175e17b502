#include "codecs/lz77/decode.hpp"

#include <string>

#include "codecs/common/parallel.hpp"
#include "codecs/lz77/triple.hpp"
#include "gcbench/errors.hpp"

namespace gcbench::lz77 {
namespace {

[[noreturn]] void reject(std::uint64_t c, std::uint64_t i, const std::string& what) {
  throw DecodeError("lz77 chunk " + std::to_string(c) + " triple " + std::to_string(i) + ": " +
                    what);
}

}  // namespace

void decode_chunk(const ParsedPayload& payload, std::uint64_t c, std::uint8_t* out) {
  const Layout& l = payload.layout;
  const Geometry g = l.geo();
  const std::uint64_t window_start = l.window_start(c);
  const std::uint64_t end = l.chunk_end(c);
  const std::uint64_t count = payload.triple_count(c);
  const std::uint8_t* src = payload.chunk_triples(c);
  std::uint64_t pos = l.chunk_begin(c);
  for (std::uint64_t i = 0; i < count; ++i, src += g.triple_bytes) {
    const Triple t = unpack_triple(l.config, src);
    if (!is_valid_triple(g, t)) {
      reject(c, i,
             "invalid (offset " + std::to_string(t.offset) + ", length " +
                 std::to_string(t.length) + ")");
    }
    if (end - pos < std::uint64_t{t.length} + 1) reject(c, i, "runs past the end of its chunk");
    if (t.offset > pos - window_start) reject(c, i, "offset reaches before its window");
    // Byte by byte: the source may overlap the bytes being written.
    for (std::uint32_t k = 0; k < t.length; ++k) out[pos + k] = out[pos + k - t.offset];
    pos += t.length;
    out[pos++] = t.next;
  }
  if (pos != end) reject(c, count, "chunk ends " + std::to_string(end - pos) + " bytes short");
}

void decode_sequential(const ParsedPayload& payload, std::uint8_t* out) {
  for (std::uint64_t c = 0; c < payload.layout.chunk_count; ++c) decode_chunk(payload, c, out);
}

void decode_parallel(const ParsedPayload& payload, int threads, std::uint8_t* out) {
  const Layout& l = payload.layout;
  if (l.scope == WindowScope::chunk) {
    parallel_for(l.chunk_count, threads, [&](std::uint64_t c) { decode_chunk(payload, c, out); });
  } else {
    parallel_for(l.block_count, threads, [&](std::uint64_t b) {
      for (std::uint64_t c = l.first_chunk_of_block(b); c < l.chunk_end_of_block(b); ++c) {
        decode_chunk(payload, c, out);
      }
    });
  }
}

}  // namespace gcbench::lz77
