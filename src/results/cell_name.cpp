#include "src/results/cell_name.hpp"

#include <algorithm>
#include <array>

namespace gcbench::results {
namespace {

std::string sanitize(std::string s) {
  std::replace(s.begin(), s.end(), '/', '_');
  std::replace(s.begin(), s.end(), ':', '_');
  return s;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    std::size_t end = s.find(sep, start);
    parts.push_back(s.substr(start, end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return parts;
}

// What Google Benchmark appends to a registered name. The driver never sets threads,
// iterations or repetitions per benchmark, so a trailing `threads:` is a codec axis.
bool is_benchmark_suffix(std::string_view seg) {
  static constexpr std::array<std::string_view, 3> kTimeTypes = {"real_time", "manual_time",
                                                                 "process_time"};
  static constexpr std::array<std::string_view, 4> kKeys = {
      "min_time:", "min_warmup_time:", "iterations:", "repeats:"};
  if (std::find(kTimeTypes.begin(), kTimeTypes.end(), seg) != kTimeTypes.end()) return true;
  return std::any_of(kKeys.begin(), kKeys.end(),
                     [&](std::string_view key) { return seg.starts_with(key); });
}

// One "<axis>:<value>" segment; false when it is not one.
bool add_param(std::string_view seg, std::vector<std::pair<std::string, std::string>>& params) {
  std::size_t colon = seg.find(':');
  if (colon == std::string_view::npos || colon == 0) return false;
  params.emplace_back(seg.substr(0, colon), seg.substr(colon + 1));
  return true;
}

}  // namespace

const std::string* CellId::param(std::string_view axis) const {
  for (const auto& [name, value] : params) {
    if (name == axis) return &value;
  }
  return nullptr;
}

std::string format_params(const std::vector<std::pair<std::string, std::string>>& params) {
  std::string text;
  for (const auto& [axis, value] : params) {
    if (!text.empty()) text += '/';
    text += axis;
    text += ':';
    text += sanitize(value);
  }
  return text;
}

std::string format_cell_name(const CellId& id) {
  std::string name = sanitize(id.codec) + "/" + id.device + "/" + id.direction + "/" +
                     sanitize(id.corpus) + "/" + sanitize(id.file);
  if (!id.params.empty()) {
    name += '/';
    name += format_params(id.params);
  }
  return name;
}

std::optional<CellId> parse_cell_name(std::string_view run_name) {
  std::vector<std::string_view> segs = split(run_name, '/');
  while (!segs.empty() && is_benchmark_suffix(segs.back())) segs.pop_back();
  if (segs.size() < 5) return std::nullopt;
  CellId id{std::string(segs[0]), std::string(segs[1]), std::string(segs[2]),
            std::string(segs[3]), std::string(segs[4]), {}};
  if (id.device != "cpu" && id.device != "gpu") return std::nullopt;
  if (id.direction != "compress" && id.direction != "decompress") return std::nullopt;
  for (std::size_t i = 5; i < segs.size(); ++i) {
    if (!add_param(segs[i], id.params)) return std::nullopt;
  }
  return id;
}

std::optional<std::vector<std::pair<std::string, std::string>>> parse_params(
    std::string_view text) {
  std::vector<std::pair<std::string, std::string>> params;
  if (text.empty()) return params;
  for (std::string_view seg : split(text, '/')) {
    if (!add_param(seg, params)) return std::nullopt;
  }
  return params;
}

}  // namespace gcbench::results
