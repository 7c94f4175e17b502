#pragma once
// FL's parameters, typed: read from the resolved axis map once per call at the codecs' entry
// points, so that nothing below them looks an axis up by name.
#include <cstdint>

#include "codecs/common/elements.hpp"
#include "codecs/fl/format.hpp"
#include "gcbench/params.hpp"

namespace gcbench::fl {

// The axes both implementations share (they shape the container).
struct FlParams {
  std::uint32_t element_width = 1;
  std::uint32_t frame_size = kDefaultFrameSize;
};

inline FlParams fl_params(const Params& resolved) {
  return {element_width_of(resolved),
          static_cast<std::uint32_t>(axis_value(resolved, "frame_size"))};
}

}  // namespace gcbench::fl
