#pragma once
// A flag as a command line gave it, kept after parsing (without CLI11), so that a program can
// pass its own flags on to a child of its own: gcbench --gpus's workers.
#include <optional>
#include <string>

namespace gcbench::cli {

struct GivenFlag {
  std::string flag;                  // "--codecs"
  std::optional<std::string> value;  // as typed, the one that took effect; none for a switch

  // One argument that this style parses back to the same: "--codecs=fl,rle", "--no-download".
  std::string argument() const { return value ? flag + "=" + *value : flag; }
  bool operator==(const GivenFlag&) const = default;
};

}  // namespace gcbench::cli
