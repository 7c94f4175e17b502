#include "codecs/lz77/payload.hpp"

#include <string>

#include "gcbench/errors.hpp"

namespace gcbench::lz77 {
namespace {

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) {
  return a / b + (a % b != 0);
}

[[noreturn]] void reject(const std::string& what) {
  throw DecodeError("lz77 payload: " + what);
}

}  // namespace

Layout make_layout(std::uint64_t original_size, Config config, WindowScope scope,
                   std::uint32_t chunk, std::uint32_t work_items) {
  if (chunk < kMinChunk || chunk > kMaxChunk) {
    throw ParamError("lz77 chunk " + std::to_string(chunk) + " outside 64..1048576");
  }
  if (work_items < 1 || work_items > kMaxWorkItems) {
    throw ParamError("lz77 work_items " + std::to_string(work_items) + " outside 1..1048576");
  }
  Layout l;
  l.config = config;
  l.scope = scope;
  l.chunk = chunk;
  l.work_items = work_items;
  l.original_size = original_size;
  l.chunk_count = ceil_div(original_size, chunk);
  l.block_count = ceil_div(l.chunk_count, work_items);
  return l;
}

Layout layout_for(std::uint64_t original_size, const FormatParams& format) {
  return make_layout(original_size, format.config, format.scope, format.chunk, format.work_items);
}

std::uint64_t max_payload_size(const Layout& layout) {
  return kPayloadFixedSize + 8 * (layout.block_count + 1) + 4 * layout.chunk_count +
         std::uint64_t{layout.geo().triple_bytes} * layout.original_size;
}

Bytes payload_fixed_fields(const Layout& layout) {
  Bytes out;
  out.push_back(static_cast<std::uint8_t>(layout.config));
  out.push_back(static_cast<std::uint8_t>(layout.scope));
  put_le<std::uint32_t>(out, layout.chunk);
  put_le<std::uint32_t>(out, layout.work_items);
  put_le<std::uint64_t>(out, layout.chunk_count);
  put_le<std::uint64_t>(out, layout.block_count);
  return out;
}

Bytes payload_head(const Layout& layout, std::span<const std::uint32_t> chunk_triples) {
  Bytes out = payload_fixed_fields(layout);
  const std::uint64_t triple_bytes = layout.geo().triple_bytes;
  std::uint64_t offset = 0;
  put_le<std::uint64_t>(out, offset);
  for (std::uint64_t b = 0; b < layout.block_count; ++b) {
    for (std::uint64_t c = layout.first_chunk_of_block(b); c < layout.chunk_end_of_block(b); ++c) {
      offset += chunk_triples[c] * triple_bytes;
    }
    put_le<std::uint64_t>(out, offset);
  }
  for (std::uint32_t n : chunk_triples) put_le<std::uint32_t>(out, n);
  return out;
}

Bytes build_payload(const Layout& layout, std::span<const std::uint32_t> chunk_triples,
                    ByteSpan triple_area) {
  Bytes out = payload_head(layout, chunk_triples);
  out.insert(out.end(), triple_area.begin(), triple_area.end());
  return out;
}

ParsedPayload parse_payload(ByteSpan payload, std::uint64_t original_size) {
  ByteReader r(payload);
  const auto config = r.read<std::uint8_t>("config");
  const auto scope = r.read<std::uint8_t>("window_scope");
  const auto chunk = r.read<std::uint32_t>("chunk");
  const auto work_items = r.read<std::uint32_t>("work_items");
  const auto chunk_count = r.read<std::uint64_t>("chunk_count");
  const auto block_count = r.read<std::uint64_t>("block_count");
  if (config > static_cast<std::uint8_t>(Config::wide)) {
    reject("unknown config " + std::to_string(config));
  }
  if (scope > static_cast<std::uint8_t>(WindowScope::chunk)) {
    reject("unknown window_scope " + std::to_string(scope));
  }
  if (chunk < kMinChunk || chunk > kMaxChunk) reject("chunk " + std::to_string(chunk));
  if (work_items < 1 || work_items > kMaxWorkItems) {
    reject("work_items " + std::to_string(work_items));
  }
  ParsedPayload p;
  p.layout = make_layout(original_size, static_cast<Config>(config),
                         static_cast<WindowScope>(scope), chunk, work_items);
  const Layout& l = p.layout;
  if (chunk_count != l.chunk_count) {
    reject("chunk_count " + std::to_string(chunk_count) + ", expected " +
           std::to_string(l.chunk_count) + " for " + std::to_string(original_size) + " bytes");
  }
  if (block_count != l.block_count) {
    reject("block_count " + std::to_string(block_count) + ", expected " +
           std::to_string(l.block_count));
  }
  // Both tables must be present before anything is allocated for them (the counts are
  // bounded by original_size / 64, itself bounded by the container).
  const std::uint64_t table_bytes = 8 * (l.block_count + 1) + 4 * l.chunk_count;
  if (table_bytes > r.remaining()) {
    reject("block and chunk tables need " + std::to_string(table_bytes) + " bytes, " +
           std::to_string(r.remaining()) + " left");
  }
  p.block_offsets.resize(l.block_count + 1);
  for (auto& o : p.block_offsets) o = r.read<std::uint64_t>("block_offsets");
  const Geometry g = l.geo();
  p.chunk_first_triple.resize(l.chunk_count + 1);
  for (std::uint64_t c = 0; c < l.chunk_count; ++c) {
    const std::uint64_t n = r.read<std::uint32_t>("chunk_triples");
    const std::uint64_t len = l.chunk_end(c) - l.chunk_begin(c);
    // Every triple yields 1..max_length+1 bytes.
    if (n > len || n < ceil_div(len, g.max_length + 1)) {
      reject("chunk " + std::to_string(c) + " claims " + std::to_string(n) + " triples for " +
             std::to_string(len) + " bytes");
    }
    p.chunk_first_triple[c + 1] = p.chunk_first_triple[c] + n;
  }
  p.triples = r.take(r.remaining(), "triple area");
  if (p.block_offsets[0] != 0) reject("block_offsets[0] is not 0");
  for (std::uint64_t b = 0; b < l.block_count; ++b) {
    const std::uint64_t bytes = (p.chunk_first_triple[l.chunk_end_of_block(b)] -
                                 p.chunk_first_triple[l.first_chunk_of_block(b)]) *
                                g.triple_bytes;
    if (p.block_offsets[b + 1] < p.block_offsets[b] ||
        p.block_offsets[b + 1] - p.block_offsets[b] != bytes) {
      reject("block " + std::to_string(b) + " offsets do not match its " + std::to_string(bytes) +
             " bytes of triples");
    }
  }
  if (p.block_offsets[l.block_count] != p.triples.size()) {
    reject("triple area is " + std::to_string(p.triples.size()) + " bytes, block_offsets say " +
           std::to_string(p.block_offsets[l.block_count]));
  }
  return p;
}

}  // namespace gcbench::lz77
