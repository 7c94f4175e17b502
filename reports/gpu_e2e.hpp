#pragma once
// GPU throughput, kernel vs end-to-end: how much of each GPU codec's kernel speed survives the
// host/device transfers, and how close both come to what the machine can copy.
#include <optional>
#include <string>
#include <vector>

#include "reports/results.hpp"
#include "reports/tables.hpp"

namespace gcbench::reports {

// The codec and those of its axes that differ from `defaults` (every axis whose default is
// not known), written like a cell name's: "lz77/design:warp".
std::string variant_label(const results::CellId& id, const Defaults& defaults);

// With `by_model` (the GPU cells of its corpus were measured on several GPU models:
// gpu_models), "/gpu_model:<name>" for GPU cell `m`: the model that measured it, as one more
// axis of its variant's label, so that cells of different models never share a row or a
// total. Else "".
std::string gpu_model_axis(const Measurement& m, bool by_model);

// Whether the run context's ceilings (copy_gbps...) were measured on the GPU model that
// measured `m`: with `by_model` only the model the context names ("gpu"), else always.
bool own_ceilings(const ResultSet& set, const Measurement& m, bool by_model);

// Input-weighted GB/s of `counter` over `cells`: each file takes input_bytes / GB/s seconds, the
// result is total bytes / total seconds (what the files as one stream would see). Blank unless
// every cell has the counter.
Value weighted_gbps(const std::vector<const Measurement*>& cells, const std::string& counter);

// A ceiling the driver recorded in the run context (GB/s, e.g. "copy_gbps"), or why there is
// none.
Value run_ceiling(const ResultSet& set, const std::string& key);

// Rows: every GPU codec variant measured on `corpus` (the codec, then its axes that differ
// from `defaults`, then the GPU model where several measured the corpus) x direction. Columns:
// kernel_gbps, e2e_gbps, e2e_pageable_gbps, each over the row's files weighted by input bytes
// (total bytes / total seconds), and the kernel as % of the run's device copy (context copy_gbps)
// and end-to-end as % of its pinned H2D copy (h2d_pinned_gbps). nullopt when no GPU cell of
// `corpus` has kernel_gbps.
std::optional<Table> gpu_e2e_table(const ResultSet& set, const Defaults& defaults,
                                   const std::string& corpus);

}  // namespace gcbench::reports
