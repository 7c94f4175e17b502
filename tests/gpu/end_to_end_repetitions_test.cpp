// GPU cells with repetitions, end to end: each repetition times its own end-to-end runs, so
// that --compare's U test over the repetitions' e2e_s reads measurements, not copies of one,
// and its kernel_s is its own calls' mean. Skipped, saying so, without a GPU.
#include <gtest/gtest.h>

#include <benchmark/benchmark.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "bench/driver/run_status.hpp"
#include "support/device_cells_fixture.hpp"

namespace gcbench::driver {
namespace {

using EndToEndRepetitions = DeviceCellsTest;

TEST_F(EndToEndRepetitions, EachRepetitionMeasuresItsOwn) {
  use_repetitions(3);
  const auto runs = run("rle", {{"element_width", {"4"}}});
  std::map<std::string, std::vector<double>> e2e_by_cell;
  for (const auto& r : runs) {
    if (r.run_type != benchmark::BenchmarkReporter::Run::RT_Iteration) continue;
    ASSERT_FALSE(run_failed(r)) << r.benchmark_name() << ": " << run_message(r);
    EXPECT_GT(r.counters.at("e2e_timed_s").value, 0) << r.benchmark_name();
    // kernel_s is the repetition's own mean too, its time per iteration.
    const double per_iteration = r.real_accumulated_time / static_cast<double>(r.iterations);
    EXPECT_NEAR(r.counters.at("kernel_s").value, per_iteration, 1e-6 * per_iteration)
        << r.benchmark_name();
    e2e_by_cell[r.run_name.function_name].push_back(r.counters.at("e2e_s").value);
  }
  ASSERT_EQ(e2e_by_cell.size(), 2u) << "compress and decompress";
  for (const auto& [cell, e2e] : e2e_by_cell) {
    ASSERT_EQ(e2e.size(), 3u) << cell;
    for (double s : e2e) EXPECT_GT(s, 0) << cell;
    // Wall-clock medians in seconds: three separate measurements are never all the same double.
    EXPECT_GT(std::set<double>(e2e.begin(), e2e.end()).size(), 1u) << cell;
  }
}

}  // namespace
}  // namespace gcbench::driver
