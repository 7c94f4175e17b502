// The device byte copy (codecs/common/container_device.cu), which moves container parts to and
// from their unaligned offsets: every source and destination alignment in a 16-byte vector,
// sizes around the vector, and nothing written outside the destination.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "codecs/common/container_device.hpp"
#include "src/cuda/cuda_check.hpp"
#include "src/cuda/device_buffer.hpp"
#include "gcbench/bytes.hpp"
#include "support/gpu_test.hpp"

namespace gcbench {
namespace {

class CopyBytesGpu : public testing::GpuTest {};

TEST_F(CopyBytesGpu, EveryAlignmentAndSize) {
  constexpr std::size_t kMax = 4133, kRoom = kMax + 64;
  Bytes source(kRoom);
  std::mt19937 rng(11);
  for (auto& b : source) b = static_cast<std::uint8_t>(rng());
  cuda::DeviceBuffer<std::uint8_t> src(kRoom), dst(kRoom);
  cuda::DeviceBuffer<std::uint64_t> device_n(1);
  GCB_CUDA(cudaMemcpy(src.data(), source.data(), kRoom, cudaMemcpyHostToDevice));
  const Bytes fill(kRoom, 0xA5);
  Bytes got(kRoom);
  for (std::size_t n : {0, 1, 15, 16, 17, 31, 32, 33, 47, 48, 100, 1000, 4133}) {
    for (std::size_t from = 0; from < 16; ++from) {
      for (std::size_t to = 0; to < 16; ++to) {
        for (bool on_device : {false, true}) {
          GCB_CUDA(cudaMemcpy(dst.data(), fill.data(), kRoom, cudaMemcpyHostToDevice));
          if (on_device) {
            GCB_CUDA(cudaMemcpy(device_n.data(), &n, sizeof n, cudaMemcpyHostToDevice));
            cuda::copy_bytes_async(dst.data() + to, src.data() + from, device_n.data(), kMax,
                                   nullptr);
          } else {
            cuda::copy_bytes_async(dst.data() + to, src.data() + from, n, nullptr);
          }
          GCB_CUDA(cudaMemcpy(got.data(), dst.data(), kRoom, cudaMemcpyDeviceToHost));
          Bytes want = fill;
          std::copy_n(source.begin() + from, n, want.begin() + to);
          ASSERT_EQ(got, want) << n << " bytes from offset " << from << " to offset " << to
                               << (on_device ? ", size on the device" : "");
        }
      }
    }
  }
}

}  // namespace
}  // namespace gcbench
