#pragma once
// Which values of each codec axis a sweep visits: the ones given on the command line, or the
// driver's short default sweep.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "gcbench/codec.hpp"

namespace gcbench::driver {

using AxisValues = std::map<std::string, std::vector<std::string>>;

// The default sweep of an axis: the thesis's work-item counts, the three element widths, a few
// frame sizes; every other axis only at its default. Points the axis rejects are dropped.
std::vector<std::int64_t> default_points(const AxisSpec& axis);

// One line per axis that has a default sweep wider than its default, for --help.
std::string describe_default_sweeps();

// The parameter points of one codec: the product over its axes, in axis order. Given values
// are parsed with the axis's own parser; one it rejects throws ParamError naming the codec.
std::vector<Params> param_points(const CodecInfo& info, const AxisValues& given);

}  // namespace gcbench::driver
