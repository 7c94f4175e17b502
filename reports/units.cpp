#include "reports/units.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "reports/stats.hpp"

namespace gcbench::reports {

std::string fixed_significant(double value, int significant) {
  if (value == 0 || !std::isfinite(value)) return fmt::format("{}", value);
  const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(value))));
  const int decimals = std::clamp(significant - 1 - magnitude, 0, 15);
  std::string text = fmt::format("{:.{}f}", value, decimals);
  if (text.find('.') != std::string::npos) {
    text.erase(text.find_last_not_of('0') + 1);
    if (text.back() == '.') text.pop_back();
  }
  return text;
}

DisplayUnit display_unit(Unit unit, const std::vector<double>& values) {
  // The smaller unit when most values are below one of the larger, unless the largest would
  // then need five digits or more (a GPU column beside a CPU one stays in GB/s).
  const bool small = !values.empty() && stats::median(values) < 1 &&
                     *std::max_element(values.begin(), values.end()) < 10;
  switch (unit) {
    case Unit::seconds:
      return small ? DisplayUnit{"ms", 1e3} : DisplayUnit{"s", 1};
    case Unit::gb_per_s:
      return small ? DisplayUnit{"MB/s", 1e3} : DisplayUnit{"GB/s", 1};
    case Unit::bytes:
    case Unit::ratio:
    case Unit::percent:
      break;
  }
  return DisplayUnit{};
}

}  // namespace gcbench::reports
