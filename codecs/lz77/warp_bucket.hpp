#pragma once
// The bucket of the warp design's index (warp_design.cuh), shared with the probe that models
// its lookups (bench/probes/lz77_parse_convergence.cpp), so that the probe counts the walks
// of the kernel's own hash.
// Device code calls it as a constexpr function (nvcc's --expt-relaxed-constexpr).
#include <cstdint>

namespace gcbench::lz77 {

inline constexpr std::uint32_t kWarpBucketBits = 10;

// A position's first 3 bytes as key = b0 | b1 << 8 | b2 << 16, by multiplicative (Fibonacci)
// hashing: every bit of the key reaches the bucket's bits, so unrelated keys share a bucket
// about as rarely as 10 bits allow, and a lookup walks past each one that does.
constexpr std::uint32_t warp_bucket(std::uint32_t key) {
  return (key * 2654435761u) >> (32 - kWarpBucketBits);
}

}  // namespace gcbench::lz77
