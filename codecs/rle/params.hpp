#pragma once
// RLE's parameters, typed: read from the resolved axis map once, when a codec is bound to a
// parameter point (Codec::bind, DeviceCodec::bind), so that no codec call looks an axis up.
#include <cstdint>

#include "codecs/common/elements.hpp"
#include "gcbench/params.hpp"

namespace gcbench::rle {

// The axis every implementation shares (it shapes the container).
struct RleParams {
  std::uint32_t element_width = 1;
};

inline RleParams rle_params(const Params& resolved) {
  return {element_width_of(resolved)};
}

}  // namespace gcbench::rle
