#pragma once
// What report.html is drawn from (reports/plots/report_html.py), as JSON: the run's context and
// ceilings, each corpus's headline rows and its tables as the report shows them, and every
// cell's sizes and times for the charts.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "reports/results.hpp"
#include "reports/tables.hpp"

namespace gcbench::reports {

// The lzbench-style headline of `corpus`: one row per codec and device at the defaults, each a
// total over the files every row compressed (so that the rows compare the same bytes): the
// container ratio (and LZ77's entropy-coded ratio), compress and decompress throughput, kernel
// (GPU) and end to end (GPU: the whole call from host memory; CPU: wall time), speedups over
// the reference (the first of `references` measured on the CPU) and over the same codec on all
// CPU cores (threads:0), end to end, and the noise: the median spread (CV) of the row's cells.
// A figure that cannot be had is null, with its reason in the row's "reasons".
nlohmann::json headline_json(const ResultSet& set, const Defaults& defaults,
                             const std::string& corpus, const std::vector<std::string>& references);

// A table as shown (measured_part): its display headers, and per cell the text people read and
// the stored number to sort by (null for a blank).
nlohmann::json table_json(const Table& shown, const std::string& note);

// Every cell that has numbers: corpus, file, codec, device, variant (the codec and its axes
// that differ from the defaults), direction, bytes, time (GPU: kernel), end-to-end time, spread.
nlohmann::json cells_json(const ResultSet& set, const Defaults& defaults);

}  // namespace gcbench::reports
