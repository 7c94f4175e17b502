// --cold-l2 on a GPU: the flush buffer is twice the device's L2, its read pass runs, and GPU
// cells with a device API run with it, verified, and record cold_l2 = 1 (0 without it), as the
// driver registers them; --timing kernel: the same cells, verified, without end-to-end
// counters. Skipped, saying so, without a GPU.
#include <gtest/gtest.h>

#include <benchmark/benchmark.h>

#include <optional>
#include <string>
#include <vector>

#include "bench/driver/cells.hpp"
#include "bench/driver/device_cells.hpp"
#include "bench/driver/execute.hpp"
#include "bench/driver/inputs.hpp"
#include "bench/driver/l2_flush.hpp"
#include "bench/driver/options.hpp"
#include "bench/driver/run_status.hpp"
#include "codecs/common/cuda_check.hpp"
#include "gcbench/registry.hpp"
#include "support/driver_fixture.hpp"

namespace gcbench::driver {
namespace {

class ColdL2 : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!cuda::available()) GTEST_SKIP() << "no CUDA device: the --cold-l2 tests need one";
    static std::string arg0 = "cold_l2_test",
                       min_time = "--benchmark_min_time=0.001" GCBENCH_BENCHMARK_MIN_TIME_SUFFIX;
    static char* argv[] = {arg0.data(), min_time.data()};
    int argc = 2;
    benchmark::Initialize(&argc, argv);
  }
  void TearDown() override { benchmark::ClearRegisteredBenchmarks(); }

  // RLE (width 4) compressed and decompressed on a 1 MiB synthetic input, through DeviceCells.
  std::vector<benchmark::BenchmarkReporter::Run> run_rle(bool cold_l2, DeviceCells*& made,
                                                         bool end_to_end = true) {
    const std::vector<const Codec*> all = registered_codecs();
    Options o;
    o.device = "gpu";
    o.axis_values = {{"element_width", {"4"}}};
    cells_ = enumerate_cells(select_codecs(all, {"rle"}, "gpu"), all, inputs_, o);
    PipelineSettings settings;
    settings.end_to_end = end_to_end;
    device_cells_.emplace(settings, GpuCeilings{1000, 50, 50, 10}, cold_l2);
    made = &*device_cells_;
    workspace_.set_device_cells(made);
    StoppingRule quick;
    quick.min_time_s = 0.001;
    workspace_.set_stopping_rule(quick, 3);
    for (const CellSpec& cell : cells_) register_cell(cell, workspace_);
    fixture::Capture capture;
    benchmark::RunSpecifiedBenchmarks(&capture);
    return capture.got;
  }

  std::vector<InputFile> inputs_ = gather_inputs({"synthetic:runs-geo8:1MiB:4"}, {}).present;
  Workspace workspace_{inputs_};
  std::vector<CellSpec> cells_;
  std::optional<DeviceCells> device_cells_;
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
      EXPECT_GE(r.counters.at("noise_pct").value, 0) << r.benchmark_name();
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
    benchmark::ClearRegisteredBenchmarks();
    device_cells_.reset();
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
    benchmark::ClearRegisteredBenchmarks();
    device_cells_.reset();
  }
}

}  // namespace
}  // namespace gcbench::driver
