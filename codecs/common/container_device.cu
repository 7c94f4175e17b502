#include <algorithm>
#include <stdexcept>

#include "codecs/common/container_device.cuh"
#include "codecs/common/crc32_math.hpp"
#include "codecs/common/cuda_check.hpp"
#include "codecs/common/device_elements.cuh"

namespace gcbench::cuda {
namespace {

using u8 = std::uint8_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

struct HeaderBytes {
  u8 b[kContainerHeaderSize];
};

struct SmallBytes {
  u8 b[64];
};

__global__ void prefix_kernel(u8* dst, SmallBytes prefix, u32 prefix_bytes, const u8* tail,
                              u32 tail_bytes) {
  const u32 i = threadIdx.x;
  if (i < prefix_bytes) dst[i] = prefix.b[i];
  if (i < tail_bytes) dst[prefix_bytes + i] = tail[i];
}

__global__ void set_kernel(u64* dst, u64 value) {
  *dst = value;
}

__global__ void header_kernel(u8* out, u32 codec, u64 original_size, const u64* payload_size,
                              const u32* crc, u64* out_size) {
  const u8 magic[4] = {'G', 'C', 'B', 'C'};
  for (int i = 0; i < 4; ++i) out[i] = magic[i];
  store_le<std::uint16_t>(out + 4, kContainerVersion);
  store_le<std::uint16_t>(out + 6, static_cast<std::uint16_t>(codec));
  store_le<u64>(out + 8, original_size);
  store_le<u64>(out + 16, *payload_size);
  store_le<u32>(out + 24, *crc);
  u32 raw = 0;
  for (int i = 0; i < 28; ++i) raw = crc::update_byte(raw, out[i]);
  store_le<u32>(out + 28, crc::finish(raw, 28));
  *out_size = kContainerHeaderSize + *payload_size;
}

__global__ void check_header_kernel(const u8* container, HeaderBytes planned,
                                    DeviceStatus* status) {
  *status = DeviceStatus{};
  for (u32 i = 0; i < kContainerHeaderSize; ++i) {
    if (container[i] != planned.b[i]) {
      status->error = kHeaderMismatch;
      status->detail = i;
      return;
    }
  }
}

__global__ void copy_kernel(u8* __restrict__ dst, const u8* __restrict__ src, u64 fixed_n,
                            const u64* device_n) {
  copy_bytes(dst, src, device_n ? *device_n : fixed_n);
}

}  // namespace

void write_container_header_async(u8* out, FormatId codec, u64 original_size,
                                  const u64* payload_size, const u32* crc, u64* out_size,
                                  cudaStream_t stream) {
  header_kernel<<<1, 1, 0, stream>>>(out, static_cast<u32>(codec), original_size, payload_size, crc,
                                     out_size);
  GCB_CUDA_LAUNCHED();
}

void begin_decode_async(const u8* container, ByteSpan planned, DeviceStatus* status,
                        cudaStream_t stream) {
  if (planned.size() < kContainerHeaderSize) {
    throw std::invalid_argument("begin_decode_async: planned header shorter than 32 bytes");
  }
  HeaderBytes h{};
  std::copy_n(planned.begin(), kContainerHeaderSize, h.b);
  check_header_kernel<<<1, 1, 0, stream>>>(container, h, status);
  GCB_CUDA_LAUNCHED();
}

void copy_bytes_async(u8* dst, const u8* src, u64 n, cudaStream_t stream) {
  if (n == 0) return;
  const unsigned grid = std::min<u64>(grid_for(std::max<u64>(n / 16, 16)), persistent_grid());
  copy_kernel<<<grid, kBlockThreads, 0, stream>>>(dst, src, n, nullptr);
  GCB_CUDA_LAUNCHED();
}

void copy_bytes_async(u8* dst, const u8* src, const u64* n, u64 max_n, cudaStream_t stream) {
  const unsigned grid = std::min<u64>(grid_for(std::max<u64>(max_n / 16, 16)), persistent_grid());
  copy_kernel<<<grid, kBlockThreads, 0, stream>>>(dst, src, 0, n);
  GCB_CUDA_LAUNCHED();
}

void write_prefix_async(u8* dst, ByteSpan prefix, const u8* device_tail, u32 tail_bytes,
                        cudaStream_t stream) {
  SmallBytes p{};
  if (prefix.size() > sizeof p.b || tail_bytes > sizeof p.b) {
    throw std::invalid_argument("write_prefix_async: at most 64 bytes of each");
  }
  std::copy(prefix.begin(), prefix.end(), p.b);
  prefix_kernel<<<1, 64, 0, stream>>>(dst, p, static_cast<u32>(prefix.size()), device_tail,
                                      tail_bytes);
  GCB_CUDA_LAUNCHED();
}

void set_u64_async(u64* dst, u64 value, cudaStream_t stream) {
  set_kernel<<<1, 1, 0, stream>>>(dst, value);
  GCB_CUDA_LAUNCHED();
}

}  // namespace gcbench::cuda
