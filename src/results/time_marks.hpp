#pragma once
// The marks after a measured time, the same in the driver's console and in every report, so
// that a reader learns them once.
#include <string>

namespace gcbench::results {

// "*": the mean's relative standard error stayed over the cell's target; "!": the GPU's SM
// clock was throttled during the cell.
inline std::string time_marks(bool over_error_target, bool throttled) {
  return std::string(over_error_target ? "*" : "") + (throttled ? "!" : "");
}

}  // namespace gcbench::results
