#pragma once
// "cell k of N, elapsed, time left" on long sweeps. The time left weighs each cell by the cost
// model's seconds (estimate.hpp): input size alone misjudges the thread design, whose launches
// take seconds whatever the size. It is shown only while it has proven itself on this run (see
// time_left). On a terminal it is one line redrawn in place (the results table on stdout is
// never mixed with it); to a pipe or a log, one plain line per cell. Cells are named as the
// console table names them (console_table.hpp).
#include <chrono>
#include <cstddef>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "bench/driver/console_table.hpp"

namespace gcbench::driver {

enum class ProgressStyle {
  lines,  // one line per cell, cut to the console table's width
  live,   // one line, redrawn with '\r' and cut to `width` columns
};

class Progress {
 public:
  // `weights`: cell name -> expected seconds (estimate.hpp), for the cells that will run.
  Progress(std::map<std::string, double> weights, std::ostream& out,
           ProgressStyle style = ProgressStyle::lines, std::size_t width = 80,
           ConsoleNames names = ConsoleNames(ConsoleNames::Defaults{}));

  // Called once or more per cell (Google Benchmark reports runs and aggregates separately).
  void cell_done(const std::string& name);
  // The same, `elapsed_s` into the sweep (cell_done reads the clock).
  void cell_done_at(const std::string& name, double elapsed_s);
  // A cell that will not run here after all (another worker took it): no longer counted.
  void drop(const std::string& name);

  // The seconds left, `elapsed_s` into the sweep, when the estimate is to be trusted: after
  // kMinCells cells and kMinShare of the expected work, the rate measured when half of the work
  // done was done has forecast the second half's time within kTolerance. Otherwise nothing: an
  // estimate that jumps (a slow cell after fast ones) is not shown until it holds again.
  std::optional<double> time_left(double elapsed_s) const;
  static constexpr std::size_t kMinCells = 4;
  static constexpr double kMinShare = 0.05;
  static constexpr double kTolerance = 0.3;

  // Live: erases the line, before other output reaches the terminal (cell_done redraws it).
  void clear();
  // Live: ends the line, leaving its last state on screen.
  void finish();

  // The line printed after `done` of the cells, `elapsed_s` into the sweep.
  std::string line(const std::string& name, double elapsed_s) const;
  // The same, at most `width` characters: the cell's axes are cut first, then its input's
  // middle, so that codec, direction and file stay seen.
  std::string fitted_line(const std::string& name, double elapsed_s, std::size_t width) const;

 private:
  std::string head(double elapsed_s) const;

  std::map<std::string, double> weights_;
  double total_weight_ = 0;
  double done_weight_ = 0;
  std::set<std::string> done_;
  std::vector<std::pair<double, double>> history_;  // (work done, elapsed s) at each cell done
  ConsoleNames names_;
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
