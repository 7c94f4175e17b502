#include "bench/driver/output_guard.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace gcbench::driver {

GuardedBuffer::GuardedBuffer(std::size_t capacity)
    : capacity_(capacity), bytes_(capacity + kGuardBytes, kGuardByte) {}

std::optional<std::string> GuardedBuffer::overrun() const {
  const auto guard = bytes_.begin() + static_cast<std::ptrdiff_t>(capacity_);
  const auto bad =
      std::find_if(guard, bytes_.end(), [](std::uint8_t b) { return b != kGuardByte; });
  if (bad == bytes_.end()) return std::nullopt;
  return fmt::format("wrote past its output buffer of {} bytes (guard byte {} after it changed)",
                     capacity_, bad - guard);
}

void Sentinels::draw(std::size_t span) {
  positions_.clear();
  values_.clear();
  if (span == 0) return;
  std::uniform_int_distribution<std::uint64_t> at(0, span - 1);
  for (std::size_t i = 0; i < kSentinels; ++i) {
    positions_.push_back(at(rng_));
    values_.push_back(static_cast<std::uint8_t>(rng_()));
  }
}

void Sentinels::plant(std::span<std::uint8_t> output, std::size_t span) {
  draw(std::min(span, output.size()));
  for (std::size_t i = 0; i < positions_.size(); ++i) output[positions_[i]] = values_[i];
}

bool Sentinels::hold(ByteSpan output, ByteSpan expected) const {
  return std::all_of(positions_.begin(), positions_.end(), [&](std::uint64_t at) {
    return at < output.size() && at < expected.size() && output[at] == expected[at];
  });
}

}  // namespace gcbench::driver
