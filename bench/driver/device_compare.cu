#include "bench/driver/device_compare.hpp"

#include <thrust/execution_policy.h>
#include <thrust/mismatch.h>

namespace gcbench::driver {

std::optional<std::uint64_t> first_device_difference(const std::uint8_t* a, const std::uint8_t* b,
                                                     std::uint64_t n, cudaStream_t stream) {
  const auto at = thrust::mismatch(thrust::cuda::par.on(stream), a, a + n, b).first;
  if (at == a + n) return std::nullopt;
  return static_cast<std::uint64_t>(at - a);
}

}  // namespace gcbench::driver
