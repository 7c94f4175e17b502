#include "bench/driver/reporter.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <sstream>
#include <string>

#include "bench/driver/cell_queue.hpp"
#include "bench/driver/run_status.hpp"
#include "bench/driver/supervision.hpp"
#include "src/results/counters.hpp"
#include "src/results/time_marks.hpp"

namespace gcbench::driver {

SweepReporter::SweepReporter(std::optional<Progress> progress, Recorder* recorder,
                             std::vector<std::string> summary, ConsoleNames names)
    : console_(benchmark::ConsoleReporter::OO_None),
      table_(std::move(names)),
      summary_(std::move(summary)),
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

std::vector<std::string> context_warnings(const std::string& printed) {
  std::vector<std::string> warnings;
  std::istringstream lines(printed);
  for (std::string line; std::getline(lines, line);) {
    if (line.find("***WARNING***") != std::string::npos)
      warnings.push_back(explain_debug_warning(line));
  }
  return warnings;
}

bool SweepReporter::ReportContext(const Context& context) {
  last_ = std::chrono::steady_clock::now();
  if (!began_) began_ = last_;
  context_.emplace(context);
  // Google Benchmark's console prints the machine and every custom context entry on its error
  // stream: only its warnings are kept, after the run's summary.
  std::ostream& err = console_.GetErrorStream();
  std::ostringstream printed;
  console_.SetErrorStream(&printed);
  const bool ok = console_.ReportContext(context);
  console_.SetErrorStream(&err);
  for (const std::string& line : summary_) err << line << "\n";
  for (const std::string& line : context_warnings(printed.str())) err << line << "\n";
  err << std::flush;
  console_.GetOutputStream() << table_.header() << std::flush;
  return ok;
}

void SweepReporter::ReportRuns(const std::vector<Run>& runs) {
  if (!runs.empty() && run_failed(runs.front()) && run_message(runs.front()) == kClaimedElsewhere) {
    // Another worker of the queue measures it: nothing to show, record or count here.
    if (progress_) progress_->drop(runs.front().run_name.function_name);
    last_ = std::chrono::steady_clock::now();
    return;
  }
  if (progress_) progress_->clear();  // a live progress line must not mix with the table
  std::ostream& out = console_.GetOutputStream();
  for (const Run& run : runs) out << table_.row(run);
  out.flush();
  const auto busy = std::find_if(runs.begin(), runs.end(), [](const Run& run) {
    const auto it = run.counters.find(results::counter::kBusy);
    return it != run.counters.end() && it->second > 0;
  });
  if (busy != runs.end() && !busy_said_) {
    busy_said_ = true;
    console_.GetErrorStream() << fmt::format(
        "[gcbench] ~ after an error: the machine was busy during that CPU cell (its timing "
        "thread on a CPU {:.0f}% of its wall time, under {:.0f}%)\n"
        "[gcbench]   its time is partly the machine's; for quiet figures rerun such cells on an "
        "idle machine (their result files removed, or --fresh)\n",
        100 * busy->counters.at(results::counter::kCpuShare).value, 100 * results::kBusyBelow);
  }
  if (recorder_ != nullptr && context_) recorder_->record(*context_, runs);
  for (const Run& run : runs) {
    any_error_ = any_error_ || (run_failed(run) && !run_skipped(run));
    if (progress_) progress_->cell_done(run.run_name.function_name);
  }
  // The cell's wall time includes reporting and recording it.
  const auto now = std::chrono::steady_clock::now();
  tally_.add(runs, std::chrono::duration<double>(now - last_).count());
  last_ = now;
  // Recorded: the supervisor no longer holds this worker to the cell; a worker whose CUDA
  // context the cell broke ends here, for a fresh one to go on.
  supervision::cell_ends();
  supervision::restart_if_requested();
}

void SweepReporter::Finalize() {
  if (progress_) progress_->finish();
}

}  // namespace gcbench::driver
