#include "bench/driver/reporter.hpp"

#include <unistd.h>

#include <iostream>

#include "bench/driver/run_status.hpp"

namespace gcbench::driver {

SweepReporter::SweepReporter(std::optional<Progress> progress, Recorder* recorder)
    : console_(isatty(STDOUT_FILENO) ? benchmark::ConsoleReporter::OO_ColorTabular
                                     : benchmark::ConsoleReporter::OO_Tabular),
      progress_(std::move(progress)),
      recorder_(recorder) {}

bool SweepReporter::ReportContext(const Context& context) {
  last_ = std::chrono::steady_clock::now();
  if (!began_) began_ = last_;
  context_.emplace(context);
  return console_.ReportContext(context);
}

void SweepReporter::ReportRuns(const std::vector<Run>& runs) {
  console_.ReportRuns(runs);
  if (recorder_ != nullptr && context_) recorder_->record(*context_, runs);
  for (const Run& run : runs) {
    any_error_ = any_error_ || run_failed(run);
    if (progress_) progress_->cell_done(run.run_name.function_name);
  }
  // The cell's wall time includes reporting and recording it.
  const auto now = std::chrono::steady_clock::now();
  tally_.add(runs, std::chrono::duration<double>(now - last_).count());
  last_ = now;
}

void SweepReporter::Finalize() {
  console_.Finalize();
}

}  // namespace gcbench::driver
