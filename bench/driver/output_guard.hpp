#pragma once
// What keeps a timed call's output honest, in host memory: an output buffer with guard bytes
// past the capacity a codec is given (a write past it fails the cell), and sentinels, bytes
// at random positions set to random values before each timed call and compared with the
// verified output after it, so that no call passes on bytes an earlier call left behind (a
// decoder that skips work on a repeated call). The device's twins: device_compare.hpp.
#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "gcbench/bytes.hpp"

namespace gcbench::driver {

// How many sentinels a call gets: a call that leaves a fraction f of its output unwritten keeps
// one of them in place with probability 1 - (1 - f)^64, and a cell makes many calls.
inline constexpr std::size_t kSentinels = 64;
// Guard bytes after a guarded buffer's capacity, and the value they hold.
inline constexpr std::size_t kGuardBytes = 64;
inline constexpr std::uint8_t kGuardByte = 0xA5;

// `capacity` bytes for a codec to write, followed by kGuardBytes guard bytes; the capacity
// starts filled with kGuardByte too, so that nothing an earlier call wrote is in it.
class GuardedBuffer {
 public:
  explicit GuardedBuffer(std::size_t capacity);
  std::span<std::uint8_t> room() { return {bytes_.data(), capacity_}; }
  ByteSpan room() const { return {bytes_.data(), capacity_}; }
  // nullopt while every guard byte holds its value; else what was written past the capacity.
  std::optional<std::string> overrun() const;

 private:
  std::size_t capacity_;
  Bytes bytes_;
};

class Sentinels {
 public:
  explicit Sentinels(std::uint64_t seed = std::random_device{}()) : rng_(seed) {}
  // Sets kSentinels bytes of `output`'s first `span` bytes (positions and values at random).
  void plant(std::span<std::uint8_t> output, std::size_t span);
  // Whether every planted position of `output` holds `expected`'s byte there (a position
  // past either's end counts as a mismatch).
  bool hold(ByteSpan output, ByteSpan expected) const;
  // The planted positions and values (the device's plant kernel takes them).
  const std::vector<std::uint64_t>& positions() const { return positions_; }
  const std::vector<std::uint8_t>& values() const { return values_; }
  // Draws new positions in [0, span) and values without writing them anywhere.
  void draw(std::size_t span);

 private:
  std::mt19937_64 rng_;
  std::vector<std::uint64_t> positions_;
  std::vector<std::uint8_t> values_;
};

}  // namespace gcbench::driver
