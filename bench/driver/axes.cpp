#include "bench/driver/axes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "gcbench/errors.hpp"

namespace gcbench::driver {
namespace {

// Keyed by axis name only: the driver knows axes, never codecs.
const std::map<std::string, std::vector<std::int64_t>>& default_sweeps() {
  static const std::map<std::string, std::vector<std::int64_t>> sweeps = {
      {"work_items", {1024, 1536, 2048, 2560, 3072, 4096, 5120}},
      {"element_width", {1, 2, 4}},
      {"frame_size", {256, 1024, 4096}},
  };
  return sweeps;
}

}  // namespace

std::vector<std::int64_t> default_points(const AxisSpec& axis) {
  std::vector<std::int64_t> points{axis.default_value};
  const auto it = default_sweeps().find(axis.name);
  const std::vector<std::int64_t>* sweep =
      !axis.sweep.empty() ? &axis.sweep : (it != default_sweeps().end() ? &it->second : nullptr);
  if (sweep != nullptr) {
    for (std::int64_t v : *sweep) {
      if (axis.accepts(v)) points.push_back(v);
    }
  }
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  return points;
}

std::vector<std::string> default_sweep(const std::string& axis) {
  std::vector<std::string> values;
  if (auto it = default_sweeps().find(axis); it != default_sweeps().end()) {
    for (std::int64_t v : it->second) values.push_back(std::to_string(v));
  }
  return values;
}

std::string describe_default_sweeps() {
  std::string text;
  for (const auto& [axis, values] : default_sweeps()) {
    text += fmt::format("    {}: {}", axis, fmt::join(values, ","));
    text += " (plus the codec's default; values it rejects are dropped)\n";
  }
  return text;
}

Sweep parse_sweep(const std::string& text) {
  if (text == "axes") return Sweep::axes;
  if (text == "product") return Sweep::product;
  if (text == "defaults") return Sweep::defaults;
  throw std::invalid_argument("--sweep must be one of axes|product|defaults, not '" + text + "'");
}

std::vector<Params> param_points(const CodecInfo& info, const AxisValues& given, Sweep sweep) {
  // Per axis, the values it takes in the product; an axis not given is swept in the product
  // only with Sweep::product, else held at its default here and varied alone below.
  std::vector<Params> points{Params{}};
  std::vector<const AxisSpec*> alone;
  for (const AxisSpec& axis : info.axes) {
    std::vector<std::int64_t> values;
    if (auto it = given.find(axis.name); it != given.end()) {
      for (const std::string& text : it->second) {
        try {
          values.push_back(axis.parse(text));
        } catch (const ParamError& e) {
          throw ParamError(info.name + " (" + to_string(info.device) + "): " + e.what());
        }
      }
    } else if (sweep == Sweep::product) {
      values = default_points(axis);
    } else {
      values = {axis.default_value};
      if (sweep == Sweep::axes) alone.push_back(&axis);
    }
    std::vector<Params> next;
    for (const Params& p : points) {
      for (std::int64_t v : values) {
        Params q = p;
        q[axis.name] = v;
        next.push_back(std::move(q));
      }
    }
    points = std::move(next);
  }
  if (alone.empty()) return points;
  std::vector<Params> out;
  for (const Params& p : points) {
    out.push_back(p);
    for (const AxisSpec* axis : alone) {
      for (std::int64_t v : default_points(*axis)) {
        if (v == axis->default_value) continue;
        Params q = p;
        q[axis->name] = v;
        out.push_back(std::move(q));
      }
    }
  }
  return out;
}

}  // namespace gcbench::driver
