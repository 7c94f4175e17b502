#include "bench/driver/reporter.hpp"

#include <unistd.h>

#include <iostream>
#include <sstream>
#include <string>

#include "bench/driver/run_status.hpp"

namespace gcbench::driver {

SweepReporter::SweepReporter(std::optional<Progress> progress, Recorder* recorder)
    : console_(isatty(STDOUT_FILENO) ? benchmark::ConsoleReporter::OO_ColorTabular
                                     : benchmark::ConsoleReporter::OO_Tabular),
      progress_(std::move(progress)),
      recorder_(recorder) {}

std::string explain_debug_warning(std::string text) {
  const std::string warning = "***WARNING*** Library was built as DEBUG. Timings may be affected.";
  const std::size_t at = text.find(warning);
  if (at == std::string::npos) return text;
  return text.replace(at, warning.size(),
                      "[gcbench] Google Benchmark's library was built without NDEBUG (Debian's "
                      "package): its own checks, once per batch of calls; the timing loop is "
                      "compiled into gcbench (docs/results.md: Google Benchmark's DEBUG warning)");
}

bool SweepReporter::ReportContext(const Context& context) {
  last_ = std::chrono::steady_clock::now();
  if (!began_) began_ = last_;
  context_.emplace(context);
  // The console prints the machine's context on its error stream: printed here instead, with
  // the library's DEBUG warning said for what it is.
  std::ostream& err = console_.GetErrorStream();
  std::ostringstream printed;
  console_.SetErrorStream(&printed);
  const bool ok = console_.ReportContext(context);
  console_.SetErrorStream(&err);
  err << explain_debug_warning(printed.str()) << std::flush;
  return ok;
}

void SweepReporter::ReportRuns(const std::vector<Run>& runs) {
  if (progress_) progress_->clear();  // a live progress line must not mix with the table
  console_.ReportRuns(runs);
  console_.GetOutputStream().flush();
  if (recorder_ != nullptr && context_) recorder_->record(*context_, runs);
  for (const Run& run : runs) {
    any_error_ = any_error_ || (run_failed(run) && !run_skipped(run));
    if (progress_) progress_->cell_done(run.run_name.function_name);
  }
  // The cell's wall time includes reporting and recording it.
  const auto now = std::chrono::steady_clock::now();
  tally_.add(runs, std::chrono::duration<double>(now - last_).count());
  last_ = now;
}

void SweepReporter::Finalize() {
  if (progress_) progress_->finish();
  console_.Finalize();
}

}  // namespace gcbench::driver
