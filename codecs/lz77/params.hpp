#pragma once
// LZ77's parameters, typed: read from the resolved axis map once, when a codec is bound to a
// parameter point (Codec::bind, DeviceCodec::bind), so that no codec call looks an axis up.
#include <cstdint>

#include "codecs/lz77/finder.hpp"
#include "codecs/lz77/format.hpp"
#include "gcbench/params.hpp"

namespace gcbench::lz77 {

// The axes that shape the container, shared by the CPU and GPU codecs.
struct FormatParams {
  Config config = Config::thesis;
  WindowScope scope = WindowScope::block;
  std::uint32_t chunk = kDefaultChunk;
  std::uint32_t work_items = kDefaultWorkItems;
};

inline FormatParams format_params(const Params& resolved) {
  return {static_cast<Config>(axis_value(resolved, "config")),
          static_cast<WindowScope>(axis_value(resolved, "window_scope")),
          static_cast<std::uint32_t>(axis_value(resolved, "chunk")),
          static_cast<std::uint32_t>(axis_value(resolved, "work_items"))};
}

// The CPU reference's: the format, the match finder, and how to decode.
struct CpuParams {
  FormatParams format;
  Finder finder = Finder::hash;
  bool sequential_decode = false;  // decode_mode=sequential: one pass on one thread
  int threads = 1;
};

inline CpuParams cpu_params(const Params& resolved) {
  constexpr std::int64_t kDecodeSequential = 1;  // index of "sequential" in decode_mode
  return {format_params(resolved), static_cast<Finder>(axis_value(resolved, "finder")),
          axis_value(resolved, "decode_mode") == kDecodeSequential, thread_count(resolved)};
}

}  // namespace gcbench::lz77
