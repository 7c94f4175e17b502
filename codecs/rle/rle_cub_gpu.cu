// rle-cub: the baseline GPU RLE compressor, cub::DeviceRunLengthEncode::Encode, writing the
// same container as rle (decompression is rle's). Encode takes an int item count, so inputs
// are cut into chunks; a run crossing a chunk seam comes back as two runs of equal value and
// is merged on the host, where runs over the count limit are also split.
#include <algorithm>
#include <cub/device/device_run_length_encode.cuh>
#include <stdexcept>
#include <vector>

#include "codecs/common/cuda_check.hpp"
#include "codecs/common/device_elements.cuh"
#include "codecs/common/elements.hpp"
#include "codecs/rle/rle.hpp"
#include "codecs/rle/rle_gpu.hpp"
#include "codecs/rle/rle_payload.hpp"
#include "gcbench/container.hpp"

namespace gcbench::rle::gpu {
namespace {

using u8 = std::uint8_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

template <typename T>
cudaError_t cub_encode(void* temp, std::size_t& bytes, const T* in, T* values, u32* counts,
                       u32* runs, u64 items, cudaStream_t stream) {
  return cub::DeviceRunLengthEncode::Encode(temp, bytes, in, values, counts, runs,
                                            static_cast<int>(items), stream);
}

}  // namespace

CubEncoder::CubEncoder(u64 element_count, u32 width, u64 chunk_elements)
    : n_(element_count),
      chunk_(chunk_elements),
      width_(width),
      counts_(element_count),
      values_(element_count * width),
      chunk_runs_((element_count + chunk_elements - 1) / std::max<u64>(chunk_elements, 1)) {
  if (n_ == 0) throw std::invalid_argument("rle::gpu::CubEncoder needs at least one element");
  if (chunk_ < 1 || chunk_ > CubEncoder::kDefaultChunk) {
    throw std::invalid_argument("rle::gpu::CubEncoder: chunk size out of range");
  }
  // The first chunk is the longest; size the storage for it and for the last, shorter one.
  std::size_t bytes = 0;
  for (u64 items : {std::min(n_, chunk_), n_ - (chunk_count() - 1) * chunk_}) {
    std::size_t need = 0;
    cuda::with_element_type(width_, [&](auto tag) {
      using T = decltype(tag);
      GCB_CUDA(cub_encode<T>(nullptr, need, nullptr, nullptr, nullptr, nullptr, items, nullptr));
    });
    bytes = std::max(bytes, need);
  }
  temp_.resize(bytes);
}

void CubEncoder::encode(const u8* d_in, cudaStream_t stream) {
  cuda::with_element_type(width_, [&](auto tag) {
    using T = decltype(tag);
    for (u64 c = 0; c < chunk_count(); ++c) {
      const u64 first = c * chunk_;
      std::size_t bytes = temp_.bytes();
      GCB_CUDA(cub_encode<T>(temp_.data(), bytes, reinterpret_cast<const T*>(d_in) + first,
                             reinterpret_cast<T*>(values_.data()) + first, counts_.data() + first,
                             chunk_runs_.data() + c, std::min(chunk_, n_ - first), stream));
    }
  });
}

Bytes cub_encode_payload(ByteSpan input, u32 width, u64 max_count, u64 chunk_elements,
                         RunStats* stats) {
  const u64 n = input.size() / width;
  if (n == 0) return RunSink(width, max_count).payload(input);
  cuda::Stream stream;
  cuda::PhaseTimer timer(stream.get());
  cuda::DeviceBuffer<u8> d_in(n * width);
  CubEncoder enc(n, width, chunk_elements);
  timer.begin();
  GCB_CUDA(
      cudaMemcpyAsync(d_in.data(), input.data(), n * width, cudaMemcpyHostToDevice, stream.get()));
  timer.end_transfer();
  enc.encode(d_in.data(), stream.get());
  timer.end_kernel();
  std::vector<u32> chunk_runs(enc.chunk_count());
  GCB_CUDA(cudaMemcpyAsync(chunk_runs.data(), enc.chunk_runs(), 4 * chunk_runs.size(),
                           cudaMemcpyDeviceToHost, stream.get()));
  timer.end_transfer();
  if (chunk_runs.size() == 1 && n <= max_count) {
    // No seam, and no run can exceed the limit: the arrays go straight into the payload.
    Bytes payload = download_payload(input, width, chunk_runs[0], enc.counts(), enc.values(), {},
                                     max_count, stream.get(), timer);
    if (stats) *stats = RunStats{timer.kernel_s(), timer.transfer_s()};
    return payload;
  }
  // Gather every chunk's runs, then merge across seams and split on the host.
  u64 total = 0;
  for (u32 r : chunk_runs) total += r;
  std::vector<u32> counts(total);
  Bytes values(total * width);
  timer.begin();
  for (u64 c = 0, at = 0; c < chunk_runs.size(); at += chunk_runs[c], ++c) {
    const u64 first = c * enc.chunk_elements();
    GCB_CUDA(cudaMemcpyAsync(counts.data() + at, enc.counts() + first, 4 * u64{chunk_runs[c]},
                             cudaMemcpyDeviceToHost, stream.get()));
    GCB_CUDA(cudaMemcpyAsync(values.data() + at * width, enc.values() + first * width,
                             u64{chunk_runs[c]} * width, cudaMemcpyDeviceToHost, stream.get()));
  }
  timer.end_transfer();
  RunSink sink(width, max_count);
  for (u64 r = 0; r < total; ++r) sink.add(values.data() + r * width, counts[r]);
  Bytes payload = sink.payload(input);
  if (stats) *stats = RunStats{timer.kernel_s(), timer.transfer_s()};
  return payload;
}

namespace {

class RleCubCodec final : public Codec {
 public:
  RleCubCodec()
      // Built whole: assigning short literals member by member trips a GCC 12 -Wrestrict
      // false positive, an error under nvcc's --Werror=all-warnings.
      : info_{"rle-cub",
              "1",
              Device::gpu,
              "RLE baseline: cub::DeviceRunLengthEncode, rle container and decoders",
              {element_width_axis(), decode_axis()},
              Role::baseline} {}

  const CodecInfo& info() const override { return info_; }

  u64 max_compressed_size(u64 input_size, const Params& params) const override {
    Params p = resolve_params(info_.axes, params);
    return max_container_size(input_size, static_cast<u32>(p.at("element_width")));
  }

  Bytes compress(ByteSpan input, const Params& params, RunStats* stats) const override {
    cuda::require_device();
    Params p = resolve_params(info_.axes, params);
    Bytes payload = cub_encode_payload(input, static_cast<u32>(p.at("element_width")), kMaxRunCount,
                                       CubEncoder::kDefaultChunk, stats);
    return wrap_container(FormatId::rle, input, payload);
  }

  Bytes decompress(ByteSpan container, const Params& params, RunStats* stats) const override {
    cuda::require_device();
    Params p = resolve_params(info_.axes, params);
    return decode_container(container, static_cast<DecodeVariant>(p.at("decode")), stats);
  }

 private:
  CodecInfo info_;
};

}  // namespace
}  // namespace gcbench::rle::gpu

namespace gcbench::rle {
CodecPtr make_cub_gpu_codec() {
  return std::make_unique<gpu::RleCubCodec>();
}
}  // namespace gcbench::rle
