#include "src/results/counters.hpp"

#include <cctype>

#include <fmt/format.h>

namespace gcbench::results {

const std::vector<CounterSpec>& counter_table() {
  using namespace counter;
  static const std::vector<CounterSpec> table = {
      {kInputBytes, "bytes", "every", "the input's size"},
      {kCompressedBytes, "bytes", "every",
       "the container's size (a codec that runs another program: the file it wrote)"},
      {kRatio, "ratio", "every", "input_bytes / compressed_bytes"},
      {kEntropyBytes, "bytes", "codecs with an entropy stage",
       "the container after its entropy stage, as the codec declares it (LZ77's triples: the "
       "thesis's ratio basis)"},
      {kInputElementWidth, "bytes", "typed inputs",
       "the width of the input's elements (a .npy dtype's, a TPC-H column's): the reports take "
       "the cells at it as the input's defaults"},
      {kVerified, "0/1", "every", "1: the output was decompressed and compared with the input"},
      {kVariedOutputs, "count", "GPU, codecs whose containers vary",
       "timed outputs other than the verified one, each decoded and compared instead"},
      {kSamples, "count", "every", "timed calls the stopping rule took"},
      {kSampledS, "s", "every", "the seconds of those calls (the harness share's timed part)"},
      {kErrorPct, "%", "every, 2 samples or more",
       "the relative standard error of the samples' mean: the console's and reports' ±"},
      {kMaxErrorPct, "%", "every",
       "the stopping rule's target for error_pct; a cell over it is marked *"},
      {kNoisePct, "%", "every, 2 samples or more", "the samples' spread (their IQR / median)"},
      {kCpuShare, "ratio", "CPU", "the timing thread's CPU time / its wall time"},
      {kBusy, "0/1", "CPU, in-process codecs",
       "1: cpu_share was under 0.75, the machine busy with other work (marked ~)"},
      {kKernelS, "s", "GPU",
       "the device call alone, CUDA events, data in device memory (mean of the repetition's "
       "calls)"},
      {kKernelGbps, "GB/s", "GPU", "input_bytes / kernel_s"},
      {kPctCopy, "%", "GPU", "kernel_gbps as a share of the run's device copy (copy_gbps)"},
      {kTransferS, "s", "GPU, every timing",
       "the pinned copies in and out of the device call's buffers, one after the other (timed "
       "once a cell, at set-up)"},
      {kE2eS, "s", "every timing",
       "the whole call from host memory (GPU: the pipeline, pinned, median of the repetition's "
       "runs; CPU: its wall time)"},
      {kE2eGbps, "GB/s", "GPU, every timing", "input_bytes / e2e_s"},
      {kE2ePageableS, "s", "GPU, every timing", "e2e_s from pageable host memory"},
      {kE2ePageableGbps, "GB/s", "GPU, every timing", "input_bytes / e2e_pageable_s"},
      {kE2eTimedS, "s", "GPU, every timing",
       "the repetition's end-to-end runs, pinned and pageable (the harness share's timed part)"},
      {kPctH2d, "%", "GPU, every timing",
       "e2e_gbps as a share of the run's pinned host-to-device copy (h2d_pinned_gbps)"},
      {kPipelineChunkBytes, "bytes", "GPU, every timing", "the pipeline's chunk"},
      {kPipelineDepth, "chunks", "GPU, every timing", "the pipeline's chunks in flight"},
      {kPrimitiveS, "s", "GPU, codecs with a reference primitive",
       "the bare library primitive the codec is built on (its reference_primitive) on the same "
       "input (timed once a cell, after its first repetition)"},
      {kPrimitiveGbps, "GB/s", "GPU, codecs with a reference primitive",
       "input_bytes / primitive_s"},
      {kColdL2, "0/1", "GPU", "1: the L2 was flushed before every timed call (--cold-l2)"},
      {kSmClockPct, "%", "GPU",
       "the SM clock as a share of its maximum, the lower of after the first and the last timed "
       "call"},
      {kThrottled, "0/1", "GPU", "1: sm_clock_pct under 90% (marked !)"},
      {kMemoryHostBytes, "bytes", "CPU",
       "the heap the timed calls held at their peak above the cell's start (a codec that runs "
       "another "
       "program: that program's peak resident memory)"},
      {kMemoryDeviceBytes, "bytes", "GPU",
       "the device call's operands (input, output, temp) and what the codec allocated itself"},
      {kPeakRssBytes, "bytes", "every", "the process's peak resident memory so far"},
  };
  return table;
}

std::string counters_markdown() {
  std::string out =
      "# Counters\n\n"
      "Every counter a result entry may carry, beside Google Benchmark's own fields "
      "([results.md](results.md) says how each is measured and what it cannot see). This page "
      "is `gcbench --counters`, from the one table in `src/results/counters.cpp` that the driver "
      "writes and the reports read them by, and `reports/plots/counters.py` (`gcbench "
      "--counters-python`) gives the Python tools the same names; a test keeps all three "
      "equal.\n\n"
      "| counter | unit | cells | meaning |\n|---|---|---|---|\n";
  for (const CounterSpec& c : counter_table()) {
    out += fmt::format("| `{}` | {} | {} | {} |\n", c.name, c.unit, c.cells, c.meaning);
  }
  return out;
}

std::string counters_python() {
  std::string out =
      "\"\"\"The counters a result entry may carry, for the Python tools: `gcbench "
      "--counters-python`,\nfrom the one table in src/results/counters.cpp (a test keeps the two "
      "equal). Each\nconstant is a counter's name; docs/counters.md says its unit, cells and "
      "meaning.\n\"\"\"\n\n";
  for (const CounterSpec& c : counter_table()) {
    std::string constant = c.name;
    for (char& ch : constant) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    out += fmt::format("{} = \"{}\"  # {}\n", constant, c.name, c.unit);
  }
  return out;
}

}  // namespace gcbench::results
