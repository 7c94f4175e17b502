#include "bench/driver/empty_run.hpp"

#include "bench/driver/benchmark_flag.hpp"

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
  const std::optional<GivenValue> flag = benchmark_flag(args, env, "repetitions");
  if (!flag) return 1;
  const std::optional<long> repetitions = parse_long(flag->value);
  if (!repetitions || *repetitions > 0) return repetitions.value_or(1);
  if (*repetitions < 0) {
    throw std::invalid_argument(flag->source + ": the number of repetitions must be at least 1");
  }
  if (!allow_empty) {
    throw std::invalid_argument(flag->source + " runs no cell: give at least 1; " + kAllowEmpty);
  }
  return 0;
}

}  // namespace gcbench::driver
