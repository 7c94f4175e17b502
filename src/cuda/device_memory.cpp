#include "src/cuda/device_memory.hpp"

#include <atomic>

namespace gcbench::cuda::device_memory {
namespace {

thread_local int t_scope_depth = 0;
std::atomic<std::uint64_t> g_live{0};
std::atomic<std::uint64_t> g_peak{0};

}  // namespace

CodecScope::CodecScope() {
  ++t_scope_depth;
}

CodecScope::~CodecScope() {
  --t_scope_depth;
}

bool in_codec_scope() {
  return t_scope_depth > 0;
}

void allocated(std::size_t bytes) {
  const std::uint64_t live = g_live.fetch_add(bytes, std::memory_order_relaxed) + bytes;
  std::uint64_t peak = g_peak.load(std::memory_order_relaxed);
  while (live > peak && !g_peak.compare_exchange_weak(peak, live, std::memory_order_relaxed)) {
  }
}

void released(std::size_t bytes) {
  g_live.fetch_sub(bytes, std::memory_order_relaxed);
}

std::uint64_t live_bytes() {
  return g_live.load(std::memory_order_relaxed);
}

void reset_peak() {
  g_peak.store(g_live.load(std::memory_order_relaxed), std::memory_order_relaxed);
}

std::uint64_t peak_bytes() {
  return g_peak.load(std::memory_order_relaxed);
}

}  // namespace gcbench::cuda::device_memory
