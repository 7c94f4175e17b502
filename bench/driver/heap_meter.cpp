#include "bench/driver/heap_meter.hpp"

#include <atomic>

namespace gcbench::driver::heap_meter {

// Set by programs/gcbench/heap_hooks.cpp when it is linked in; left alone the meter is inactive.
std::atomic<bool> g_active{false};
// Signed: a block allocated where no hook saw it (before the program's symbols were bound) may
// still be freed through one.
std::atomic<std::int64_t> g_live{0};
std::atomic<std::int64_t> g_peak{0};

namespace {
std::uint64_t at_least_zero(std::int64_t v) {
  return v > 0 ? static_cast<std::uint64_t>(v) : 0;
}
}  // namespace

bool active() {
  return g_active.load(std::memory_order_relaxed);
}

std::uint64_t live_bytes() {
  return at_least_zero(g_live.load(std::memory_order_relaxed));
}

void reset_peak() {
  g_peak.store(g_live.load(std::memory_order_relaxed), std::memory_order_relaxed);
}

std::uint64_t peak_bytes() {
  return at_least_zero(g_peak.load(std::memory_order_relaxed));
}

}  // namespace gcbench::driver::heap_meter
