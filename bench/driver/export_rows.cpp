#include "bench/driver/export_rows.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>

#include "reports/render.hpp"
#include "src/results/cell_name.hpp"
#include "src/results/counters.hpp"

namespace gcbench::driver {
using ordered_json = nlohmann::ordered_json;

namespace {

// The keys row_of writes before the counters, in column order.
const std::vector<std::string> kFixedColumns = {
    "name",   "codec", "device",      "direction", "corpus", "file", "params",     "gpu",
    "status", "error", "repetitions", "time_s",    "gbps",   "cv",   "time_min_s", "time_max_s"};

// A whole number as one ("65536", not "65536.0"): counters of bytes and flags are.
ordered_json number(double value) {
  constexpr double kExact = 9007199254740992.0;  // 2^53: every integer below is a double
  if (value == std::floor(value) && std::abs(value) < kExact)
    return static_cast<std::int64_t>(value);
  return value;
}

ordered_json row_of(const reports::Measurement& m) {
  ordered_json row;
  row["name"] = results::format_cell_name(m.id);
  row["codec"] = m.id.codec;
  row["device"] = m.id.device;
  row["direction"] = m.id.direction;
  row["corpus"] = m.id.corpus;
  row["file"] = m.id.file;
  ordered_json params = ordered_json::object();
  for (const auto& [axis, value] : m.id.params) params[axis] = value;
  row["params"] = params;
  if (m.gpu) row["gpu"] = fmt::format("{} {}", m.gpu->index, m.gpu->name);
  row["status"] = m.skipped() ? "skipped" : m.error ? "error" : "ok";
  if (m.error) {
    row["error"] = *m.error;
    return row;
  }
  row["repetitions"] = m.repetitions;
  row["time_s"] = m.time_s;
  const double input_bytes = m.counter(results::counter::kInputBytes);
  if (input_bytes >= 0 && m.time_s > 0) row["gbps"] = input_bytes / m.time_s / 1e9;
  if (m.repetitions > 1) {
    row["cv"] = m.cv;
    if (m.times_s.size() > 1) {
      row["time_min_s"] = *std::min_element(m.times_s.begin(), m.times_s.end());
      row["time_max_s"] = *std::max_element(m.times_s.begin(), m.times_s.end());
    }
  }
  for (const auto& [counter, value] : m.counters) row[counter] = number(value);  // by name
  return row;
}

std::string csv_value(const ordered_json& value) {
  if (value.is_string()) return reports::csv_field(value.get<std::string>());
  if (value.is_object()) {
    std::vector<std::pair<std::string, std::string>> params;
    for (const auto& [axis, v] : value.items()) params.emplace_back(axis, v.get<std::string>());
    return reports::csv_field(results::format_params(params));
  }
  return value.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace

std::vector<ordered_json> cell_rows(const reports::ResultSet& set) {
  std::vector<ordered_json> rows;
  for (const reports::Measurement& m : set.cells) rows.push_back(row_of(m));
  // The replicas on other GPUs than the one `cells` holds.
  for (const reports::Measurement& r : set.replicas) {
    const bool held = std::any_of(set.cells.begin(), set.cells.end(), [&](const auto& c) {
      return c.id == r.id && c.gpu && r.gpu && c.gpu->index == r.gpu->index;
    });
    if (!held) rows.push_back(row_of(r));
  }
  return rows;
}

std::string rows_csv(const std::vector<ordered_json>& rows) {
  std::set<std::string> counters;
  for (const ordered_json& row : rows) {
    for (const auto& [key, value] : row.items()) {
      if (std::find(kFixedColumns.begin(), kFixedColumns.end(), key) == kFixedColumns.end())
        counters.insert(key);
    }
  }
  std::vector<std::string> columns = kFixedColumns;
  columns.insert(columns.end(), counters.begin(), counters.end());
  std::string text = fmt::format("{}\n", fmt::join(columns, ","));
  for (const ordered_json& row : rows) {
    std::vector<std::string> fields;
    for (const std::string& column : columns) {
      const auto it = row.find(column);
      fields.push_back(it == row.end() ? "" : csv_value(*it));
    }
    text += fmt::format("{}\n", fmt::join(fields, ","));
  }
  return text;
}

std::string rows_jsonl(const std::vector<ordered_json>& rows) {
  std::string text;
  for (const ordered_json& row : rows) {
    text += row.dump(-1, ' ', false, ordered_json::error_handler_t::replace) + "\n";
  }
  return text;
}

}  // namespace gcbench::driver
