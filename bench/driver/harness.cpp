#include "bench/driver/harness.hpp"

#include <fmt/format.h>
#include <sys/resource.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "bench/driver/run_status.hpp"
#include "src/results/cell_name.hpp"
#include "src/results/counters.hpp"

namespace gcbench::driver {
namespace {

std::string group_of(const std::string& run_name) {
  if (auto id = results::parse_cell_name(run_name))
    return id->codec + "/" + id->device + "/" + id->direction;
  return run_name;
}

std::string gib(std::uint64_t bytes) {
  return fmt::format("{:.2f} GiB", static_cast<double>(bytes) / (1u << 30));
}

}  // namespace

double HarnessTally::timed_seconds(const Run& run) {
  if (run.run_type != Run::RT_Iteration || run_failed(run)) return 0;
  // A cell's sampled_s: the seconds of all its timed calls (its iteration's time is their mean).
  const auto sampled = run.counters.find(results::counter::kSampledS);
  double s = sampled != run.counters.end() ? sampled->second.value : run.real_accumulated_time;
  if (auto it = run.counters.find(results::counter::kE2eTimedS); it != run.counters.end())
    s += it->second.value;
  return s;
}

void HarnessTally::add(const std::vector<Run>& runs, double wall_s) {
  wall_s_ += wall_s;
  if (runs.empty()) return;
  HarnessGroup& group = groups_[group_of(runs.front().run_name.function_name)];
  group.wall_s += wall_s;
  for (const Run& run : runs) {
    const std::string& name = run.run_name.function_name;
    HarnessGroup& g = groups_[group_of(name)];
    if (seen_.insert(name).second) ++g.cells;
    const double t = timed_seconds(run);
    g.timed_s += t;
    timed_s_ += t;
  }
}

std::uint64_t peak_rss_bytes() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;  // Linux reports KiB
}

std::string format_summary(const HarnessSummary& s,
                           const std::map<std::string, HarnessGroup>& groups) {
  std::string text = fmt::format(
      "[gcbench] harness share {:.1f}%: {:.1f} s timed of {:.1f} s wall, {} cells ({:.1f} s "
      "before the first cell)\n",
      100 * s.share(), s.timed_s, s.wall_s, s.cells, s.setup_s);
  const std::uint64_t bound = 3 * s.largest_input_bytes + (std::uint64_t{1} << 30);
  text += fmt::format(
      "[gcbench] peak RSS {} ({} bytes); bound 3 x largest input ({:.1f} MB) + 1 GiB = {}\n",
      gib(s.peak_rss_bytes), s.peak_rss_bytes, static_cast<double>(s.largest_input_bytes) / 1e6,
      gib(bound));
  if (groups.empty()) return text;
  std::vector<std::pair<std::string, HarnessGroup>> rows(groups.begin(), groups.end());
  std::stable_sort(rows.begin(), rows.end(),
                   [](const auto& a, const auto& b) { return a.second.wall_s > b.second.wall_s; });
  text += fmt::format("[gcbench]   {:<28} {:>6} {:>9} {:>9} {:>7}\n", "codec/device/direction",
                      "cells", "wall s", "timed s", "share");
  for (const auto& [name, g] : rows) {
    text += fmt::format("[gcbench]   {:<28} {:>6} {:>9.2f} {:>9.2f} {:>6.1f}%\n", name, g.cells,
                        g.wall_s, g.timed_s, g.wall_s > 0 ? 100 * g.timed_s / g.wall_s : 0.0);
  }
  return text;
}

std::string harness_line(const HarnessSummary& s) {
  return fmt::format(
      "timed_s={:.3f} wall_s={:.3f} setup_s={:.3f} cells={} {}={} largest_input_bytes={}",
      s.timed_s, s.wall_s, s.setup_s, s.cells, results::counter::kPeakRssBytes, s.peak_rss_bytes,
      s.largest_input_bytes);
}

std::optional<HarnessSummary> parse_harness_line(const std::string& line) {
  std::map<std::string, std::string> fields;
  std::istringstream words(line);
  for (std::string word; words >> word;) {
    const std::size_t eq = word.find('=');
    if (eq == std::string::npos) return std::nullopt;
    fields[word.substr(0, eq)] = word.substr(eq + 1);
  }
  HarnessSummary s;
  try {
    s.timed_s = std::stod(fields.at("timed_s"));
    s.wall_s = std::stod(fields.at("wall_s"));
    s.setup_s = std::stod(fields.at("setup_s"));
    s.cells = std::stoi(fields.at("cells"));
    s.peak_rss_bytes = std::stoull(fields.at(results::counter::kPeakRssBytes));
    s.largest_input_bytes = std::stoull(fields.at("largest_input_bytes"));
  } catch (const std::exception&) {  // a field missing or not a number
    return std::nullopt;
  }
  return s;
}

void append_harness_line(const std::filesystem::path& file, const HarnessSummary& s) {
  std::ofstream out(file, std::ios::app);
  out << harness_line(s) << "\n";
  if (!out) throw std::runtime_error("cannot write " + file.string());
}

HarnessSummary combine_workers(const std::vector<HarnessSummary>& workers, double wall_s) {
  HarnessSummary all;
  all.wall_s = wall_s;
  for (const HarnessSummary& w : workers) {
    all.timed_s += w.timed_s;
    all.cells += w.cells;
    all.setup_s = std::max(all.setup_s, w.setup_s);
    all.peak_rss_bytes = std::max(all.peak_rss_bytes, w.peak_rss_bytes);
    all.largest_input_bytes = std::max(all.largest_input_bytes, w.largest_input_bytes);
  }
  return all;
}

std::vector<std::pair<std::string, std::string>> harness_context(const HarnessSummary& s) {
  return {{results::counter::kPeakRssBytes, std::to_string(s.peak_rss_bytes)},
          {"harness_timed_s", fmt::format("{:.3f}", s.timed_s)},
          {"harness_wall_s", fmt::format("{:.3f}", s.wall_s)},
          {"harness_cells", std::to_string(s.cells)}};
}

}  // namespace gcbench::driver
