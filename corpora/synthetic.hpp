#pragma once
// Synthetic inputs of any size, deterministic for a given seed, generated on all cores (the same
// bytes as on one).
#include <cstdint>
#include <string>

#include "gcbench/bytes.hpp"

namespace gcbench::synthetic {

enum class Kind {
  runs,          // runs of equal elements, lengths with mean `mean_run` (see RunLengths)
  small_ints,    // uniform values in [0, 2^value_bits)
  sorted_keys,   // non-decreasing values with small random gaps
  random_bytes,  // uniform bytes
  all_equal,     // one value repeated
};

// How the lengths of `runs` are distributed around their mean m.
enum class RunLengths {
  geometric,  // P(L = k) = p (1-p)^(k-1), p = 1/m: many short runs, a long tail
  uniform,    // uniform on 1 .. 2m-1 (m rounded to an integer): no tail
};

struct Spec {
  Kind kind = Kind::random_bytes;
  std::uint64_t size_bytes = 0;     // exact output size (a tail shorter than an element is allowed)
  std::uint32_t element_width = 1;  // 1, 2 or 4: the integer view of runs/small_ints/sorted_keys
  double mean_run = 8;              // runs
  RunLengths run_lengths = RunLengths::geometric;  // runs
  std::uint32_t value_bits = 8;                    // small_ints (clamped to 8*element_width)
  std::uint64_t seed = 1;
};

Bytes generate(const Spec& spec);

// "runs", "small_ints", ... and back; throw std::invalid_argument for unknown names.
Kind parse_kind(const std::string& name);
const char* kind_name(Kind kind);

// A kind with its parameters, as synthetic corpus names write it: a kind name, or
// runs-geo<mean> / runs-uni<mean> (an integer mean from 1 to 2^24, no leading zeros: runs of
// geometric or uniform lengths; plain "runs" is runs-geo8). The Spec's other fields keep their
// defaults. Throws std::invalid_argument.
Spec parse_kind_text(const std::string& text);

}  // namespace gcbench::synthetic
