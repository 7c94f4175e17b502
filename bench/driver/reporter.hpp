#pragma once
// The display reporter of a sweep: Google Benchmark's console table, plus progress lines, the
// harness tally (wall and timed seconds per cell) and, with --out-dir, the per-file JSON
// recorder.
#include <benchmark/benchmark.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "bench/driver/harness.hpp"
#include "bench/driver/progress.hpp"
#include "bench/driver/recorder.hpp"

namespace gcbench::driver {

// Google Benchmark's console context with its "Library was built as DEBUG" warning replaced
// by what it means for gcbench's timings (see README).
std::string explain_debug_warning(std::string text);

class SweepReporter : public benchmark::BenchmarkReporter {
 public:
  SweepReporter(std::optional<Progress> progress, Recorder* recorder);

  bool ReportContext(const Context& context) override;
  void ReportRuns(const std::vector<Run>& runs) override;
  void Finalize() override;

  // A cell failed (one skipped on purpose, run_skipped(), is no failure).
  bool any_error() const { return any_error_; }
  const HarnessTally& tally() const { return tally_; }
  // When the first cell began (Google Benchmark reports the context just before it).
  std::optional<std::chrono::steady_clock::time_point> cells_began() const { return began_; }

 private:
  benchmark::ConsoleReporter console_;
  std::optional<Progress> progress_;
  Recorder* recorder_;
  std::optional<Context> context_;
  bool any_error_ = false;
  HarnessTally tally_;
  std::optional<std::chrono::steady_clock::time_point> began_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace gcbench::driver
