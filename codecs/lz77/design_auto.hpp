#pragma once
// design=auto of the GPU LZ77 codec: per finder and format, the fastest GPU design whose
// container equals the CPU reference's, chosen by timing every design once on a sample on this
// GPU. The first use of a finder and format calibrates (a few seconds at most: the thesis's
// thread design runs one launch); later uses read the remembered choice.
#include <cstdint>
#include <string>
#include <vector>

#include "gcbench/params.hpp"

namespace gcbench::lz77 {

struct AutoDesign {
  std::int64_t design = 0;  // index into the design axis's names
  std::string scope;        // the axes it was chosen for, "finder:hash/config:thesis/..."
  std::string detail;       // each design's kernel time on the sample, or why it was left out
};

// `axes`, `resolved`: the GPU codec's axes (its design axis names "auto" last) and resolved
// parameters. Thread-safe. Throws ParamError when no design verified (remembered, not retried).
const AutoDesign& auto_design(const std::vector<AxisSpec>& axes, const Params& resolved);

}  // namespace gcbench::lz77
