#pragma once
// The "flood right" scan operator (seed flood-right-scan): x (+) y = y if y != 0 else x.
// An inclusive scan with it copies every non-zero entry rightwards over the zeros after it.
// It is associative with identity 0, so any CUB scan can run it. Callers scan run numbers
// (1-based) rather than raw values, because a value may itself be 0.
namespace gcbench::cuda {

struct FloodRight {
  template <typename T>
  __host__ __device__ __forceinline__ T operator()(const T& x, const T& y) const {
    return y != T{0} ? y : x;
  }
};

}  // namespace gcbench::cuda
