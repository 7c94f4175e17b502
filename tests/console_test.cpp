// The console: rows that fit kConsoleWidth in human units, cells named by their parts with the
// axes off their defaults, the run's summary in three lines and the missing inputs in one.
#include <gtest/gtest.h>

#include <benchmark/benchmark.h>

#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "bench/driver/console_table.hpp"
#include "bench/driver/reporter.hpp"
#include "bench/driver/run_summary.hpp"
#include "gcbench/registry.hpp"

namespace gcbench::driver {
namespace {
using BenchRun = benchmark::BenchmarkReporter::Run;

// Google Benchmark 1.7's error fields, or 1.8's (run_status.hpp reads either).
template <typename R>
void set_error(R& run, const std::string& message) {
  if constexpr (requires { run.error_occurred; }) {
    run.error_occurred = true;
    run.error_message = message;
  } else {
    run.skipped = std::remove_cvref_t<decltype(run.skipped)>::SkippedWithError;
    run.skip_message = message;
  }
}

const std::string kLongCell =
    "lz77/cpu/decompress/silesia/a-very-long-file-name-of-someones-own-data.bin/finder:z/"
    "work_items:2048/chunk:8192/config:thesis/window_scope:chunk/decode_mode:sequential/"
    "threads:0/real_time";

BenchRun timed_run(const std::string& name, double ns, benchmark::IterationCount iterations) {
  BenchRun run;
  run.run_name.function_name = name;
  run.time_unit = benchmark::kNanosecond;
  run.iterations = iterations;
  run.real_accumulated_time = ns * 1e-9 * static_cast<double>(iterations);
  run.counters["bytes_per_second"] = benchmark::Counter(2.5e9);
  run.counters["e2e_gbps"] = benchmark::Counter(1.25);
  run.counters["ratio"] = benchmark::Counter(2.4891);
  return run;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(Console, HumanUnits) {
  EXPECT_EQ(format_seconds(8830668e-9), "8.83 ms");
  EXPECT_EQ(format_seconds(412e-9), "412 ns");
  EXPECT_EQ(format_seconds(3.521e-6), "3.52 us");
  EXPECT_EQ(format_seconds(1.25), "1.25 s");
  EXPECT_EQ(format_seconds(125.4), "125 s");
  EXPECT_EQ(format_gbps(1450.2), "1450");
  EXPECT_EQ(format_gbps(12.34), "12.3");
  EXPECT_EQ(format_gbps(0.002741), "0.00274");
  EXPECT_EQ(cut_middle("abcdefghij", 7), "ab...ij");
  EXPECT_EQ(cut_middle("abc", 7), "abc");
}

TEST(Console, RowsFitTheWidthAndNameOnlyTheAxesOffTheirDefaults) {
  const ConsoleTable table(ConsoleNames::of(registered_codecs()));
  const std::string header = table.header();
  const std::string row = table.row(timed_run(kLongCell, 8830668, 12));
  for (const std::string& line : lines_of(header + row)) {
    EXPECT_LT(line.size(), kConsoleWidth) << line;
  }
  EXPECT_EQ(lines_of(row).size(), 1u) << row;
  EXPECT_NE(row.find("8.83 ms"), std::string::npos) << row;
  EXPECT_EQ(row.find("8830668"), std::string::npos) << row;
  EXPECT_NE(row.find(" 2.50 "), std::string::npos) << row;   // GB/s
  EXPECT_NE(row.find(" 1.25 "), std::string::npos) << row;   // end-to-end GB/s
  EXPECT_NE(row.find(" 2.489 "), std::string::npos) << row;  // ratio
  EXPECT_TRUE(row.starts_with("lz77 ")) << row;
  EXPECT_NE(row.find(" decompress "), std::string::npos) << row;
  EXPECT_NE(row.find(" ...ile-name-of-someones-own-data.bin "), std::string::npos) << row;
  EXPECT_NE(row.find("finder:z work_items:2048"), std::string::npos) << row;
  EXPECT_EQ(row.find("config:thesis"), std::string::npos) << "a default shown: " << row;

  const ConsoleNames names = ConsoleNames::of(registered_codecs());
  EXPECT_EQ(names.parts("zlib/cpu/compress/canterbury/alice29.txt/level:6")->point, "defaults");
  EXPECT_EQ(names.parts("zlib/cpu/compress/canterbury/alice29.txt/level:9")->point, "level:9");
  EXPECT_EQ(names.parts("not a cell"), std::nullopt);
}

TEST(Console, AggregatesFailuresAndSkipsHaveTheirOwnRows) {
  const ConsoleTable table(ConsoleNames::of(registered_codecs()));
  BenchRun cv = timed_run("zlib/cpu/compress/canterbury/alice29.txt/level:6/real_time", 0.031, 1);
  cv.run_type = BenchRun::RT_Aggregate;
  cv.aggregate_name = "cv";
  cv.aggregate_unit = benchmark::kPercentage;
  cv.real_accumulated_time = 0.031;  // as Google Benchmark gives a cv: the fraction itself
  cv.iterations = 1715;
  const std::string cv_row = table.row(cv);
  EXPECT_NE(cv_row.find(" 3.1% "), std::string::npos) << cv_row;
  EXPECT_NE(cv_row.find(" canterbury/alice29.txt "), std::string::npos) << cv_row;
  EXPECT_TRUE(cv_row.ends_with(" cv\n")) << cv_row;

  BenchRun failed = timed_run("zlib/cpu/decompress/canterbury/alice29.txt/level:6/real_time", 1, 1);
  set_error(failed, "decompressed output differs from the input at byte " +
                        std::string(200, '7'));  // longer than a line
  const std::vector<std::string> lines = lines_of(table.row(failed));
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_TRUE(lines[0].ends_with(" ERROR")) << lines[0];
  EXPECT_NE(lines[1].find("error: decompressed output differs"), std::string::npos) << lines[1];
  for (const std::string& line : lines) EXPECT_LT(line.size(), kConsoleWidth) << line;
}

TEST(Console, TheSummaryIsThreeLinesAndMissingInputsOne) {
  RunFacts facts;
  facts.context = {{"gcbench_version", "0.1.0"},        {"git_revision", "abc"},
                   {"build_type", "Release"},           {"cpu_model", std::string(300, 'x')},
                   {"gpu", "none: built without CUDA"}, {"corpora", "canterbury"}};
  facts.cells = 132;
  facts.codecs = {"fl/cpu", "zlib/cpu"};
  facts.inputs = 11;
  facts.gpu_cells_dropped = true;
  const std::vector<std::string> summary = run_summary(facts, kConsoleWidth - 1);
  ASSERT_EQ(summary.size(), 3u);
  for (const std::string& line : summary) EXPECT_LT(line.size(), kConsoleWidth) << line;
  EXPECT_EQ(summary[1], "[gcbench] GPU none: built without CUDA (its GPU cells are not run)");
  EXPECT_NE(summary[2].find("132 cells of fl/cpu,zlib/cpu on 11 inputs (canterbury)"),
            std::string::npos)
      << summary[2];

  EXPECT_EQ(missing_inputs_line({}, 159), "");
  const std::vector<MissingInput> missing = {{"d", "links/fifo", "skipped: a FIFO"},
                                             {"d", "links/loop1", "skipped: a symlink loop"},
                                             {"d", "links/loop2", "skipped: a symlink loop"}};
  EXPECT_EQ(missing_inputs_line(missing, 159),
            "[gcbench] 3 inputs skipped: d/links/fifo (a FIFO); d/links/loop1, d/links/loop2 (a "
            "symlink loop)");
  std::vector<MissingInput> many;
  for (int i = 0; i < 40; ++i)
    many.push_back({"silesia", "file" + std::to_string(i), "not in mirror; download disabled"});
  const std::string line = missing_inputs_line(many, 159);
  EXPECT_EQ(line.size(), 159u) << line;
  EXPECT_TRUE(line.starts_with("[gcbench] 40 inputs not available: silesia/file0, ")) << line;
  EXPECT_TRUE(line.ends_with(" ... (the JSON's context has each)")) << line;
}

TEST(Console, OnlyGoogleBenchmarksWarningsAreKeptOfItsContext) {
  const std::vector<std::string> warnings = context_warnings(
      "2026-01-01\nRunning gcbench\nRun on (2 X 2300 MHz CPU s)\nCPU Caches:\n  L1 Data 48 KiB\n"
      "***WARNING*** Library was built as DEBUG. Timings may be affected.\n"
      "build_type: Release\ncorpora: canterbury\n");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_TRUE(
      warnings[0].starts_with("[gcbench] Google Benchmark's library was built without NDEBUG"))
      << warnings[0];
}

}  // namespace
}  // namespace gcbench::driver
