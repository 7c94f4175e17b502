#pragma once
// The harness share of a sweep: how much of its wall time went into the measurements it
// reports, and where the rest went (per codec, device and direction).
//
// Timed seconds (the one definition; --help repeats it): for every cell, the seconds inside
// the timed regions whose measurements the cell reports, as the driver measured them:
//   - the timed calls of each run it reports (its counter sampled_s: wall time for CPU cells,
//     the kernel time from CUDA events for GPU cells), over all repetitions;
//   - plus, for each of those runs, its counter `e2e_timed_s` where it reports one: the summed
//     wall time of the repetition's end-to-end runs whose median it reports.
// Not timed: warm-up calls, set-up, verification, corpus fetching, the GPU probe, writing results.
// Harness share = timed seconds / wall seconds of the whole run.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace gcbench::driver {

struct HarnessGroup {
  int cells = 0;
  double wall_s = 0;
  double timed_s = 0;
};

class HarnessTally {
 public:
  using Run = benchmark::BenchmarkReporter::Run;

  // The timed seconds of one reported run (0 for aggregates and failed runs), its e2e_timed_s
  // counter (that repetition's end-to-end runs) included.
  static double timed_seconds(const Run& run);

  // One call of the reporter's ReportRuns: `wall_s` is the time since the previous call (or
  // since the first cell began), spent on the cell these runs belong to.
  void add(const std::vector<Run>& runs, double wall_s);

  int cells() const { return static_cast<int>(seen_.size()); }
  double timed_s() const { return timed_s_; }
  double cells_wall_s() const { return wall_s_; }
  // Per "<codec>/<device>/<direction>" (or the run name when it is no gcbench cell).
  const std::map<std::string, HarnessGroup>& groups() const { return groups_; }

 private:
  std::set<std::string> seen_;  // cell names already counted
  std::map<std::string, HarnessGroup> groups_;
  double timed_s_ = 0;
  double wall_s_ = 0;
};

// What the run ends by printing and recording.
struct HarnessSummary {
  double wall_s = 0;   // the whole run: from the driver's start to its results written
  double timed_s = 0;  // see above
  double setup_s = 0;  // before the first cell: corpus fetch, GPU probe, registration
  int cells = 0;       // cells reported (failed ones included)
  std::uint64_t peak_rss_bytes = 0;
  std::uint64_t largest_input_bytes = 0;

  double share() const { return wall_s > 0 ? timed_s / wall_s : 0; }
};

// The process's peak resident set size so far (getrusage ru_maxrss), in bytes.
std::uint64_t peak_rss_bytes();

// "[gcbench] harness share <share>: <timed> s timed of <wall> s wall (...)" and the issue's
// memory bound beside the peak RSS; then, when `groups` is not empty, one line per group.
std::string format_summary(const HarnessSummary& s,
                           const std::map<std::string, HarnessGroup>& groups);

// One line for run_suite.sh to add up: "timed_s=41.000 wall_s=150.200 cells=352 ...".
std::string harness_line(const HarnessSummary& s);

// The figures of a line harness_line wrote; nullopt when `line` is not one.
std::optional<HarnessSummary> parse_harness_line(const std::string& line);

// Appends harness_line(s) to `file`. Throws std::runtime_error when it cannot.
void append_harness_line(const std::filesystem::path& file, const HarnessSummary& s);

// A --gpus run's figures from its workers': timed seconds and cells summed (the workers ran
// side by side, so timed seconds may pass the run's wall time), setup the longest, peak RSS
// and largest input the largest (each worker is its own process); `wall_s`, the parent's own.
HarnessSummary combine_workers(const std::vector<HarnessSummary>& workers, double wall_s);

// The keys the run adds to the JSON context of the result files it wrote.
std::vector<std::pair<std::string, std::string>> harness_context(const HarnessSummary& s);

}  // namespace gcbench::driver
