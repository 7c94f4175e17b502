#pragma once
// Synthetic inputs of any size, deterministic for a given seed.
#include <cstdint>
#include <string>

#include "gcbench/bytes.hpp"

namespace gcbench::synthetic {

enum class Kind {
  runs,          // runs of equal elements, geometric lengths with mean `mean_run`
  small_ints,    // uniform values in [0, 2^value_bits)
  sorted_keys,   // non-decreasing values with small random gaps
  random_bytes,  // uniform bytes
  all_equal,     // one value repeated
};

struct Spec {
  Kind kind = Kind::random_bytes;
  std::uint64_t size_bytes = 0;     // exact output size (a tail shorter than an element is allowed)
  std::uint32_t element_width = 1;  // 1, 2 or 4: the integer view of runs/small_ints/sorted_keys
  double mean_run = 8;              // runs
  std::uint32_t value_bits = 8;     // small_ints (clamped to 8*element_width)
  std::uint64_t seed = 1;
};

Bytes generate(const Spec& spec);

// "runs", "small_ints", ... and back; throw std::invalid_argument for unknown names.
Kind parse_kind(const std::string& name);
const char* kind_name(Kind kind);

}  // namespace gcbench::synthetic
