#pragma once
// The marks after a measured time, the same in the driver's console and in every report, so
// that a reader learns them once.
#include <string>

namespace gcbench::results {

// The share of its wall time a CPU cell's timing thread must have been on a CPU: below it the
// machine was busy with other work (the counter busy), and the time is partly the machine's.
inline constexpr double kBusyBelow = 0.75;

// "*": the mean's relative standard error stayed over the cell's target; "!": the GPU's SM
// clock was throttled during the cell; "~": the machine was busy during the CPU cell.
inline std::string time_marks(bool over_error_target, bool throttled, bool busy = false) {
  return std::string(over_error_target ? "*" : "") + (throttled ? "!" : "") + (busy ? "~" : "");
}

}  // namespace gcbench::results
