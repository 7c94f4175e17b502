#pragma once
// The display reporter of a sweep: the run's summary and Google Benchmark's warnings once, then
// the console table (console_table.hpp), plus progress lines, the harness tally (wall and timed
// seconds per cell) and, with --out-dir, the per-file JSON recorder.
#include <benchmark/benchmark.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "bench/driver/console_table.hpp"
#include "bench/driver/harness.hpp"
#include "bench/driver/progress.hpp"
#include "bench/driver/recorder.hpp"

namespace gcbench::driver {

// Google Benchmark's console context with its "Library was built as DEBUG" warning replaced
// by what it means for gcbench's timings (see README).
std::string explain_debug_warning(std::string text);

// The warnings of Google Benchmark's console context (its "***WARNING***" lines, the DEBUG one
// explained), without the rest: the machine and the custom context, which the results' JSON
// keeps and run_summary.hpp sums up.
std::vector<std::string> context_warnings(const std::string& printed);

class SweepReporter : public benchmark::BenchmarkReporter {
 public:
  // `summary`: printed on the error stream before the table (run_summary.hpp).
  SweepReporter(std::optional<Progress> progress, Recorder* recorder,
                std::vector<std::string> summary = {},
                ConsoleNames names = ConsoleNames(ConsoleNames::Defaults{}));

  bool ReportContext(const Context& context) override;
  void ReportRuns(const std::vector<Run>& runs) override;
  void Finalize() override;

  // A cell failed (one skipped on purpose, run_skipped(), is no failure).
  bool any_error() const { return any_error_; }
  const HarnessTally& tally() const { return tally_; }
  // When the first cell began (Google Benchmark reports the context just before it).
  std::optional<std::chrono::steady_clock::time_point> cells_began() const { return began_; }

 private:
  benchmark::ConsoleReporter console_;  // its streams, and the context it would print
  ConsoleTable table_;
  std::vector<std::string> summary_;
  std::optional<Progress> progress_;
  Recorder* recorder_;
  std::optional<Context> context_;
  bool any_error_ = false;
  bool busy_said_ = false;  // the hint for cells measured on a busy machine, printed once
  HarnessTally tally_;
  std::optional<std::chrono::steady_clock::time_point> began_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace gcbench::driver
