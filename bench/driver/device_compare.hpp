#pragma once
// Full byte comparisons of two device buffers on the device (one pass, a kernel), so that a GPU
// cell verifies its 1 GiB output against the resident input without copying either back to
// the host; and the device's side of output_guard.hpp, sentinels planted in an output before a
// timed call. Built only with CUDA.
#include <cuda_runtime.h>

#include <cstdint>
#include <optional>

#include "bench/driver/output_guard.hpp"

namespace gcbench::driver {

// The first offset where the `n` bytes at `a` and `b` (device memory) differ; nullopt when
// they are equal. Synchronizes `stream`.
std::optional<std::uint64_t> first_device_difference(const std::uint8_t* a, const std::uint8_t* b,
                                                     std::uint64_t n, cudaStream_t stream);

// Writes the sentinels' values at their positions of `output` (device memory), on `stream`:
// one small kernel, no synchronization.
void plant_sentinels_async(std::uint8_t* output, const Sentinels& sentinels, cudaStream_t stream);

}  // namespace gcbench::driver
