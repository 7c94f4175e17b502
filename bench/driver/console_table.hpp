#pragma once
// The console's view of a sweep: one row per result that fits kConsoleWidth columns, in human
// units (ms, GB/s), each cell named by its parts with only the axes off their codec's defaults.
// The result files keep the full names and Google Benchmark's nanoseconds.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gcbench/codec.hpp"

namespace gcbench::driver {

inline constexpr std::size_t kConsoleWidth = 160;

// Three significant digits in the unit that suits the value: ns, us, ms or s.
std::string format_seconds(double seconds);
// Three significant digits: "0.00274", "12.3", "1450".
std::string format_gbps(double gbps);
// `text` in at most `width` columns: its middle replaced by "..." when longer.
std::string cut_middle(const std::string& text, std::size_t width);

// A cell as the console names it.
struct ConsoleName {
  std::string codec, device, direction;
  std::string input;  // "<corpus>/<file>"
  std::string point;  // the axes off their defaults, "axis:value ..."; "defaults" if none is
};

class ConsoleNames {
 public:
  // "<codec>/<device>" -> axis -> its default, written as in cell names.
  using Defaults = std::map<std::string, std::map<std::string, std::string>>;
  explicit ConsoleNames(Defaults defaults) : defaults_(std::move(defaults)) {}
  static ConsoleNames of(const std::vector<const Codec*>& codecs);

  // std::nullopt when `name` is no gcbench cell name (Google Benchmark's suffixes are dropped).
  std::optional<ConsoleName> parts(const std::string& name) const;
  // "fl/cpu/compress canterbury/alice29.txt frame_size:256" in at most `width` columns: the
  // point is cut first, then the input's head, so that codec, direction and file stay seen.
  std::string line(const std::string& name, std::size_t width) const;

 private:
  Defaults defaults_;
};

class ConsoleTable {
 public:
  explicit ConsoleTable(ConsoleNames names) : names_(std::move(names)) {}

  // The column titles and a rule under them.
  std::string header() const;
  // One line per run (an iteration or an aggregate of repetitions); a failed or skipped run's
  // message follows, wrapped to the width.
  std::string row(const benchmark::BenchmarkReporter::Run& run) const;

 private:
  ConsoleNames names_;
};

}  // namespace gcbench::driver
