#pragma once
// The per-cell export of a results folder (--benchmark_out_format=csv|jsonl): one row per cell
// with its identity, its median time and throughput, its counters and its noise over
// repetitions, for tools that read tables (pandas, spreadsheets, jq) rather than Google
// Benchmark's JSON.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "reports/results.hpp"

namespace gcbench::driver {

// One object per cell (and per GPU of a --gpu-replicas cell), keys in column order: name,
// codec, device, direction, corpus, file, params (an object), gpu (replicas), status (ok,
// error, skipped), error, repetitions, time_s (median per call: CPU wall time, GPU kernel
// time), gbps (input bytes per time_s), cv, time_min_s and time_max_s (over repetitions, where
// there are two or more), then every counter the cell recorded, by name. Absent values are
// absent keys.
std::vector<nlohmann::ordered_json> cell_rows(const reports::ResultSet& set);

// A header (every key cell_rows may write before the counters, then the counters the rows
// have, sorted) and one line per row: params as "axis:value/...", an absent value empty.
std::string rows_csv(const std::vector<nlohmann::ordered_json>& rows);

// One JSON object per line.
std::string rows_jsonl(const std::vector<nlohmann::ordered_json>& rows);

}  // namespace gcbench::driver
