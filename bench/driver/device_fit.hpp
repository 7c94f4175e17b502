#pragma once
// Whether a GPU cell's device buffers fit in the device memory free before it allocates them
// (host code: the CUDA call site feeds it cudaMemGetInfo's free bytes). A cell that cannot hold
// its input, output and temporary buffers at once is skipped with the reason, rather than
// failing in an allocation.
#include <cstdint>
#include <optional>
#include <string>

namespace gcbench::driver {

// Kept free beyond a cell's buffers: the small ones it also allocates (the output check's CRC
// scratch, status words) and the allocator's granularity.
inline constexpr std::uint64_t kDeviceHeadroomBytes = std::uint64_t{64} << 20;

// nullopt when `need_bytes` and the headroom fit in `free_bytes`; else the reason, a skipped
// one (results::kSkippedReasonPrefix): "skipped: needs 150.2 GB on the device, 139.1 GB free".
std::optional<std::string> device_shortfall(std::uint64_t need_bytes, std::uint64_t free_bytes);

}  // namespace gcbench::driver
