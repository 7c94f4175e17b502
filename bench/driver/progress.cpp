#include "bench/driver/progress.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gcbench::driver {

std::string format_duration(double seconds) {
  long s = std::lround(std::max(0.0, seconds));
  char buf[32];
  if (s >= 3600) {
    std::snprintf(buf, sizeof buf, "%ldh%02ldm", s / 3600, (s % 3600) / 60);
  } else if (s >= 60) {
    std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
  } else {
    std::snprintf(buf, sizeof buf, "%lds", s);
  }
  return buf;
}

Progress::Progress(std::map<std::string, double> weights, std::ostream& out)
    : weights_(std::move(weights)), out_(out) {
  // Every cell weighs at least one byte so that empty inputs still count as progress.
  for (auto& [name, w] : weights_) total_weight_ += (w = std::max(w, 1.0));
}

std::string Progress::line(const std::string& name, double elapsed_s) const {
  std::string text = "[gcbench] cell " + std::to_string(done_.size()) + " of " +
                     std::to_string(weights_.size()) + ", elapsed " + format_duration(elapsed_s);
  if (done_weight_ > 0 && done_.size() < weights_.size()) {
    double remaining = elapsed_s * (total_weight_ - done_weight_) / done_weight_;
    text += ", about " + format_duration(remaining) + " left";
  }
  return text + " (" + name + ")";
}

void Progress::cell_done(const std::string& name) {
  auto it = weights_.find(name);
  if (it == weights_.end() || !done_.insert(name).second) return;
  done_weight_ += it->second;
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  out_ << line(name, elapsed) << std::endl;
}

}  // namespace gcbench::driver
