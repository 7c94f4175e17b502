#include "bench/driver/empty_run.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <stdexcept>

namespace gcbench::driver {
namespace {

constexpr const char* kAllowEmpty = "pass --allow-empty to run nothing on purpose";

// Where `s` emptied, in words; "" when every step taken selects something.
std::string where_it_emptied(const Selection& s) {
  if (s.codecs == 0) {
    return fmt::format("--codecs {} with --device {} selects no codec", s.codecs_given, s.device);
  }
  if (s.runnable == 0) return "the selected codecs are GPU codecs, and " + s.gpu_dropped;
  if (s.inputs == 0) return "no input file is available (see the lines above)";
  if (s.cells == 0) return "the selected codecs have no cell on these inputs (--direction, axes)";
  if (s.filtered == 0) {
    return fmt::format("--benchmark_filter={} matches none of the {} cells", s.filter,
                       s.cells.value_or(0));
  }
  return "";
}

// The integer `text` holds, whole; nullopt for anything else.
std::optional<long> parse_long(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const long value = std::strtol(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0') return std::nullopt;
  return value;
}

}  // namespace

void check_selection(const Selection& selection, bool allow_empty) {
  const std::string where = where_it_emptied(selection);
  if (where.empty() || allow_empty) return;
  throw std::invalid_argument("no cell selected: " + where + "; " + kAllowEmpty);
}

long checked_repetitions(const std::vector<std::string>& args,
                         const std::function<const char*(const char*)>& env, bool allow_empty) {
  constexpr std::string_view kFlag = "--benchmark_repetitions=";
  std::string given;
  std::string source;
  for (const std::string& arg : args) {
    if (!arg.starts_with(kFlag)) continue;
    given = arg.substr(kFlag.size());
    source = arg;
  }
  if (source.empty()) {
    const char* from_env = env("BENCHMARK_REPETITIONS");
    if (from_env == nullptr) return 1;
    given = from_env;
    source = "BENCHMARK_REPETITIONS=" + given;
  }
  const std::optional<long> repetitions = parse_long(given);
  if (!repetitions || *repetitions > 0) return repetitions.value_or(1);
  if (*repetitions < 0) {
    throw std::invalid_argument(source + ": the number of repetitions must be at least 1");
  }
  if (!allow_empty) {
    throw std::invalid_argument(source + " runs no cell: give at least 1; " + kAllowEmpty);
  }
  return 0;
}

}  // namespace gcbench::driver
