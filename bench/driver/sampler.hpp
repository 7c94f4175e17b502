#pragma once
// When a cell has timed enough, in the spirit of nvbench's stopping rule. A cell takes samples
// (one timed call each) until the relative standard error of their mean is under a target,
// with a minimum count and a minimum of timed seconds, or until a wall-clock cap is spent. The
// error, not the samples' spread, is the target: the cell reports the mean, and the mean of n
// calls is known sqrt(n) times better than any one call. The cell records how many samples it
// took, their spread and the mean's error beside the target, so that a reader sees how sure
// each time is.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gcbench::driver {

struct StoppingRule {
  double min_time_s = 0.02;  // timed seconds at least (--benchmark_min_time=<seconds>s)
  // --benchmark_min_time=<N>x: exactly N samples, whatever their noise.
  std::optional<std::uint64_t> fixed_samples;
  // Wall seconds the sampling may spend (set-up excluded); 0: ten times min_time_s.
  double max_time_s = 0;
  std::uint64_t min_samples = 5;
  double max_error_gpu = 0.01;  // relative standard error of the mean a GPU cell stops under
  double max_error_cpu = 0.03;  // and a CPU cell

  double cap_s() const { return max_time_s > 0 ? max_time_s : 10 * min_time_s; }
};

// The rule from Google Benchmark's --benchmark_min_time (the last given in `args`, else the
// BENCHMARK_MIN_TIME environment variable through `getenv`, else `min_time_default`) and
// gcbench's --max-error and --max-time (already parsed: `max_error_pct` as "GPU[,CPU]" in
// percent, `max_time_s`). Throws std::invalid_argument for a value neither reads.
StoppingRule stopping_rule(const std::vector<std::string>& args,
                           const std::function<const char*(const char*)>& getenv,
                           const std::string& min_time_default,
                           const std::optional<std::string>& max_error_pct,
                           std::optional<double> max_time_s);

// The rule in words, for the run's context ("stopping_rule").
std::string describe(const StoppingRule& rule);

// One cell's samples under a rule; add() each timed call, stop once done().
class Sampler {
 public:
  Sampler(const StoppingRule& rule, bool gpu);

  // A timed call of `timed_s` seconds, ending `wall_s` wall seconds after sampling began.
  void add(double timed_s, double wall_s);
  bool done() const;

  std::uint64_t samples() const { return samples_; }
  double total_s() const { return sum_; }
  double mean_s() const { return mean_; }
  // Relative standard deviation of the samples, their spread (0 below two samples).
  double noise() const;
  // Relative standard error of their mean: noise() / sqrt(samples) (0 below two samples).
  double error() const;
  double max_error() const { return max_error_; }
  // Stopped by the cap (or a fixed count) with the mean's error above the target.
  bool over_target() const { return error() > max_error_; }

 private:
  StoppingRule rule_;
  double max_error_;
  std::uint64_t samples_ = 0;
  double mean_ = 0, m2_ = 0;  // Welford's running mean and sum of squared deviations
  double sum_ = 0;
  double wall_s_ = 0;
};

}  // namespace gcbench::driver
