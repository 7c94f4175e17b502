#pragma once
// An OpenMP loop over independent pieces (chunks or blocks) that carries exceptions out:
// the CPU references and the peers' chunked variants share it.
#include <cstdint>
#include <exception>

namespace gcbench {

// Runs body(i) for i in [0, count) on `threads` threads; threads <= 1 is a plain loop. An
// exception cannot leave an OpenMP region, so the one thrown for the lowest index is rethrown
// after the loop (deterministic whatever the schedule).
template <typename Body>
void parallel_for(std::uint64_t count, int threads, Body&& body) {
  if (threads <= 1 || count <= 1) {
    for (std::uint64_t i = 0; i < count; ++i) body(i);
    return;
  }
  std::exception_ptr error;
  std::uint64_t error_index = count;
#pragma omp parallel for num_threads(threads) schedule(dynamic)
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(count); ++i) {
    try {
      body(static_cast<std::uint64_t>(i));
    } catch (...) {
#pragma omp critical(gcbench_parallel_for_error)
      if (static_cast<std::uint64_t>(i) < error_index) {
        error_index = static_cast<std::uint64_t>(i);
        error = std::current_exception();
      }
    }
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace gcbench
