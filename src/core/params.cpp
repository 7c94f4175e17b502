#include "gcbench/params.hpp"

#include <algorithm>
#include <charconv>
#include <type_traits>

#include "gcbench/cores.hpp"
#include "gcbench/errors.hpp"

namespace gcbench {

bool AxisSpec::accepts(std::int64_t v) const {
  if (!allowed.empty()) return std::find(allowed.begin(), allowed.end(), v) != allowed.end();
  return v >= min && v <= max;
}

std::string AxisSpec::format(std::int64_t v) const {
  if (!names.empty() && v >= 0 && static_cast<std::size_t>(v) < names.size()) return names[v];
  return std::to_string(v);
}

std::string AxisSpec::valid_values() const {
  auto join = [](const auto& items) {
    std::string out;
    for (const auto& item : items) {
      if (!out.empty()) out += ", ";
      if constexpr (std::is_same_v<std::decay_t<decltype(item)>, std::string>) {
        out += item;
      } else {
        out += std::to_string(item);
      }
    }
    return out;
  };
  if (!names.empty()) return "one of " + join(names);
  if (!allowed.empty()) return "one of " + join(allowed);
  return "an integer from " + std::to_string(min) + " to " + std::to_string(max);
}

std::int64_t AxisSpec::parse(const std::string& text) const {
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == text) return static_cast<std::int64_t>(i);
  }
  std::int64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || !names.empty() || !accepts(v)) {
    throw ParamError("invalid value '" + text + "' for " + name + " (" + valid_values() + ")");
  }
  return v;
}

Params resolve_params(const std::vector<AxisSpec>& axes, const Params& given) {
  Params out;
  for (const auto& axis : axes) out[axis.name] = axis.default_value;
  for (const auto& [key, value] : given) {
    auto it = std::find_if(axes.begin(), axes.end(),
                           [&name = key](const AxisSpec& a) { return a.name == name; });
    if (it == axes.end()) throw ParamError("unknown parameter '" + key + "'");
    if (!it->accepts(value)) {
      throw ParamError("parameter " + key + "=" + std::to_string(value) + " is out of range (" +
                       it->valid_values() + ")");
    }
    out[key] = value;
  }
  return out;
}

std::int64_t axis_value(const Params& resolved, const std::string& name) {
  auto it = resolved.find(name);
  if (it == resolved.end()) throw ParamError("parameter '" + name + "' missing (not resolved)");
  return it->second;
}

AxisSpec threads_axis() {
  AxisSpec a;
  a.name = "threads";
  a.help = "CPU threads over independent pieces; 0 = all cores, 1 = sequential";
  a.default_value = 0;
  a.min = 0;
  a.max = 1024;
  return a;
}

int thread_count(const Params& resolved) {
  auto it = resolved.find("threads");
  std::int64_t t = it == resolved.end() ? 0 : it->second;
  if (t > 0) return static_cast<int>(t);
  return usable_cores();
}

}  // namespace gcbench
