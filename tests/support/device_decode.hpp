#pragma once
// A container decoded through the device API from wherever a caller may put it: `offset` bytes
// into a device allocation that ends with the container, so that memcheck sees any read past it
// and the container's arrays lie at every alignment as the offset moves.
#include <cstddef>

#include "src/cuda/cuda_check.hpp"
#include "src/cuda/device_buffer.hpp"
#include "gcbench/device_codec.hpp"

namespace gcbench::testing {

struct DeviceDecode {
  DeviceStatus status;
  Bytes output;
};

inline DeviceDecode decode_at_offset(const BoundDeviceCodec& codec, const DecodePlan& plan,
                                     ByteSpan container, std::size_t offset) {
  cuda::DeviceBuffer<std::uint8_t> in(offset + container.size()), out(plan.original_size);
  cuda::DeviceBuffer<std::uint8_t> temp(plan.temp_bytes);
  cuda::DeviceBuffer<DeviceStatus> status(1);
  cuda::Stream s;
  GCB_CUDA(cudaMemcpyAsync(in.data() + offset, container.data(), container.size(),
                           cudaMemcpyHostToDevice, s.get()));
  codec.decompress_async(
      plan, {in.data() + offset, temp.data(), temp.bytes(), out.data(), status.data()}, s.get());
  DeviceDecode d{{}, Bytes(plan.original_size)};
  GCB_CUDA(
      cudaMemcpyAsync(&d.status, status.data(), sizeof d.status, cudaMemcpyDeviceToHost, s.get()));
  GCB_CUDA(cudaMemcpyAsync(d.output.data(), out.data(), d.output.size(), cudaMemcpyDeviceToHost,
                           s.get()));
  s.sync();
  return d;
}

}  // namespace gcbench::testing
