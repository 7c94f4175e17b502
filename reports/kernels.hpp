#pragma once
// The kernels section (issue 14): every GPU cell's kernel-only throughput per input, beside the
// run's device copy as the reference row, each figure marked cold (the L2 flushed before every
// timed call, --cold-l2) or warm. plot_results.py draws its CSV against run length and element
// width, so that the crossings of each kernel and its peers show.
#include <optional>
#include <string>
#include <vector>

#include "reports/results.hpp"
#include "reports/tables.hpp"

namespace gcbench::reports {

// Whether a report shows the section: results of --preset kernels or of a run with --cold-l2
// (their context says so).
bool wants_kernels_section(const ResultSet& set);

// Rows: the device copy (context copy_gbps, pct_copy's reference), then per file of `files` (in
// that order) each GPU cell of `corpus`: its codec variant (axes not at `defaults`), direction and
// L2 (cold, warm). Columns: kernel_gbps and pct_copy (the cell's, else kernel_gbps / copy_gbps).
// nullopt when no GPU cell of `corpus` has kernel_gbps.
std::optional<Table> kernels_table(const ResultSet& set, const Defaults& defaults,
                                   const std::string& corpus,
                                   const std::vector<std::string>& files);

}  // namespace gcbench::reports
