#pragma once
// Synthetic inputs the codec tests share.
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gcbench/bytes.hpp"

namespace gcbench::testing {

inline Bytes random_bytes(std::size_t size, std::uint32_t seed) {
  std::mt19937 rng(seed);
  Bytes b(size);
  for (auto& x : b) x = static_cast<std::uint8_t>(rng());
  return b;
}

// 32-bit values of random bit widths 0..32, so that FL frames get every width and values
// straddle words.
inline Bytes mixed_widths(std::size_t size, std::uint32_t seed) {
  std::mt19937 rng(seed);
  Bytes b(size);
  for (std::size_t i = 0; i + 4 <= size; i += 4) {
    std::uint32_t bits = rng() % 33;
    std::uint32_t v = bits == 0 ? 0 : rng() >> (32 - bits);
    store_le<std::uint32_t>(b.data() + i, v);
  }
  return b;
}

// Byte runs of length 1..max_run over a 3-letter alphabet, so equal neighbours are common.
inline Bytes byte_runs(std::size_t size, std::uint32_t max_run, std::uint32_t seed) {
  std::mt19937 rng(seed);
  Bytes b;
  while (b.size() < size) {
    std::size_t len = std::min<std::size_t>(1 + rng() % max_run, size - b.size());
    b.insert(b.end(), len, static_cast<std::uint8_t>(rng() % 3));
  }
  return b;
}

// Sizes every codec must handle: empty, one byte, sizes that are no multiple of 2 or 4, runs
// longer than 2^16 elements at any width, incompressible and highly compressible data.
inline std::vector<std::pair<std::string, Bytes>> edge_inputs() {
  Bytes long_run(4 * 70000 + 3, 0x42);
  Bytes noise = random_bytes(1000, 7);
  long_run.insert(long_run.end(), noise.begin(), noise.end());
  return {
      {"empty", {}},
      {"one byte", {0x9C}},
      {"7 bytes", random_bytes(7, 1)},
      {"1001 bytes", random_bytes(1001, 2)},
      {"all equal", Bytes(5003, 0x5A)},
      {"all zero", Bytes(4096, 0)},
      {"all bits set", Bytes(4099, 0xFF)},
      {"random", random_bytes(20000, 3)},
      {"64 KiB + 1", random_bytes(65537, 5)},
      {"mixed widths", mixed_widths(12002, 4)},
      {"runs", byte_runs(30001, 40, 4)},
      {"long run", long_run},
  };
}

}  // namespace gcbench::testing
