#pragma once
// Codec parameters: named integer axes with declared defaults and ranges, so that the
// driver can list, sweep and validate them without knowing any codec.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace gcbench {

// One parameter of a codec, e.g. `frame_size` or `finder`. Enumerated axes (finder =
// hash|z|brute) store the index of the chosen name.
struct AxisSpec {
  std::string name;
  std::string help;
  std::int64_t default_value = 0;
  std::int64_t min = 0;
  std::int64_t max = 0;
  std::vector<std::int64_t> allowed;  // when non-empty, only these values
  std::vector<std::string> names;     // when non-empty, value i is spelled names[i]
  bool in_container = false;          // changes the compressed bytes (vs. speed only)
  // The codec's own default sweep (--sweep axes/product); when empty the driver's sweep for
  // an axis of this name, if any (bench/driver/axes.cpp), else the default alone.
  std::vector<std::int64_t> sweep{};

  bool accepts(std::int64_t v) const;
  std::string format(std::int64_t v) const;           // "hash" for enumerated axes, else the number
  std::int64_t parse(const std::string& text) const;  // throws ParamError
  std::string valid_values() const;  // "one of hash, z, brute", "an integer from 1 to 64"
};

// Values given by the caller; absent axes take their default.
using Params = std::map<std::string, std::int64_t>;

// Fills defaults, rejects unknown names and out-of-range values (ParamError).
Params resolve_params(const std::vector<AxisSpec>& axes, const Params& given);

// The value of axis `name` in a resolved map, for the codecs' typed parameter structs (the
// one place where a family reads its axes by name). ParamError naming the axis when absent.
std::int64_t axis_value(const Params& resolved, const std::string& name);

// The `threads` axis every CPU reference shares: 0 means all cores, 1 the plain sequential code.
AxisSpec threads_axis();
int thread_count(const Params& resolved);

}  // namespace gcbench
