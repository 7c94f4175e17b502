#include "baselines/nvcomp/nvcomp_codec.hpp"

#include <nvcomp/cascaded.h>
#include <nvcomp/deflate.h>
#include <nvcomp/lz4.h>
#include <nvcomp/snappy.h>
#include <nvcomp/zstd.h>

#include <numeric>
#include <string>

#include "codecs/common/device_buffer.hpp"
#include "gcbench/container.hpp"

// Payload (FormatId::nvcomp): u8 algorithm, u32 chunk_size, u64 chunk_count, u32 CRC-32 of
// the rest, u64 compressed_bytes[chunk_count], then the compressed chunks back to back.
// nvCOMP's decoders can fault on damaged input (seen: an illegal instruction on one flipped
// byte, which poisons the CUDA context), so the CRC rejects damage on the host before launch.

namespace gcbench::nvcomp {
namespace {

constexpr std::size_t kDeviceAlign = 256;  // every chunk pointer handed to nvCOMP
constexpr std::uint32_t kMinChunk = 4096, kMaxChunk = 1u << 24, kDefaultChunk = 65536;

std::size_t align_up(std::size_t n) {
  return (n + kDeviceAlign - 1) / kDeviceAlign * kDeviceAlign;
}

void check(nvcompStatus_t s, const char* what) {
  if (s != nvcompSuccess) {
    throw std::runtime_error(std::string("nvCOMP ") + what + " failed with status " +
                             std::to_string(static_cast<int>(s)));
  }
}

// The batched low-level API of one algorithm; every algorithm has the same call shapes and
// differs only in its option types.
template <typename COpts, typename DOpts>
struct BatchedApi {
  const char* name;
  Algorithm id;
  COpts compress_opts;
  DOpts decompress_opts;
  nvcompStatus_t (*compress_temp)(std::size_t, std::size_t, COpts, std::size_t*, std::size_t,
                                  cudaStream_t);
  nvcompStatus_t (*max_output_chunk)(std::size_t, COpts, std::size_t*);
  nvcompStatus_t (*compress)(const void* const*, const std::size_t*, std::size_t, std::size_t,
                             void*, std::size_t, void* const*, std::size_t*, COpts, nvcompStatus_t*,
                             cudaStream_t);
  nvcompStatus_t (*decompress_temp)(std::size_t, std::size_t, DOpts, std::size_t*, std::size_t,
                                    cudaStream_t);
  nvcompStatus_t (*decompress)(const void* const*, const std::size_t*, const std::size_t*,
                               std::size_t*, std::size_t, void*, std::size_t, void* const*, DOpts,
                               nvcompStatus_t*, cudaStream_t);
};

// Device copies of a batch's per-chunk pointer and size arrays.
struct Batch {
  cuda::DeviceBuffer<const void*> in_ptrs;
  cuda::DeviceBuffer<void*> out_ptrs;
  cuda::DeviceBuffer<std::size_t> in_bytes, out_bytes, actual_bytes;
  cuda::DeviceBuffer<nvcompStatus_t> statuses;
  explicit Batch(std::size_t n)
      : in_ptrs(n), out_ptrs(n), in_bytes(n), out_bytes(n), actual_bytes(n), statuses(n) {}
};

template <typename T>
void upload(cuda::DeviceBuffer<T>& dst, const std::vector<T>& src, cudaStream_t s) {
  GCB_CUDA(
      cudaMemcpyAsync(dst.data(), src.data(), src.size() * sizeof(T), cudaMemcpyHostToDevice, s));
}

void expect_all_succeeded(const Batch& batch, std::size_t n, cudaStream_t s, const char* what) {
  std::vector<nvcompStatus_t> statuses(n);
  GCB_CUDA(cudaMemcpyAsync(statuses.data(), batch.statuses.data(), n * sizeof(nvcompStatus_t),
                           cudaMemcpyDeviceToHost, s));
  GCB_CUDA(cudaStreamSynchronize(s));
  for (std::size_t i = 0; i < n; ++i) {
    if (statuses[i] != nvcompSuccess) {
      throw DecodeError(std::string("nvCOMP ") + what + " failed on chunk " + std::to_string(i) +
                        " with status " + std::to_string(static_cast<int>(statuses[i])));
    }
  }
}

template <typename COpts, typename DOpts>
class NvcompCodec final : public Codec {
 public:
  explicit NvcompCodec(BatchedApi<COpts, DOpts> api) : api_(api) {
    info_.name = std::string("nvcomp-") + api.name;
    info_.version = "1/nvcomp-" + std::to_string(NVCOMP_VER_MAJOR) + "." +
                    std::to_string(NVCOMP_VER_MINOR) + "." + std::to_string(NVCOMP_VER_PATCH);
    info_.device = Device::gpu;
    info_.role = Role::peer;
    info_.description = std::string("NVIDIA nvCOMP batched ") + api.name;
    AxisSpec chunk;
    chunk.name = "chunk_size";
    chunk.help = "bytes per nvCOMP chunk";
    chunk.default_value = kDefaultChunk;
    chunk.min = kMinChunk;
    chunk.max = kMaxChunk;
    chunk.in_container = true;
    info_.axes = {chunk};
  }

  const CodecInfo& info() const override { return info_; }

  std::uint64_t max_compressed_size(std::uint64_t n, const Params& params) const override {
    std::size_t chunk = resolve_params(info_.axes, params).at("chunk_size");
    std::size_t chunks = (n + chunk - 1) / chunk;
    return kContainerHeaderSize + 17 + chunks * (8 + max_output_chunk(chunk));
  }

  Bytes compress(ByteSpan input, const Params& params, RunStats* stats) const override {
    cuda::require_device();
    const std::size_t chunk = resolve_params(info_.axes, params).at("chunk_size");
    const std::size_t n = (input.size() + chunk - 1) / chunk;
    const std::size_t out_stride = align_up(max_output_chunk(chunk));
    cuda::Stream stream;
    cudaStream_t s = stream.get();

    std::size_t temp_bytes = 0;
    if (n > 0) {
      check(api_.compress_temp(n, chunk, api_.compress_opts, &temp_bytes, input.size(), s),
            "compress temp size");
    }
    cuda::DeviceBuffer<std::uint8_t> d_in(input.size()), d_out(n * out_stride), d_temp(temp_bytes);
    Batch batch(n);
    std::vector<const void*> in_ptrs(n);
    std::vector<void*> out_ptrs(n);
    std::vector<std::size_t> in_bytes(n);
    for (std::size_t i = 0; i < n; ++i) {
      in_ptrs[i] = d_in.data() + i * chunk;
      out_ptrs[i] = d_out.data() + i * out_stride;
      in_bytes[i] = std::min(chunk, input.size() - i * chunk);
    }

    cuda::PhaseTimer timer(s);
    timer.begin();
    GCB_CUDA(cudaMemcpyAsync(d_in.data(), input.data(), input.size(), cudaMemcpyHostToDevice, s));
    upload(batch.in_ptrs, in_ptrs, s);
    upload(batch.out_ptrs, out_ptrs, s);
    upload(batch.in_bytes, in_bytes, s);
    timer.end_transfer();
    if (n > 0) {
      check(api_.compress(batch.in_ptrs.data(), batch.in_bytes.data(), chunk, n, d_temp.data(),
                          temp_bytes, batch.out_ptrs.data(), batch.out_bytes.data(),
                          api_.compress_opts, batch.statuses.data(), s),
            "compress");
    }
    timer.end_kernel();
    // One copy of the whole strided output beats thousands of per-chunk copies.
    Bytes strided(n * out_stride);
    std::vector<std::size_t> out_bytes(n);
    GCB_CUDA(
        cudaMemcpyAsync(strided.data(), d_out.data(), strided.size(), cudaMemcpyDeviceToHost, s));
    GCB_CUDA(cudaMemcpyAsync(out_bytes.data(), batch.out_bytes.data(), n * sizeof(std::size_t),
                             cudaMemcpyDeviceToHost, s));
    timer.end_transfer();
    expect_all_succeeded(batch, n, s, "compression");
    if (stats) *stats = {timer.kernel_s(), timer.transfer_s()};

    Bytes chunks;
    for (std::size_t b : out_bytes) put_le<std::uint64_t>(chunks, b);
    for (std::size_t i = 0; i < n; ++i) {
      chunks.insert(chunks.end(), strided.begin() + i * out_stride,
                    strided.begin() + i * out_stride + out_bytes[i]);
    }
    Bytes payload;
    payload.push_back(static_cast<std::uint8_t>(api_.id));
    put_le<std::uint32_t>(payload, static_cast<std::uint32_t>(chunk));
    put_le<std::uint64_t>(payload, n);
    put_le<std::uint32_t>(payload, crc32_of(chunks));
    payload.insert(payload.end(), chunks.begin(), chunks.end());
    return wrap_container(FormatId::nvcomp, input, payload);
  }

  Bytes decompress(ByteSpan container, const Params&, RunStats* stats) const override {
    auto opened = open_container(container, FormatId::nvcomp);
    ByteReader r(opened.payload);
    if (r.read<std::uint8_t>("algorithm") != static_cast<std::uint8_t>(api_.id)) {
      throw DecodeError("nvCOMP container holds another algorithm than " + info_.name);
    }
    const std::size_t chunk = r.read<std::uint32_t>("chunk size");
    if (chunk < kMinChunk || chunk > kMaxChunk) throw DecodeError("nvCOMP chunk size out of range");
    const std::uint64_t original = opened.header.original_size;
    const std::uint64_t n = r.read<std::uint64_t>("chunk count");
    if (n != (original + chunk - 1) / chunk) throw DecodeError("nvCOMP chunk count mismatch");
    const std::uint32_t crc = r.read<std::uint32_t>("chunk checksum");
    if (crc != crc32_of(opened.payload.subspan(r.position()))) {
      throw DecodeError("nvCOMP chunk data damaged (checksum mismatch)");
    }
    if (n > r.remaining() / 8) throw DecodeError("truncated nvCOMP chunk size table");
    std::vector<std::size_t> comp_bytes(n), out_bytes(n), offsets(n);
    const std::size_t bound = max_output_chunk(chunk);
    std::size_t staged = 0;
    for (std::size_t i = 0; i < n; ++i) {
      comp_bytes[i] = r.read<std::uint64_t>("chunk size table");
      if (comp_bytes[i] > bound) throw DecodeError("nvCOMP chunk larger than its bound");
      out_bytes[i] = std::min<std::uint64_t>(chunk, original - i * chunk);
      offsets[i] = staged;
      staged += align_up(comp_bytes[i]);
    }
    if (std::accumulate(comp_bytes.begin(), comp_bytes.end(), std::size_t{0}) != r.remaining()) {
      throw DecodeError("nvCOMP chunk sizes do not add up to the payload");
    }
    cuda::require_device();
    Bytes aligned(staged);
    for (std::size_t i = 0; i < n; ++i) {
      ByteSpan c = r.take(comp_bytes[i], "chunk");
      std::copy(c.begin(), c.end(), aligned.begin() + offsets[i]);
    }

    cuda::Stream stream;
    cudaStream_t s = stream.get();
    std::size_t temp_bytes = 0;
    if (n > 0) {
      check(api_.decompress_temp(n, chunk, api_.decompress_opts, &temp_bytes, original, s),
            "decompress temp size");
    }
    cuda::DeviceBuffer<std::uint8_t> d_in(staged), d_out(original), d_temp(temp_bytes);
    Batch batch(n);
    std::vector<const void*> in_ptrs(n);
    std::vector<void*> out_ptrs(n);
    for (std::size_t i = 0; i < n; ++i) {
      in_ptrs[i] = d_in.data() + offsets[i];
      out_ptrs[i] = d_out.data() + i * chunk;
    }
    cuda::PhaseTimer timer(s);
    timer.begin();
    GCB_CUDA(cudaMemcpyAsync(d_in.data(), aligned.data(), staged, cudaMemcpyHostToDevice, s));
    upload(batch.in_ptrs, in_ptrs, s);
    upload(batch.out_ptrs, out_ptrs, s);
    upload(batch.in_bytes, comp_bytes, s);
    upload(batch.out_bytes, out_bytes, s);
    timer.end_transfer();
    if (n > 0) {
      check(api_.decompress(batch.in_ptrs.data(), batch.in_bytes.data(), batch.out_bytes.data(),
                            batch.actual_bytes.data(), n, d_temp.data(), temp_bytes,
                            batch.out_ptrs.data(), api_.decompress_opts, batch.statuses.data(), s),
            "decompress");
    }
    timer.end_kernel();
    Bytes out(original);
    std::vector<std::size_t> actual(n);
    GCB_CUDA(cudaMemcpyAsync(out.data(), d_out.data(), original, cudaMemcpyDeviceToHost, s));
    GCB_CUDA(cudaMemcpyAsync(actual.data(), batch.actual_bytes.data(), n * sizeof(std::size_t),
                             cudaMemcpyDeviceToHost, s));
    timer.end_transfer();
    expect_all_succeeded(batch, n, s, "decompression");
    if (actual != out_bytes) throw DecodeError("nvCOMP chunk decoded to the wrong size");
    if (stats) *stats = {timer.kernel_s(), timer.transfer_s()};
    verify_original(opened.header, out);
    return out;
  }

 private:
  std::size_t max_output_chunk(std::size_t chunk) const {
    std::size_t bytes = 0;
    check(api_.max_output_chunk(chunk, api_.compress_opts, &bytes), "max output chunk size");
    return bytes;
  }

  BatchedApi<COpts, DOpts> api_;
  CodecInfo info_;
};

template <typename COpts, typename DOpts>
CodecPtr make(BatchedApi<COpts, DOpts> api) {
  return std::make_unique<NvcompCodec<COpts, DOpts>>(api);
}

}  // namespace

std::vector<CodecPtr> make_codecs() {
  std::vector<CodecPtr> codecs;
  codecs.push_back(
      make(BatchedApi<nvcompBatchedLZ4CompressOpts_t, nvcompBatchedLZ4DecompressOpts_t>{
          "lz4", Algorithm::lz4, nvcompBatchedLZ4CompressDefaultOpts,
          nvcompBatchedLZ4DecompressDefaultOpts, nvcompBatchedLZ4CompressGetTempSize,
          nvcompBatchedLZ4CompressGetMaxOutputChunkSize, nvcompBatchedLZ4CompressAsync,
          nvcompBatchedLZ4DecompressGetTempSize, nvcompBatchedLZ4DecompressAsync}));
  codecs.push_back(
      make(BatchedApi<nvcompBatchedSnappyCompressOpts_t, nvcompBatchedSnappyDecompressOpts_t>{
          "snappy", Algorithm::snappy, nvcompBatchedSnappyCompressDefaultOpts,
          nvcompBatchedSnappyDecompressDefaultOpts, nvcompBatchedSnappyCompressGetTempSize,
          nvcompBatchedSnappyCompressGetMaxOutputChunkSize, nvcompBatchedSnappyCompressAsync,
          nvcompBatchedSnappyDecompressGetTempSize, nvcompBatchedSnappyDecompressAsync}));
  // Byte elements: the corpus files are byte streams, and any length is then valid.
  auto cascaded = nvcompBatchedCascadedCompressDefaultOpts;
  cascaded.common_opts.data_type = NVCOMP_TYPE_UCHAR;
  codecs.push_back(
      make(BatchedApi<nvcompBatchedCascadedCompressOpts_t, nvcompBatchedCascadedDecompressOpts_t>{
          "cascaded", Algorithm::cascaded, cascaded, nvcompBatchedCascadedDecompressDefaultOpts,
          nvcompBatchedCascadedCompressGetTempSize,
          nvcompBatchedCascadedCompressGetMaxOutputChunkSize, nvcompBatchedCascadedCompressAsync,
          nvcompBatchedCascadedDecompressGetTempSize, nvcompBatchedCascadedDecompressAsync}));
  codecs.push_back(
      make(BatchedApi<nvcompBatchedDeflateCompressOpts_t, nvcompBatchedDeflateDecompressOpts_t>{
          "deflate", Algorithm::deflate, nvcompBatchedDeflateCompressDefaultOpts,
          nvcompBatchedDeflateDecompressDefaultOpts, nvcompBatchedDeflateCompressGetTempSize,
          nvcompBatchedDeflateCompressGetMaxOutputChunkSize, nvcompBatchedDeflateCompressAsync,
          nvcompBatchedDeflateDecompressGetTempSize, nvcompBatchedDeflateDecompressAsync}));
  codecs.push_back(
      make(BatchedApi<nvcompBatchedZstdCompressOpts_t, nvcompBatchedZstdDecompressOpts_t>{
          "zstd", Algorithm::zstd, nvcompBatchedZstdCompressDefaultOpts,
          nvcompBatchedZstdDecompressDefaultOpts, nvcompBatchedZstdCompressGetTempSize,
          nvcompBatchedZstdCompressGetMaxOutputChunkSize, nvcompBatchedZstdCompressAsync,
          nvcompBatchedZstdDecompressGetTempSize, nvcompBatchedZstdDecompressAsync}));
  return codecs;
}

}  // namespace gcbench::nvcomp
