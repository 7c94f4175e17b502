#include "bench/driver/progress.hpp"

#include <sys/ioctl.h>

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

std::size_t terminal_width(int fd, std::size_t fallback) {
  winsize size{};
  if (::ioctl(fd, TIOCGWINSZ, &size) != 0 || size.ws_col == 0) return fallback;
  return size.ws_col;
}

Progress::Progress(std::map<std::string, double> weights, std::ostream& out, ProgressStyle style,
                   std::size_t width, ConsoleNames names)
    : weights_(std::move(weights)),
      names_(std::move(names)),
      out_(out),
      style_(style),
      width_(width) {
  // Every cell weighs something so that a cell estimated at nothing still counts as progress.
  for (auto& [name, w] : weights_) total_weight_ += (w = std::max(w, 1e-3));
}

std::optional<double> Progress::time_left(double elapsed_s) const {
  if (done_.size() < kMinCells || done_.size() == weights_.size() ||
      done_weight_ < kMinShare * total_weight_ || history_.empty())
    return std::nullopt;
  // The last point at which half of the work done so far was done.
  const auto [now_weight, now_s] = history_.back();
  const auto half = std::find_if(history_.rbegin(), history_.rend(),
                                 [&](const auto& h) { return h.first <= now_weight / 2; });
  if (half == history_.rend() || half->second <= 0) return std::nullopt;
  const double forecast = half->second / half->first * (now_weight - half->first);
  const double took = now_s - half->second;
  if (forecast <= 0 || std::abs(took / forecast - 1) > kTolerance) return std::nullopt;
  return elapsed_s * (total_weight_ - done_weight_) / done_weight_;
}

std::string Progress::head(double elapsed_s) const {
  std::string text = "[gcbench] cell " + std::to_string(done_.size()) + " of " +
                     std::to_string(weights_.size()) + ", elapsed " + format_duration(elapsed_s);
  if (const std::optional<double> left = time_left(elapsed_s))
    text += ", about " + format_duration(*left) + " left";
  return text;
}

std::string Progress::line(const std::string& name, double elapsed_s) const {
  return head(elapsed_s) + " (" + names_.line(name, std::string::npos) + ")";
}

std::string Progress::fitted_line(const std::string& name, double elapsed_s,
                                  std::size_t width) const {
  const std::string start = head(elapsed_s) + " (";
  if (start.size() + 2 >= width) return line(name, elapsed_s).substr(0, width);
  return start + names_.line(name, width - start.size() - 1) + ")";
}

void Progress::cell_done(const std::string& name) {
  cell_done_at(name,
               std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
}

void Progress::cell_done_at(const std::string& name, double elapsed) {
  auto it = weights_.find(name);
  if (it != weights_.end() && done_.insert(name).second) {
    done_weight_ += it->second;
    history_.emplace_back(done_weight_, elapsed);
    if (style_ == ProgressStyle::lines) {
      out_ << fitted_line(name, elapsed, kConsoleWidth - 1) << std::endl;
      return;
    }
    // The last column stays empty: a line that fills it wraps on some terminals.
    live_line_ = fitted_line(name, elapsed, width_ > 1 ? width_ - 1 : 1);
  }
  // Live: drawn again even when nothing changed, since clear() may have erased it.
  if (style_ == ProgressStyle::live && !live_line_.empty()) {
    out_ << '\r' << live_line_ << "\033[K" << std::flush;
    drawn_ = true;
  }
}

void Progress::drop(const std::string& name) {
  auto it = weights_.find(name);
  if (it == weights_.end() || done_.count(name) > 0) return;
  total_weight_ -= it->second;
  weights_.erase(it);
}

void Progress::clear() {
  if (!drawn_) return;
  out_ << "\r\033[K" << std::flush;
  drawn_ = false;
}

void Progress::finish() {
  if (!drawn_) return;
  out_ << '\n' << std::flush;
  drawn_ = false;
}

}  // namespace gcbench::driver
