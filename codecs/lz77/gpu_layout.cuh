#pragma once
// The chunk and launch-block geometry of payload.hpp's Layout as a plain struct that kernels
// take by value.
#include <cstdint>

#include "codecs/lz77/format.hpp"
#include "codecs/lz77/payload.hpp"

namespace gcbench::lz77::gpu {

struct DevLayout {
  std::uint64_t size = 0;
  std::uint64_t chunk_count = 0;
  std::uint64_t triples = 0;  // decoding: triples in the payload, a bound on every read
  std::uint32_t chunk = 0;
  std::uint32_t work_items = 0;
  std::uint32_t max_offset = 0;
  std::uint32_t max_length = 0;
  std::uint32_t triple_bytes = 0;
  Config config = Config::thesis;
  WindowScope scope = WindowScope::block;

  __host__ __device__ std::uint64_t chunk_begin(std::uint64_t c) const { return c * chunk; }
  __host__ __device__ std::uint64_t chunk_end(std::uint64_t c) const {
    const std::uint64_t e = (c + 1) * chunk;
    return e < size ? e : size;
  }
  __host__ __device__ std::uint64_t window_start(std::uint64_t c) const {
    return scope == WindowScope::block ? c / work_items * work_items * chunk : c * chunk;
  }
  // Distance back from p to the lowest source a match at p may use (0 at the window start).
  __host__ __device__ std::uint32_t window_at(std::uint64_t p, std::uint64_t window_start) const {
    const std::uint64_t w = p - window_start;
    return w < max_offset ? static_cast<std::uint32_t>(w) : max_offset;
  }
  // Longest match at p in a chunk ending at `end`: the match and its next byte stay inside.
  __host__ __device__ std::uint32_t cap_at(std::uint64_t p, std::uint64_t end) const {
    const std::uint64_t room = end - p - 1;
    return room < max_length ? static_cast<std::uint32_t>(room) : max_length;
  }
};

inline DevLayout dev_layout(const Layout& l) {
  const Geometry g = l.geo();
  DevLayout d;
  d.size = l.original_size;
  d.chunk_count = l.chunk_count;
  d.chunk = l.chunk;
  d.work_items = l.work_items;
  d.max_offset = g.max_offset;
  d.max_length = g.max_length;
  d.triple_bytes = g.triple_bytes;
  d.config = l.config;
  d.scope = l.scope;
  return d;
}

}  // namespace gcbench::lz77::gpu
