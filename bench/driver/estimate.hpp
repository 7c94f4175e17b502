#pragma once
// How long a sweep will take, printed before a preset starts: a rough per-cell model over rates
// measured on one H100 with 16 host cores (bench/NOTES.md, evidence/h100), CPU rates
// scaled to this machine's hardware threads. Every call a cell makes is counted: warm-up,
// verification, end-to-end runs and timed calls.
#include <cstdint>
#include <vector>

#include "bench/driver/cells.hpp"
#include "bench/driver/inputs.hpp"

namespace gcbench::driver {

// The host cores of the machine the rates come from: plans that several processes compute
// alike (shards, the --gpus CPU queue) estimate at this fixed count, never the machine's own.
inline constexpr unsigned kPlanThreads = 16;

// Seconds for one cell on an input of `input_bytes`; kernel_only: a GPU cell without its
// end-to-end paths (--timing kernel).
double estimate_cell_s(const CellSpec& cell, std::uint64_t input_bytes, unsigned cpu_threads,
                       bool kernel_only = false);

// Seconds for all `cells`, the GPU probe and calibration included when any cell is a GPU one.
double estimate_sweep_s(const std::vector<CellSpec>& cells, const std::vector<InputFile>& inputs,
                        unsigned cpu_threads, bool kernel_only = false);

}  // namespace gcbench::driver
