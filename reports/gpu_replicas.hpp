#pragma once
// GPU-to-GPU spread (gcbench --gpus LIST --gpu-replicas): the same GPU cells measured on every
// GPU of a host, side by side, with the spread of each cell's figures over the GPUs.
#include <optional>
#include <string>

#include "reports/results.hpp"
#include "reports/tables.hpp"

namespace gcbench::reports {

// Spread of `values` over GPUs: max / min - 1, in %. Blank with fewer than two values.
Value spread_percent(const std::vector<Value>& values);

// Rows: every GPU cell of `corpus` with replicas (its codec variant, direction and file).
// Columns: per GPU (in index order) its kernel_gbps and e2e_gbps, then the spread of each.
// nullopt when `corpus` has no replicas.
std::optional<Table> gpu_replicas_table(const ResultSet& set, const Defaults& defaults,
                                        const std::string& corpus);

// The summary: a row per codec variant and direction, each GPU's GB/s over the row's files
// weighted by input bytes (as the GPU throughput table's), their spread, and the largest
// spread of one cell. nullopt when `corpus` has no replicas.
std::optional<Table> gpu_replicas_summary(const ResultSet& set, const Defaults& defaults,
                                          const std::string& corpus);

}  // namespace gcbench::reports
