#include "bench/driver/console_table.hpp"

#include <fmt/format.h>

#include <cmath>

#include "bench/driver/run_status.hpp"
#include "src/results/cell_name.hpp"
#include "src/results/counters.hpp"
#include "src/results/time_marks.hpp"

namespace gcbench::driver {
namespace {

// Column widths; with the spaces between them the row is kConsoleWidth - 1 columns at most (a
// line that fills the last column wraps on some terminals).
constexpr std::size_t kCodec = 15, kDevice = 3, kDirection = 10, kInput = 36, kPoint = 36,
                      kTime = 9, kError = 6, kGbps = 8, kRatio = 7, kCalls = 9;
constexpr std::size_t kNameColumns = kCodec + kDevice + kDirection + kInput + kPoint + 4;

// Three significant digits, without a trailing point: 3.52, 35.2, 352, 3520.
std::string three_digits(double value) {
  if (value >= 100) return fmt::format("{:.0f}", value);
  if (value >= 10) return fmt::format("{:.1f}", value);
  return fmt::format("{:.2f}", value);
}

std::string cut_end(const std::string& text, std::size_t width) {
  if (text.size() <= width) return text;
  return width <= 3 ? text.substr(0, width) : text.substr(0, width - 3) + "...";
}

std::string cut_start(const std::string& text, std::size_t width) {
  if (text.size() <= width) return text;
  return width <= 3 ? text.substr(text.size() - width)
                    : "..." + text.substr(text.size() - width + 3);
}

double counter(const benchmark::BenchmarkReporter::Run& run, const std::string& name) {
  const auto it = run.counters.find(name);
  return it == run.counters.end() ? -1 : static_cast<double>(it->second);
}

// `text` in lines of at most `width` columns, each after `indent` spaces.
std::string wrapped(const std::string& text, std::size_t indent, std::size_t width) {
  std::string out;
  const std::size_t room = width - indent;
  for (std::size_t at = 0; at < text.size(); at += room)
    out += std::string(indent, ' ') + text.substr(at, room) + "\n";
  return out;
}

// The mean's relative standard error over the samples, "*" after it when over the cell's
// target, "!" when the GPU's clock was throttled, "~" when the machine was busy; empty below two
// samples.
std::string error_text(const benchmark::BenchmarkReporter::Run& run) {
  const double error = counter(run, results::counter::kErrorPct);
  if (error < 0) return "";
  const bool over = error > counter(run, results::counter::kMaxErrorPct);
  const bool throttled = counter(run, results::counter::kThrottled) > 0;
  const bool busy = counter(run, results::counter::kBusy) > 0;
  return fmt::format("{}%{}",
                     error < 10 ? fmt::format("{:.1f}", error) : fmt::format("{:.0f}", error),
                     results::time_marks(over, throttled, busy));
}

}  // namespace

std::string format_seconds(double seconds) {
  if (seconds < 0) return "";
  if (seconds < 1e-6) return three_digits(seconds * 1e9) + " ns";
  if (seconds < 1e-3) return three_digits(seconds * 1e6) + " us";
  if (seconds < 1) return three_digits(seconds * 1e3) + " ms";
  return three_digits(seconds) + " s";
}

std::string format_gbps(double gbps) {
  if (gbps < 0) return "";
  if (gbps >= 1) return three_digits(gbps);
  return fmt::format("{:.3g}", gbps);
}

std::string cut_middle(const std::string& text, std::size_t width) {
  if (text.size() <= width) return text;
  if (width <= 3) return text.substr(0, width);
  const std::size_t tail = (width - 3) / 2, head = width - 3 - tail;
  return text.substr(0, head) + "..." + text.substr(text.size() - tail);
}

ConsoleNames ConsoleNames::of(const std::vector<const Codec*>& codecs) {
  Defaults defaults;
  for (const Codec* c : codecs) {
    const CodecInfo& info = c->info();
    auto& axes = defaults[info.name + "/" + to_string(info.device)];
    for (const AxisSpec& a : info.axes) axes[a.name] = a.format(a.default_value);
  }
  return ConsoleNames(std::move(defaults));
}

std::optional<ConsoleName> ConsoleNames::parts(const std::string& name) const {
  const std::optional<results::CellId> id = results::parse_cell_name(name);
  if (!id) return std::nullopt;
  // A file's name may hold newlines or a terminal's escapes: shown as \xNN.
  ConsoleName parts{id->codec, id->device, id->direction,
                    results::printable(id->corpus + "/" + id->file), ""};
  const auto defaults = defaults_.find(id->codec + "/" + id->device);
  for (const auto& [axis, value] : id->params) {
    const bool at_default = defaults != defaults_.end() && defaults->second.count(axis) > 0 &&
                            defaults->second.at(axis) == value;
    if (!at_default) parts.point += (parts.point.empty() ? "" : " ") + axis + ":" + value;
  }
  if (parts.point.empty() && !id->params.empty()) parts.point = "defaults";
  return parts;
}

std::string ConsoleNames::line(const std::string& name, std::size_t width) const {
  const std::optional<ConsoleName> p = parts(name);
  if (!p) return cut_middle(name, width);
  const std::string head = p->codec + "/" + p->device + "/" + p->direction + " ";
  std::string text = head + p->input + (p->point.empty() ? "" : " " + p->point);
  if (text.size() <= width) return text;
  // The point goes first (down to "..."), then the input's head (the file's name is its end).
  const std::size_t fixed = head.size() + p->input.size();
  if (!p->point.empty() && fixed + 4 <= width) return cut_end(text, width);
  if (head.size() + 4 <= width) return head + cut_start(p->input, width - head.size());
  return cut_end(text, width);
}

std::string ConsoleTable::header() const {
  const std::string titles =
      fmt::format("{:<{}} {:<{}} {:<{}} {:<{}} {:<{}} {:>{}} {:>{}} {:>{}} {:>{}} {:>{}} {:>{}}",
                  "codec", kCodec, "dev", kDevice, "direction", kDirection, "input", kInput,
                  "point (off defaults)", kPoint, "time", kTime, "error", kError, "GB/s", kGbps,
                  "e2e GB/s", kGbps, "ratio", kRatio, "calls", kCalls);
  return titles + "\n" + std::string(titles.size(), '-') + "\n";
}

std::string ConsoleTable::row(const benchmark::BenchmarkReporter::Run& run) const {
  // The cell's name: an aggregate's benchmark_name() ends "_mean", "_cv", ...
  const std::string name = run.run_name.function_name;
  std::string line;
  if (const std::optional<ConsoleName> p = names_.parts(name)) {
    line = fmt::format("{:<{}} {:<{}} {:<{}} {:<{}} {:<{}}", cut_middle(p->codec, kCodec), kCodec,
                       p->device, kDevice, p->direction, kDirection, cut_start(p->input, kInput),
                       kInput, cut_end(p->point, kPoint), kPoint);
  } else {
    line = fmt::format("{:<{}}", cut_middle(name, kNameColumns), kNameColumns);
  }
  if (run_failed(run)) {
    const std::string message = results::printable(run_message(run));
    const bool skipped = run_skipped(run);
    line += skipped ? " skipped" : " ERROR";
    return line + "\n" + wrapped(skipped ? message : "error: " + message, 4, kConsoleWidth - 1);
  }
  const bool aggregate = run.run_type == benchmark::BenchmarkReporter::Run::RT_Aggregate;
  // A cell's timed calls are its samples (one Google Benchmark iteration holds them all).
  const double samples = counter(run, results::counter::kSamples);
  const std::string calls = aggregate      ? run.aggregate_name
                            : samples >= 0 ? fmt::format("{:.0f}", samples)
                                           : std::to_string(run.iterations);
  if (aggregate && run.aggregate_unit == benchmark::kPercentage) {  // cv: a share of the mean
    // The fraction itself, not scaled by a time unit or divided by the iterations.
    line += fmt::format(" {:>{}}", fmt::format("{:.1f}%", 100 * run.real_accumulated_time), kTime);
    return line + fmt::format(" {:>{}}", calls, kError + kGbps + kGbps + kRatio + kCalls + 4) +
           "\n";
  }
  const double seconds =
      run.GetAdjustedRealTime() / benchmark::GetTimeUnitMultiplier(run.time_unit);
  const double bytes_per_s = counter(run, "bytes_per_second");
  const double gbps =
      bytes_per_s >= 0 ? bytes_per_s / 1e9 : counter(run, results::counter::kKernelGbps);
  const double ratio = counter(run, results::counter::kRatio);
  line += fmt::format(" {:>{}} {:>{}} {:>{}} {:>{}} {:>{}} {:>{}}", format_seconds(seconds), kTime,
                      error_text(run), kError, format_gbps(gbps), kGbps,
                      format_gbps(counter(run, results::counter::kE2eGbps)), kGbps,
                      ratio < 0 ? "" : fmt::format("{:.3f}", ratio), kRatio, calls, kCalls);
  return line + "\n";
}

}  // namespace gcbench::driver
