#include <algorithm>
#include <bit>
#include <cstring>
#include <stdexcept>

#include "codecs/common/container_device.cuh"
#include "codecs/common/crc32_math.hpp"
#include "src/cuda/cuda_check.hpp"
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

// x^(8 * (27 - i)) mod P for header byte i: how its raw CRC carries over the bytes after it.
struct HeaderCarries {
  u32 p[28];
};
constexpr HeaderCarries kHeaderCarries = [] {
  HeaderCarries c{};
  for (u32 i = 0; i < 28; ++i) c.p[i] = crc::x8nmodp(27 - i);
  return c;
}();
constexpr u32 kHeaderSizeTerm = crc::shift(0xFFFFFFFFu, 28);  // crc::finish's over 28 bytes

// One warp; lane i writes header byte i. A CRC is linear in its message, so the CRC-32 of bytes
// 0..27 is the XOR of each byte's raw CRC carried over the bytes after it: 28 chains of 40 bit
// steps side by side, not one thread's 224 dependent steps (bench/NOTES.md, "the one-pass
// encoders look back late").
// Bytes 0..15 come from the host (`start`), 16..27 from the device (payload size, data CRC).
__global__ void header_kernel(u8* out, u64 start_lo, u64 start_hi, const u64* payload_size,
                              const u32* crc, u64* out_size, HeaderCarries carries) {
  const u32 lane = threadIdx.x;
  const u64 payload = *payload_size;
  const u64 word = lane < 8 ? start_lo : lane < 16 ? start_hi : lane < 24 ? payload : *crc;
  const auto byte = static_cast<u8>(word >> (8 * (lane % 8)));
  const u32 part = lane < 28 ? crc::multmodp(carries.p[lane], crc::update_byte(0, byte)) : 0;
  const u32 header_crc = ~(__reduce_xor_sync(0xFFFFFFFFu, part) ^ kHeaderSizeTerm);
  out[lane] = lane < 28 ? byte : static_cast<u8>(header_crc >> (8 * (lane - 28)));
  if (lane == 0) *out_size = kContainerHeaderSize + payload;
}

// One warp; lane i compares byte i.
__global__ void check_header_kernel(const u8* container, HeaderBytes planned,
                                    DeviceStatus* status) {
  const u32 lane = threadIdx.x;
  const u32 differ = __ballot_sync(0xFFFFFFFFu, container[lane] != planned.b[lane]);
  if (lane != 0) return;
  *status = DeviceStatus{};
  if (differ != 0) {
    status->error = kHeaderMismatch;
    status->detail = static_cast<u32>(__ffs(static_cast<int>(differ)) - 1);
  }
}

__global__ void copy_kernel(u8* __restrict__ dst, const u8* __restrict__ src, u64 fixed_n,
                            const u64* device_n) {
  copy_bytes(dst, src, device_n ? *device_n : fixed_n);
}

}  // namespace

void write_container_header_async(u8* out, const ContainerFormat& format, u64 original_size,
                                  const u64* payload_size, const u32* crc, u64* out_size,
                                  cudaStream_t stream) {
  static_assert(kContainerHeaderSize == 32, "one byte a lane");
  static_assert(std::endian::native == std::endian::little, "the header is little-endian");
  const Bytes known = make_container(ContainerHeader{format.id, original_size}, {});
  u64 start[2];
  std::memcpy(start, known.data(), sizeof start);  // little-endian, as the header
  header_kernel<<<1, 32, 0, stream>>>(out, start[0], start[1], payload_size, crc, out_size,
                                      kHeaderCarries);
  GCB_CUDA_LAUNCHED();
}

void begin_decode_async(const u8* container, ByteSpan planned, DeviceStatus* status,
                        cudaStream_t stream) {
  if (planned.size() < kContainerHeaderSize) {
    throw std::invalid_argument("begin_decode_async: planned header shorter than 32 bytes");
  }
  HeaderBytes h{};
  std::copy_n(planned.begin(), kContainerHeaderSize, h.b);
  check_header_kernel<<<1, 32, 0, stream>>>(container, h, status);
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
