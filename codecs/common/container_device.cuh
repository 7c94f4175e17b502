#pragma once
// The container (include/gcbench/container.hpp) on the device: writing its header after a
// compression, checking it at the start of a decompression, the decoders' status word, and a
// byte copy to or from the unaligned offsets the container's layout has.
#include <cuda_runtime.h>

#include <cstdint>

#include "gcbench/container.hpp"
#include "gcbench/device_codec.hpp"

namespace gcbench::cuda {

// First error wins; later ones are dropped.
__device__ __forceinline__ void set_error(DeviceStatus* status, std::uint32_t code,
                                          std::uint64_t detail = 0) {
  if (atomicCAS(&status->error, 0u, code) == 0u) status->detail = detail;
}

// Header at out[0, 32) for a payload of *payload_size bytes (device) and an original of
// `original_size` bytes with CRC-32 *crc (device); *out_size = 32 + *payload_size.
void write_container_header_async(std::uint8_t* out, FormatId codec, std::uint64_t original_size,
                                  const std::uint64_t* payload_size, const std::uint32_t* crc,
                                  std::uint64_t* out_size, cudaStream_t stream);

// Clears *status, then sets kHeaderMismatch if container[0, 32) differs from `planned` (the
// header the plan was made from, on the host).
void begin_decode_async(const std::uint8_t* container, ByteSpan planned, DeviceStatus* status,
                        cudaStream_t stream);

// dst[0, n) = src[0, n) for any alignment of either, in aligned 4-byte stores. The second
// form reads n from device memory (*n <= max_n), for sizes only the device knows.
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

// Little-endian loads and stores at any alignment.
template <typename T>
__device__ __forceinline__ T load_le(const std::uint8_t* p) {
  std::uint64_t v = 0;
#pragma unroll
  for (unsigned i = 0; i < sizeof(T); ++i) v |= std::uint64_t{p[i]} << (8 * i);
  return static_cast<T>(v);
}

template <typename T>
__device__ __forceinline__ void store_le(std::uint8_t* p, T value) {
#pragma unroll
  for (unsigned i = 0; i < sizeof(T); ++i) {
    p[i] = static_cast<std::uint8_t>(static_cast<std::uint64_t>(value) >> (8 * i));
  }
}

}  // namespace gcbench::cuda
