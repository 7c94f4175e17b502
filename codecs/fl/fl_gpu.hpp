#pragma once
// The device side of the GPU FL codec, on device buffers, so that the codec and the kernel
// benchmark share it. Constructors allocate everything (CUB temporary storage included, sized
// by query), so encode()/decode() only enqueue work on the given stream and are safe to time.
#include <cuda_runtime.h>

#include <cstdint>

#include "codecs/common/device_buffer.hpp"

namespace gcbench::fl::gpu {

class Encoder {
 public:
  // element_count >= 1 elements of `width` bytes (1, 2, 4), frames of frame_size elements.
  Encoder(std::uint64_t element_count, std::uint32_t width, std::uint32_t frame_size);

  // d_in: element_count * width bytes from cudaMalloc (16-byte aligned).
  void encode(const std::uint8_t* d_in, cudaStream_t stream);

  std::uint64_t frame_count() const { return frames_; }
  const std::uint8_t* bits() const { return bits_.data(); }     // frame_count bytes
  const std::uint32_t* words() const { return words_.data(); }  // ceil(total_bits / 32) words
  const std::uint64_t* total_bits() const { return offsets_.data() + frames_; }  // one value

 private:
  std::uint64_t n_;
  std::uint32_t width_, frame_size_;
  std::uint64_t frames_;
  cuda::DeviceBuffer<std::uint32_t> frame_or_;
  cuda::DeviceBuffer<std::uint8_t> bits_;
  cuda::DeviceBuffer<std::uint64_t> sizes_, offsets_;
  cuda::DeviceBuffer<std::uint32_t> words_;
  cuda::DeviceBuffer<std::uint64_t> tile_frame_;  // frame of each word tile's first bit
  cuda::DeviceBuffer<std::uint8_t> temp_;
  unsigned pack_grid_;
};

class Decoder {
 public:
  // Sizes as validated by parse_payload (word_count matches bits[] exactly).
  Decoder(std::uint64_t element_count, std::uint32_t width, std::uint32_t frame_size,
          std::uint64_t word_count);

  // Inputs to fill before decode(): bits[frame_count] and the packed words.
  std::uint8_t* bits() { return bits_.data(); }
  std::uint32_t* words() { return words_.data(); }
  std::uint64_t frame_count() const { return frames_; }

  // Writes element_count * width bytes to d_out (from cudaMalloc).
  void decode(std::uint8_t* d_out, cudaStream_t stream);

 private:
  std::uint64_t n_;
  std::uint32_t width_, frame_size_;
  std::uint64_t frames_, word_count_;
  cuda::DeviceBuffer<std::uint8_t> bits_;
  cuda::DeviceBuffer<std::uint32_t> words_;
  cuda::DeviceBuffer<std::uint64_t> sizes_, offsets_;
  cuda::DeviceBuffer<std::uint8_t> temp_;
};

}  // namespace gcbench::fl::gpu
