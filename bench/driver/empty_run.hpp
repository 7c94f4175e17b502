#pragma once
// A run that would measure nothing is an error with its reason, unless the user asks for an
// empty run (--allow-empty): a typo in --codecs, --benchmark_filter or a repetition count must
// not pass for a finished sweep (exit status 0, no result, no word).
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gcbench::driver {

// What a run selected, step by step, so that an empty selection can say where it emptied. The
// driver checks it after choosing its codecs (before it gathers any input) and again once it
// has its cells; a step not taken yet is nullopt.
struct Selection {
  std::string codecs_given;  // --codecs as given, e.g. "gpu"
  std::string device;        // --device
  std::size_t codecs = 0;    // selected by --codecs and --device
  std::string gpu_dropped;   // why the GPU codecs cannot run ("" when they can, or none is chosen)
  std::size_t runnable = 0;  // of those, the codecs that can run here
  std::optional<std::size_t> inputs;    // input files present
  std::optional<std::size_t> cells;     // cells of the runnable codecs on the inputs
  std::string filter;                   // --benchmark_filter
  std::optional<std::size_t> filtered;  // of those, the cells the filter runs
};

// Throws std::invalid_argument ("no cell selected: <where it emptied>; ...") when a step of
// `selection` selects nothing and `allow_empty` is false.
void check_selection(const Selection& selection, bool allow_empty);

// The repetitions Google Benchmark will run: the last --benchmark_repetitions=N of `args`, else
// $BENCHMARK_REPETITIONS (read with `env`), else 1; a value that is no integer is left to Google
// Benchmark. Throws std::invalid_argument below 1: always below 0, and for 0 unless
// `allow_empty`.
long checked_repetitions(const std::vector<std::string>& args,
                         const std::function<const char*(const char*)>& env, bool allow_empty);

}  // namespace gcbench::driver
