#pragma once
// Which values of each codec axis a sweep visits: the ones given on the command line, or the
// driver's short default sweeps, visited one axis at a time (the main job) or in every
// combination.
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

// The values of an axis's default sweep as typed on the command line (empty: none), for
// presets that name them.
std::vector<std::string> default_sweep(const std::string& axis);

// One line per axis that has a default sweep wider than its default, for --help.
std::string describe_default_sweeps();

// How the axes that are not given on the command line are visited.
enum class Sweep {
  // Each axis's default sweep on its own, every other such axis at its default: the points the
  // report's tables read (they vary one axis at a time). The default, and the main job's.
  axes,
  // Every combination of the default sweeps (e.g. fl: 3 element widths x 3 frame sizes).
  product,
  // Every such axis at its default only.
  defaults,
};

// "axes" | "product" | "defaults"; throws std::invalid_argument otherwise.
Sweep parse_sweep(const std::string& text);

// The parameter points of one codec. Given axes take every combination of the values given
// (parsed with the axis's own parser; one it rejects throws ParamError naming the codec); the
// others are visited as `sweep` says. Points come in axis order, the default point of the
// axes not given first.
std::vector<Params> param_points(const CodecInfo& info, const AxisValues& given, Sweep sweep);

}  // namespace gcbench::driver
