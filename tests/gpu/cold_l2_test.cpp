// --cold-l2 on a GPU: the flush buffer is twice the device's L2, its read pass runs, and GPU
// cells with a device API run with it, verified, and record cold_l2 = 1 (0 without it), as the
// driver registers them; --timing kernel: the same cells, verified, without end-to-end
// counters. Skipped, saying so, without a GPU.
#include <gtest/gtest.h>

#include <benchmark/benchmark.h>

#include <vector>

#include "bench/driver/device_cells.hpp"
#include "bench/driver/l2_flush.hpp"
#include "bench/driver/run_status.hpp"
#include "src/cuda/device_buffer.hpp"
#include "support/device_cells_fixture.hpp"

namespace gcbench::driver {
namespace {

class ColdL2 : public DeviceCellsTest {
 protected:
  // RLE (width 4) compressed and decompressed on a 1 MiB synthetic input, through DeviceCells.
  std::vector<benchmark::BenchmarkReporter::Run> run_rle(bool cold_l2, DeviceCells*& made,
                                                         bool end_to_end = true) {
    PipelineSettings settings;
    settings.end_to_end = end_to_end;
    auto runs = run("rle", {{"element_width", {"4"}}}, settings, cold_l2);
    made = &*device_cells_;
    return runs;
  }
};

TEST_F(ColdL2, FlushBufferIsTwiceTheL2AndItsReadPassRuns) {
  L2Flush flush;
  EXPECT_GT(flush.l2_bytes(), 0u);
  EXPECT_GE(flush.flush_bytes() + 16, 2 * flush.l2_bytes());
  cuda::Stream stream;
  flush.enqueue(stream.get());
  stream.sync();
}

TEST_F(ColdL2, CellsRunVerifiedAndRecordTheFlag) {
  for (const bool cold : {true, false}) {
    DeviceCells* cells = nullptr;
    const auto runs = run_rle(cold, cells);
    ASSERT_EQ(runs.size(), 2u) << "compress and decompress";
    for (const auto& r : runs) {
      EXPECT_FALSE(run_failed(r)) << r.benchmark_name() << ": " << run_message(r);
      EXPECT_EQ(r.counters.at("verified").value, 1) << r.benchmark_name();
      EXPECT_EQ(r.counters.at("cold_l2").value, cold ? 1 : 0) << r.benchmark_name();
      EXPECT_GT(r.counters.at("kernel_gbps").value, 0) << r.benchmark_name();
      // The stopping rule's record, and the SM clock read through NVML with its throttle flag.
      EXPECT_GE(r.counters.at("samples").value, 1) << r.benchmark_name();
      // One sample has no spread: its cell records no noise at all.
      const bool several = r.counters.at("samples").value > 1;
      ASSERT_EQ(r.counters.count("noise_pct"), several ? 1u : 0u) << r.benchmark_name();
      if (several) {
        EXPECT_GE(r.counters.at("noise_pct").value, 0) << r.benchmark_name();
      }
      EXPECT_DOUBLE_EQ(r.counters.at("max_error_pct").value, 1) << r.benchmark_name();
      ASSERT_EQ(r.counters.count("sm_clock_pct"), 1u) << r.benchmark_name() << ": no NVML?";
      EXPECT_GT(r.counters.at("sm_clock_pct").value, 0);
      EXPECT_EQ(r.counters.at("throttled").value,
                r.counters.at("sm_clock_pct").value < 100 * kThrottledBelow ? 1 : 0);
    }
    const auto context = cells->l2_flush_context();
    EXPECT_EQ(context.has_value(), cold);
    if (context) {
      EXPECT_TRUE(context->starts_with("yes: before every timed GPU kernel call")) << *context;
    }
  }
}

TEST_F(ColdL2, KernelOnlyCellsAreVerifiedAndHaveNoEndToEndCounters) {
  for (const bool end_to_end : {false, true}) {
    DeviceCells* cells = nullptr;
    const auto runs = run_rle(true, cells, end_to_end);
    ASSERT_EQ(runs.size(), 2u) << "compress and decompress";
    for (const auto& r : runs) {
      EXPECT_FALSE(run_failed(r)) << r.benchmark_name() << ": " << run_message(r);
      EXPECT_EQ(r.counters.at("verified").value, 1) << r.benchmark_name();
      EXPECT_GT(r.counters.at("kernel_gbps").value, 0) << r.benchmark_name();
      EXPECT_GT(r.counters.at("pct_copy").value, 0) << r.benchmark_name();
      for (const char* counter :
           {"e2e_s", "e2e_gbps", "e2e_pageable_gbps", "e2e_timed_s", "pct_h2d", "transfer_s"}) {
        EXPECT_EQ(r.counters.count(counter), end_to_end ? 1u : 0u)
            << r.benchmark_name() << " " << counter;
      }
    }
  }
}

}  // namespace
}  // namespace gcbench::driver
