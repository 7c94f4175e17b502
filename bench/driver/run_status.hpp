#pragma once
// Google Benchmark 1.8 replaced Run::error_occurred / error_message with skipped /
// skip_message; Debian 12 ships 1.7. These read either.
#include <benchmark/benchmark.h>

#include <string>
#include <type_traits>

#include "src/results/result_document.hpp"

namespace gcbench::driver {

template <typename Run>
bool run_failed(const Run& run) {
  if constexpr (requires { run.error_occurred; }) {
    return run.error_occurred;
  } else {
    using Skipped = std::remove_cvref_t<decltype(run.skipped)>;
    return run.skipped == Skipped::SkippedWithError;
  }
}

template <typename Run>
std::string run_message(const Run& run) {
  if constexpr (requires { run.error_message; }) {
    return run.error_message;
  } else {
    return run.skip_message;
  }
}

// A cell left out on purpose, its message beginning with results::kSkippedReasonPrefix (a GPU
// cell whose buffers do not fit in device memory, device_fit.hpp): recorded as an error, so
// that a rerun tries it again, but no failure of the run.
template <typename Run>
bool run_skipped(const Run& run) {
  return run_failed(run) && results::is_skipped_reason(run_message(run));
}

}  // namespace gcbench::driver
