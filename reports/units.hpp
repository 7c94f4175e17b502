#pragma once
// Numbers for people and for machines: fixed notation (never an exponent) with a given number
// of significant digits, and the display unit of a table's times or throughputs (ms or s, MB/s
// or GB/s), one per quantity per table, chosen from all of its values so that most of them read
// as ordinary numbers.
#include <string>
#include <vector>

#include "reports/tables.hpp"

namespace gcbench::reports {

// `significant` digits, fixed notation, trailing zeros dropped: 0.0006734, 12.3, 1234.
std::string fixed_significant(double value, int significant);

struct DisplayUnit {
  std::string name;  // "ms", "s", "MB/s", "GB/s"; empty for units shown as they are
  double scale = 1;  // display value = stored value * scale
};

// Times are stored in seconds, throughputs in GB/s: the smaller display unit when the
// median of `values` is below one of the larger and none reaches ten of it.
DisplayUnit display_unit(Unit unit, const std::vector<double>& values);

}  // namespace gcbench::reports
