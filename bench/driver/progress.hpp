#pragma once
// "cell k of N, elapsed, estimate" on long sweeps. The estimate weighs each cell by its input
// size, since time per cell grows with it far more than with anything else.
#include <chrono>
#include <map>
#include <ostream>
#include <set>
#include <string>

namespace gcbench::driver {

class Progress {
 public:
  // `weights`: cell name -> input bytes, for the cells that will run.
  Progress(std::map<std::string, double> weights, std::ostream& out);

  // Called once or more per cell (Google Benchmark reports runs and aggregates separately).
  void cell_done(const std::string& name);

  // The line printed after `done` of the cells, `elapsed_s` into the sweep.
  std::string line(const std::string& name, double elapsed_s) const;

 private:
  std::map<std::string, double> weights_;
  double total_weight_ = 0;
  double done_weight_ = 0;
  std::set<std::string> done_;
  std::ostream& out_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// "1h02m", "3m05s", "12s".
std::string format_duration(double seconds);

}  // namespace gcbench::driver
