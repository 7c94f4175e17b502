// The GPU CRC-32 (codecs/common/crc32.cu) against zlib: sizes around its 16 KiB and 64 KiB tiles,
// the limit between them and 16-byte vectors, every start alignment, and a checksum compared on
// the device.
#include <gtest/gtest.h>
#include <zlib.h>

#include <random>

#include "codecs/common/crc32.cuh"
#include "src/cuda/cuda_check.hpp"
#include "src/cuda/device_buffer.hpp"
#include "gcbench/bytes.hpp"

namespace gcbench {
namespace {

class Crc32Gpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!cuda::available()) GTEST_SKIP() << "no CUDA device: the GPU CRC-32 tests need one";
  }
};

std::uint32_t zlib_crc(const std::uint8_t* p, std::size_t n) {
  return static_cast<std::uint32_t>(crc32(0L, p, static_cast<uInt>(n)));
}

// The GPU CRC of host[at, at + n), computed on a device copy at the same offset.
std::uint32_t gpu_crc(const cuda::DeviceBuffer<std::uint8_t>& data, std::size_t at, std::size_t n) {
  cuda::DeviceBuffer<std::uint8_t> temp(cuda::crc32_temp_bytes(n));
  cuda::DeviceBuffer<std::uint32_t> out(1);
  cuda::crc32_async(data.data() + at, n, temp.data(), temp.bytes(), {out.data()}, nullptr);
  std::uint32_t crc = 0;
  GCB_CUDA(cudaMemcpy(&crc, out.data(), sizeof crc, cudaMemcpyDeviceToHost));
  return crc;
}

TEST_F(Crc32Gpu, MatchesZlibForEverySizeAndAlignment) {
  const std::size_t kTile = 65536;
  Bytes host(3 * kTile + 4096);
  std::mt19937 rng(7);
  for (auto& b : host) b = static_cast<std::uint8_t>(rng());
  cuda::DeviceBuffer<std::uint8_t> data(host.size());
  GCB_CUDA(cudaMemcpy(data.data(), host.data(), host.size(), cudaMemcpyHostToDevice));
  for (std::size_t n :
       {std::size_t{0}, std::size_t{1}, std::size_t{15}, std::size_t{16}, std::size_t{17},
        std::size_t{4095}, std::size_t{16383}, std::size_t{16384}, std::size_t{16385}, kTile - 1,
        kTile, kTile + 1, 2 * kTile + 4000, 3 * kTile}) {
    for (std::size_t at : {0, 1, 3, 8, 15, 16, 4000}) {
      EXPECT_EQ(gpu_crc(data, at, n), zlib_crc(host.data() + at, n)) << n << " bytes at " << at;
    }
  }
}

// Data of up to 16 MiB is cut in 16 KiB tiles, longer data in 64 KiB ones: sizes on either side
// of the limit, aligned and not (the limit counts the aligned body).
TEST_F(Crc32Gpu, MatchesZlibOnEitherSideOfTheSmallTilesLimit) {
  const std::size_t kLimit = std::size_t{16} << 20;
  Bytes host(kLimit + (1 << 20));
  std::mt19937 rng(11);
  for (auto& b : host) b = static_cast<std::uint8_t>(rng());
  cuda::DeviceBuffer<std::uint8_t> data(host.size());
  GCB_CUDA(cudaMemcpy(data.data(), host.data(), host.size(), cudaMemcpyHostToDevice));
  for (std::size_t n : {kLimit - 16, kLimit - 1, kLimit, kLimit + 1, kLimit + 16, kLimit + 65551}) {
    for (std::size_t at : {0, 3, 16}) {
      EXPECT_EQ(gpu_crc(data, at, n), zlib_crc(host.data() + at, n)) << n << " bytes at " << at;
    }
  }
}

TEST_F(Crc32Gpu, ExpectedChecksumSetsTheStatus) {
  Bytes host(100000, 0x5A);
  cuda::DeviceBuffer<std::uint8_t> data(host.size());
  GCB_CUDA(cudaMemcpy(data.data(), host.data(), host.size(), cudaMemcpyHostToDevice));
  const std::uint32_t good = zlib_crc(host.data(), host.size());
  for (std::uint32_t expected : {good, good ^ 1u}) {
    std::uint8_t le[4] = {
        static_cast<std::uint8_t>(expected), static_cast<std::uint8_t>(expected >> 8),
        static_cast<std::uint8_t>(expected >> 16), static_cast<std::uint8_t>(expected >> 24)};
    cuda::DeviceBuffer<std::uint8_t> d_le(4), temp(cuda::crc32_temp_bytes(host.size()));
    cuda::DeviceBuffer<DeviceStatus> status(1);
    GCB_CUDA(cudaMemcpy(d_le.data(), le, 4, cudaMemcpyHostToDevice));
    GCB_CUDA(cudaMemset(status.data(), 0, sizeof(DeviceStatus)));
    cuda::crc32_async(data.data(), host.size(), temp.data(), temp.bytes(),
                      {nullptr, d_le.data(), status.data()}, nullptr);
    DeviceStatus s{};
    GCB_CUDA(cudaMemcpy(&s, status.data(), sizeof s, cudaMemcpyDeviceToHost));
    if (expected == good) {
      EXPECT_EQ(s.error, kDeviceOk);
      EXPECT_EQ(s.size, host.size());
    } else {
      EXPECT_EQ(s.error, kChecksumMismatch);
    }
  }
}

}  // namespace
}  // namespace gcbench
