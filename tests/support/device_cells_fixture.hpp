#pragma once
// GPU cells of a codec with a device API run through DeviceCells as the driver registers them,
// on a 1 MiB synthetic input; the fixture skips, saying so, without a GPU.
#include <gtest/gtest.h>

#include <benchmark/benchmark.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bench/driver/cells.hpp"
#include "bench/driver/device_cells.hpp"
#include "bench/driver/execute.hpp"
#include "bench/driver/inputs.hpp"
#include "bench/driver/options.hpp"
#include "src/cuda/cuda_check.hpp"
#include "gcbench/registry.hpp"
#include "support/driver_fixture.hpp"

namespace gcbench::driver {

class DeviceCellsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!cuda::available()) GTEST_SKIP() << "no CUDA device: these tests run GPU cells";
    use_repetitions(1);
  }
  // Google Benchmark's --benchmark_repetitions for the cells run next.
  static void use_repetitions(int n) {
    static std::string arg0 = "device_cells_test",
                       min_time = "--benchmark_min_time=0.001" GCBENCH_BENCHMARK_MIN_TIME_SUFFIX;
    std::string repetitions = "--benchmark_repetitions=" + std::to_string(n);
    char* argv[] = {arg0.data(), min_time.data(), repetitions.data()};
    int argc = 3;
    benchmark::Initialize(&argc, argv);
  }
  void TearDown() override {
    benchmark::ClearRegisteredBenchmarks();
    device_cells_.reset();
  }

  // The codec's GPU cells (compress and decompress) at `axes`, as the driver runs them.
  std::vector<benchmark::BenchmarkReporter::Run> run(
      const std::string& codec, std::map<std::string, std::vector<std::string>> axes,
      PipelineSettings settings = {}, bool cold_l2 = false) {
    benchmark::ClearRegisteredBenchmarks();
    device_cells_.reset();
    const std::vector<const Codec*> all = registered_codecs();
    Options o;
    o.device = "gpu";
    o.axis_values = std::move(axes);
    cells_ = enumerate_cells(select_codecs(all, {codec}, "gpu"), all, inputs_, o);
    device_cells_.emplace(settings, GpuCeilings{1000, 50, 50, 10}, cold_l2);
    workspace_.set_device_cells(&*device_cells_);
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

}  // namespace gcbench::driver
