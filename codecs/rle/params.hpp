#pragma once
// RLE's parameters, typed: read from the resolved axis map once per call at the codecs' entry
// points, so that nothing below them looks an axis up by name.
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
