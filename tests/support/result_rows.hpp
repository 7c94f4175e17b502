#pragma once
// A Google Benchmark result entry as the driver records a timed cell: for report tests that
// build result files by hand.
#include <string>

#include <nlohmann/json.hpp>

namespace gcbench::testing {

// An iteration entry of cell `name` (1 ms per iteration, 10 iterations) with `counters`.
inline nlohmann::json result_row(const std::string& name, const nlohmann::json& counters) {
  nlohmann::json r = {{"name", name + "/manual_time"},
                      {"run_name", name + "/manual_time"},
                      {"run_type", "iteration"},
                      {"iterations", 10},
                      {"real_time", 1.0},
                      {"cpu_time", 1.0},
                      {"time_unit", "ms"}};
  for (const auto& [k, v] : counters.items()) r[k] = v;
  return r;
}

// An iteration entry of cell `name`, as named (one iteration of `time_ms`), with `counters`.
inline nlohmann::json timed_row(const std::string& name, double time_ms,
                                const nlohmann::json& counters) {
  nlohmann::json r = {{"name", name},     {"run_name", name},     {"run_type", "iteration"},
                      {"iterations", 1},  {"real_time", time_ms}, {"cpu_time", time_ms},
                      {"time_unit", "ms"}};
  for (const auto& [k, v] : counters.items()) r[k] = v;
  return r;
}

}  // namespace gcbench::testing
