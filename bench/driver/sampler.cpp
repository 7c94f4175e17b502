#include "bench/driver/sampler.hpp"

#include "bench/driver/benchmark_flag.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace gcbench::driver {
namespace {

// A positive number, all of `text`; nullopt otherwise.
std::optional<double> positive_number(const std::string& text) {
  try {
    std::size_t used = 0;
    const double v = std::stod(text, &used);
    if (used == text.size() && std::isfinite(v) && v > 0) return v;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

// Google Benchmark's two forms: "<seconds>s" (or a bare number) and "<iterations>x".
void read_min_time(const std::string& text, const std::string& source, StoppingRule& rule) {
  if (!text.empty() && text.back() == 'x') {
    const std::optional<double> n = positive_number(text.substr(0, text.size() - 1));
    if (!n || *n != std::floor(*n)) {
      throw std::invalid_argument(source + ": give seconds (0.02s) or a whole count (100x)");
    }
    rule.fixed_samples = static_cast<std::uint64_t>(*n);
    return;
  }
  const std::string seconds =
      !text.empty() && text.back() == 's' ? text.substr(0, text.size() - 1) : text;
  const std::optional<double> s = positive_number(seconds);
  if (!s) throw std::invalid_argument(source + ": give seconds (0.02s) or a whole count (100x)");
  rule.min_time_s = *s;
}

}  // namespace

StoppingRule stopping_rule(const std::vector<std::string>& args,
                           const std::function<const char*(const char*)>& getenv,
                           const std::string& min_time_default,
                           const std::optional<std::string>& max_error_pct,
                           std::optional<double> max_time_s) {
  StoppingRule rule;
  const GivenValue given =
      benchmark_flag(args, getenv, "min_time")
          .value_or(GivenValue{min_time_default, "--benchmark_min_time=" + min_time_default});
  read_min_time(given.value, given.source, rule);
  if (max_error_pct) {
    const std::string& text = *max_error_pct;
    const std::size_t comma = text.find(',');
    const auto gpu = positive_number(text.substr(0, comma));
    const auto cpu = comma == std::string::npos ? gpu : positive_number(text.substr(comma + 1));
    if (!gpu || !cpu) {
      throw std::invalid_argument("--max-error " + text +
                                  ": give a percentage, or GPU,CPU percentages (1,3)");
    }
    rule.max_error_gpu = *gpu / 100;
    rule.max_error_cpu = *cpu / 100;
  }
  if (max_time_s) {
    if (!(*max_time_s > 0)) throw std::invalid_argument("--max-time: give seconds above 0");
    rule.max_time_s = *max_time_s;
  }
  return rule;
}

std::string describe(const StoppingRule& rule) {
  if (rule.fixed_samples) {
    return fmt::format("{} timed calls per cell (--benchmark_min_time={}x)", *rule.fixed_samples,
                       *rule.fixed_samples);
  }
  return fmt::format(
      "timed calls until the relative standard error of their mean is under {:g}% (GPU) or "
      "{:g}% (CPU), with at least {} calls and {:g} s timed, or until {:g} s of wall time per "
      "cell",
      100 * rule.max_error_gpu, 100 * rule.max_error_cpu, rule.min_samples, rule.min_time_s,
      rule.cap_s());
}

Sampler::Sampler(const StoppingRule& rule, bool gpu)
    : rule_(rule), max_error_(gpu ? rule.max_error_gpu : rule.max_error_cpu) {}

void Sampler::add(double timed_s, double wall_s) {
  // Welford's update: the variance without the cancellation of a sum of squares.
  ++samples_;
  const double delta = timed_s - mean_;
  mean_ += delta / static_cast<double>(samples_);
  m2_ += delta * (timed_s - mean_);
  sum_ += timed_s;
  wall_s_ = wall_s;
}

double Sampler::noise() const {
  if (samples_ < 2 || mean_ <= 0) return 0;
  return std::sqrt(m2_ / static_cast<double>(samples_ - 1)) / mean_;
}

double Sampler::error() const {
  return noise() / std::sqrt(static_cast<double>(std::max<std::uint64_t>(samples_, 1)));
}

bool Sampler::done() const {
  if (rule_.fixed_samples) return samples_ >= *rule_.fixed_samples;
  if (samples_ == 0) return false;
  if (wall_s_ >= rule_.cap_s()) return true;
  return samples_ >= rule_.min_samples && sum_ >= rule_.min_time_s && error() <= max_error_;
}

}  // namespace gcbench::driver
