#pragma once
// The one table of the counters a result entry may carry: each name once, with its unit, the
// cells that record it and its meaning. The driver writes them by these names, the reports read
// them by these names, and docs/counters.md and reports/plots/counters.py are this table
// (`gcbench --counters`, `--counters-python`; a test compares them).
#include <string>
#include <vector>

namespace gcbench::results {

namespace counter {
// What was measured on what.
inline constexpr const char* kInputBytes = "input_bytes";
inline constexpr const char* kCompressedBytes = "compressed_bytes";
inline constexpr const char* kRatio = "ratio";
inline constexpr const char* kEntropyBytes = "entropy_bytes";
inline constexpr const char* kInputElementWidth = "input_element_width";
inline constexpr const char* kVerified = "verified";
inline constexpr const char* kVariedOutputs = "varied_outputs";
// The stopping rule's record.
inline constexpr const char* kSamples = "samples";
inline constexpr const char* kSampledS = "sampled_s";
inline constexpr const char* kErrorPct = "error_pct";
inline constexpr const char* kMaxErrorPct = "max_error_pct";
inline constexpr const char* kNoisePct = "noise_pct";
inline constexpr const char* kCpuShare = "cpu_share";
inline constexpr const char* kBusy = "busy";
// GPU time, split and rates.
inline constexpr const char* kKernelS = "kernel_s";
inline constexpr const char* kKernelGbps = "kernel_gbps";
inline constexpr const char* kPctCopy = "pct_copy";
inline constexpr const char* kTransferS = "transfer_s";
inline constexpr const char* kE2eS = "e2e_s";
inline constexpr const char* kE2eGbps = "e2e_gbps";
inline constexpr const char* kE2ePageableS = "e2e_pageable_s";
inline constexpr const char* kE2ePageableGbps = "e2e_pageable_gbps";
inline constexpr const char* kE2eTimedS = "e2e_timed_s";
inline constexpr const char* kPctH2d = "pct_h2d";
inline constexpr const char* kPipelineChunkBytes = "pipeline_chunk_bytes";
inline constexpr const char* kPipelineDepth = "pipeline_depth";
inline constexpr const char* kPrimitiveS = "primitive_s";
inline constexpr const char* kPrimitiveGbps = "primitive_gbps";
inline constexpr const char* kColdL2 = "cold_l2";
inline constexpr const char* kSmClockPct = "sm_clock_pct";
inline constexpr const char* kThrottled = "throttled";
// Memory.
inline constexpr const char* kMemoryHostBytes = "memory_host_bytes";
inline constexpr const char* kMemoryDeviceBytes = "memory_device_bytes";
inline constexpr const char* kPeakRssBytes = "peak_rss_bytes";
}  // namespace counter

struct CounterSpec {
  const char* name;
  const char* unit;     // bytes, s, GB/s, %, ratio, count, 0/1
  const char* cells;    // which entries carry it
  const char* meaning;  // what it is, in a sentence
};

// Every counter, in the order docs/counters.md lists them.
const std::vector<CounterSpec>& counter_table();

// docs/counters.md: the table as Markdown, with its heading and introduction.
std::string counters_markdown();
// The table as a Python module (reports/plots/counters.py, `gcbench --counters-python`): one
// constant a counter, its name in capitals, so that the Python tools read results by the names
// the driver writes.
std::string counters_python();

}  // namespace gcbench::results
