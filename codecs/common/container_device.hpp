#pragma once
// The container (include/gcbench/container.hpp) on the device, the calls a host makes: writing
// its header after a compression, checking it at the start of a decompression, and byte copies
// to or from the unaligned offsets the container's layout has. Each is enqueued on `stream`.
// The device-side helpers for kernels are container_device.cuh.
#include <cuda_runtime.h>

#include <cstdint>

#include "gcbench/container.hpp"
#include "gcbench/device_codec.hpp"

namespace gcbench::cuda {

// Header at out[0, 32) for a payload of *payload_size bytes (device) and an original of
// `original_size` bytes with CRC-32 *crc (device); *out_size = 32 + *payload_size.
void write_container_header_async(std::uint8_t* out, const ContainerFormat& format,
                                  std::uint64_t original_size, const std::uint64_t* payload_size,
                                  const std::uint32_t* crc, std::uint64_t* out_size,
                                  cudaStream_t stream);

// Clears *status, then sets kHeaderMismatch if container[0, 32) differs from `planned` (the
// header the plan was made from, on the host).
void begin_decode_async(const std::uint8_t* container, ByteSpan planned, DeviceStatus* status,
                        cudaStream_t stream);

// dst[0, n) = src[0, n) for any alignment of either (copy_bytes in container_device.cuh). The
// second form reads n from device memory (*n <= max_n), for sizes only the device knows.
void copy_bytes_async(std::uint8_t* dst, const std::uint8_t* src, std::uint64_t n,
                      cudaStream_t stream);
void copy_bytes_async(std::uint8_t* dst, const std::uint8_t* src, const std::uint64_t* n,
                      std::uint64_t max_n, cudaStream_t stream);

// dst[0, prefix.size()) = prefix (host bytes, at most 64), then dst[prefix.size() + i] =
// device_tail[i] for i < tail_bytes (at most 64).
void write_prefix_async(std::uint8_t* dst, ByteSpan prefix, const std::uint8_t* device_tail,
                        std::uint32_t tail_bytes, cudaStream_t stream);

// *dst = value, in the stream's order.
void set_u64_async(std::uint64_t* dst, std::uint64_t value, cudaStream_t stream);

}  // namespace gcbench::cuda
