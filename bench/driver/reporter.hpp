#pragma once
// The display reporter of a sweep: Google Benchmark's console table, plus progress lines and,
// with --out-dir, the per-file JSON recorder.
#include <benchmark/benchmark.h>

#include <optional>
#include <vector>

#include "bench/driver/progress.hpp"
#include "bench/driver/recorder.hpp"

namespace gcbench::driver {

class SweepReporter : public benchmark::BenchmarkReporter {
 public:
  SweepReporter(std::optional<Progress> progress, Recorder* recorder);

  bool ReportContext(const Context& context) override;
  void ReportRuns(const std::vector<Run>& runs) override;
  void Finalize() override;

  bool any_error() const { return any_error_; }

 private:
  benchmark::ConsoleReporter console_;
  std::optional<Progress> progress_;
  Recorder* recorder_;
  std::optional<Context> context_;
  bool any_error_ = false;
};

}  // namespace gcbench::driver
