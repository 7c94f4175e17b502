#pragma once
// "cell k of N, elapsed, estimate" on long sweeps. The estimate weighs each cell by the cost
// model's seconds (estimate.hpp): input size alone misjudges the thread design, whose launches
// take seconds whatever the size. On a terminal it
// is one line redrawn in place (the results table on stdout is never mixed with it); to a
// pipe or a log, one plain line per cell.
#include <chrono>
#include <cstddef>
#include <map>
#include <ostream>
#include <set>
#include <string>

namespace gcbench::driver {

enum class ProgressStyle {
  lines,  // one line per cell
  live,   // one line, redrawn with '\r' and cut to `width` columns
};

class Progress {
 public:
  // `weights`: cell name -> expected seconds (estimate.hpp), for the cells that will run.
  Progress(std::map<std::string, double> weights, std::ostream& out,
           ProgressStyle style = ProgressStyle::lines, std::size_t width = 80);

  // Called once or more per cell (Google Benchmark reports runs and aggregates separately).
  void cell_done(const std::string& name);

  // Live: erases the line, before other output reaches the terminal (cell_done redraws it).
  void clear();
  // Live: ends the line, leaving its last state on screen.
  void finish();

  // The line printed after `done` of the cells, `elapsed_s` into the sweep.
  std::string line(const std::string& name, double elapsed_s) const;
  // The same, at most `width` characters: the cell name loses its head first ("...").
  std::string fitted_line(const std::string& name, double elapsed_s, std::size_t width) const;

 private:
  std::string head(double elapsed_s) const;

  std::map<std::string, double> weights_;
  double total_weight_ = 0;
  double done_weight_ = 0;
  std::set<std::string> done_;
  std::ostream& out_;
  ProgressStyle style_;
  std::size_t width_;
  std::string live_line_;  // live: the line as last drawn
  bool drawn_ = false;     // live: it is on screen
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// "1h02m", "3m05s", "12s".
std::string format_duration(double seconds);

// Columns of the terminal on `fd`, or `fallback` when it is none or does not say.
std::size_t terminal_width(int fd, std::size_t fallback = 80);

}  // namespace gcbench::driver
