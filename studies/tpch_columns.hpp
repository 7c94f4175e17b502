#pragma once
// The integer codecs on TPC-H's columns (issue 43), the steps the thesis and kernels presets
// share, and what the presets' summaries say of the scale factor.
#include <string>
#include <vector>

#include "bench/driver/presets.hpp"

namespace gcbench::studies {

inline const std::string kTpchScaleNote =
    "tpch-sf1 where GPU cells run, else tpch-sf0.01; --corpus tpch-sf<scale> picks the scale "
    "factor";

// FL, RLE (decompressed with `rle_decoders`), rle-cub and the integer peers on every column.
std::vector<driver::PresetStep> tpch_steps(const driver::AxisValues& rle_decoders);

}  // namespace gcbench::studies
