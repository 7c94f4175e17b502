#include "codecs/common/host_codec.hpp"

#include "src/cuda/device_buffer.hpp"
#include "gcbench/container.hpp"
#include "gcbench/errors.hpp"

namespace gcbench::gpu {
namespace {

using u8 = std::uint8_t;
using u64 = std::uint64_t;

// One parameter point of a HostCodec: the device codec bound once, device buffers per call.
class BoundHostCodec final : public BoundCodec {
 public:
  BoundHostCodec(const CodecInfo& info, BoundDeviceCodecPtr device)
      : info_(info), device_(std::move(device)) {}

  std::optional<RunTimeChoice> run_time_choice() const override {
    return device_->run_time_choice();
  }

  u64 max_compressed_size(u64 input_size) const override {
    return device_->max_compressed_size(input_size);
  }

  Bytes compress(ByteSpan input, RunStats* stats) const override {
    cuda::require_device();
    const u64 capacity = device_->max_compressed_size(input.size());
    cuda::DeviceBuffer<u8> in(input.size()), out(capacity);
    cuda::DeviceBuffer<u8> temp(device_->compress_temp_bytes(input.size()));
    cuda::DeviceBuffer<u64> size(1);
    cuda::Stream stream;
    cuda::PhaseTimer timer(stream.get());
    timer.begin();
    GCB_CUDA(cudaMemcpyAsync(in.data(), input.data(), input.size(), cudaMemcpyHostToDevice,
                             stream.get()));
    timer.end_transfer();
    device_->compress_async(
        {in.data(), input.size(), temp.data(), temp.bytes(), out.data(), size.data()},
        stream.get());
    timer.end_kernel();
    u64 written = 0;
    GCB_CUDA(cudaMemcpyAsync(&written, size.data(), sizeof written, cudaMemcpyDeviceToHost,
                             stream.get()));
    stream.sync();
    if (written > capacity) throw std::logic_error(info_.name + ": container exceeds its bound");
    Bytes container(written);
    timer.begin();
    GCB_CUDA(cudaMemcpyAsync(container.data(), out.data(), written, cudaMemcpyDeviceToHost,
                             stream.get()));
    timer.end_transfer();
    if (stats) *stats = RunStats{timer.kernel_s(), timer.transfer_s()};
    return container;
  }

  Bytes decompress(ByteSpan container, RunStats* stats) const override {
    cuda::require_device();
    return decode_guarded(info_.name, [&] { return decode(container, stats); });
  }

 private:
  Bytes decode(ByteSpan container, RunStats* stats) const {
    const DecodePlan plan = device_->plan_decompress(container);
    cuda::DeviceBuffer<u8> in(container.size()), out(plan.original_size), temp(plan.temp_bytes);
    cuda::DeviceBuffer<DeviceStatus> status(1);
    cuda::Stream stream;
    cuda::PhaseTimer timer(stream.get());
    timer.begin();
    GCB_CUDA(cudaMemcpyAsync(in.data(), container.data(), container.size(), cudaMemcpyHostToDevice,
                             stream.get()));
    timer.end_transfer();
    device_->decompress_async(
        plan, {in.data(), temp.data(), temp.bytes(), out.data(), status.data()}, stream.get());
    timer.end_kernel();
    DeviceStatus result;
    GCB_CUDA(cudaMemcpyAsync(&result, status.data(), sizeof result, cudaMemcpyDeviceToHost,
                             stream.get()));
    stream.sync();
    if (result.error != kDeviceOk) throw DecodeError(device_->codec().describe(result));
    Bytes decoded(plan.original_size);
    timer.begin();
    GCB_CUDA(cudaMemcpyAsync(decoded.data(), out.data(), decoded.size(), cudaMemcpyDeviceToHost,
                             stream.get()));
    timer.end_transfer();
    if (stats) *stats = RunStats{timer.kernel_s(), timer.transfer_s()};
    return decoded;
  }

  const CodecInfo& info_;
  BoundDeviceCodecPtr device_;
};

class HostCodec final : public Codec {
 public:
  explicit HostCodec(std::unique_ptr<const DeviceCodec> device) : device_(std::move(device)) {}

  const CodecInfo& info() const override { return device_->info(); }
  const DeviceCodec* device_codec() const override { return device_.get(); }
  BoundCodecPtr bind(const Params& params) const override {
    return std::make_unique<BoundHostCodec>(info(), device_->bind(params));
  }

 private:
  std::unique_ptr<const DeviceCodec> device_;
};

}  // namespace

CodecPtr make_host_codec(std::unique_ptr<const DeviceCodec> device) {
  return std::make_unique<HostCodec>(std::move(device));
}

}  // namespace gcbench::gpu
