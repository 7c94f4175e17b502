#pragma once
// --cold-l2: before a timed GPU call, a read pass over a device buffer of twice the L2 cache
// evicts whatever the previous call left there (its input, its output), so that a small
// input is read from device memory as a first call would. A read rather than a memset: the
// lines it leaves are clean, so the timed call pays no write-back of the flush's own bytes.
// Built only with CUDA.
#include <cuda_runtime.h>

#include <cstdint>

#include "src/cuda/device_buffer.hpp"

namespace gcbench::driver {

class L2Flush {
 public:
  // Allocates the buffer on the current device (2x its cudaDeviceProp::l2CacheSize).
  L2Flush();
  // Enqueues the read pass on `stream`.
  void enqueue(cudaStream_t stream);
  std::uint64_t l2_bytes() const { return l2_bytes_; }
  std::uint64_t flush_bytes() const { return buffer_.bytes(); }

 private:
  std::uint64_t l2_bytes_ = 0;
  int blocks_ = 0;  // of the read pass: a few per SM
  cuda::DeviceBuffer<std::uint8_t> buffer_;
  cuda::DeviceBuffer<std::uint32_t> sink_{1};  // written never; keeps the reads alive
};

}  // namespace gcbench::driver
