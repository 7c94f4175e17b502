#pragma once
// FL's parameters, typed: read from the resolved axis map once, when a codec is bound to a
// parameter point (Codec::bind, DeviceCodec::bind), so that no codec call looks an axis up.
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
