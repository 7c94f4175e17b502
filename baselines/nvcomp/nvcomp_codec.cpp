#include "baselines/nvcomp/nvcomp_codec.hpp"

#include <nvcomp/ans.h>
#include <nvcomp/bitcomp.h>
#include <nvcomp/cascaded.h>
#include <nvcomp/crc32.h>
#include <nvcomp/deflate.h>
#include <nvcomp/gdeflate.h>
#include <nvcomp/lz4.h>
#include <nvcomp/snappy.h>
#include <nvcomp/zstd.h>

#include <algorithm>
#include <array>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

#include "baselines/nvcomp/nvcomp_format.hpp"
#include "baselines/nvcomp/nvcomp_kernels.hpp"
#include "src/cuda/cuda_check.hpp"
#include "src/cuda/device_buffer.hpp"
#include "codecs/common/elements.hpp"
#include "codecs/common/host_codec.hpp"
#include "src/cuda/temp_storage.hpp"
#include "gcbench/container.hpp"
#include "gcbench/device_codec.hpp"
#include "gcbench/errors.hpp"
#include "gcbench/typed_device_codec.hpp"

// nvCOMP's batched low-level API behind gcbench's device API (include/gcbench/device_codec.hpp).
// Compression stays on the device; kernels pack nvCOMP's chunks into the container
// (nvcomp_format.hpp). nvCOMP's decoders can fault on damaged input and poison the CUDA context, so
// no chunk reaches them unchecked: plan_decompress validates the host container's header and
// chunk table (O(chunks) work, no pass over the data), and on the device, before nvCOMP's
// decoder, the header, the fixed fields and the table are checked again and every chunk's CRC-32
// and zero padding against the table; a chunk failing any of these is swapped for a small valid
// decoy chunk and reported. nvCOMP's statuses and the output's CRC-32 are checked after.

namespace gcbench::nvcomp {
namespace {

using u8 = std::uint8_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

constexpr std::size_t kSlotAlign = 256;
constexpr std::uint32_t kMinChunk = 4096, kMaxChunk = 1u << 24, kDefaultChunk = 65536;

// Every pointer handed to nvCOMP is format::kAlign aligned; the strictest of the algorithms
// used here asks for no more.
static_assert(nvcompLZ4RequiredCompressionAlignment <= format::kAlign &&
              nvcompLZ4RequiredDecompressionAlignment <= format::kAlign &&
              nvcompSnappyRequiredCompressionAlignment <= format::kAlign &&
              nvcompSnappyRequiredDecompressionAlignment <= format::kAlign &&
              nvcompCascadedRequiredCompressionAlignment <= format::kAlign &&
              nvcompCascadedRequiredDecompressionAlignment <= format::kAlign &&
              nvcompDeflateRequiredCompressionAlignment <= format::kAlign &&
              nvcompDeflateRequiredDecompressionAlignment <= format::kAlign &&
              nvcompZstdRequiredCompressionAlignment <= format::kAlign &&
              nvcompZstdRequiredDecompressionAlignment <= format::kAlign &&
              nvcompBitcompRequiredCompressionAlignment <= format::kAlign &&
              nvcompBitcompRequiredDecompressionAlignment <= format::kAlign &&
              nvcompGdeflateRequiredCompressionAlignment <= format::kAlign &&
              nvcompGdeflateRequiredDecompressionAlignment <= format::kAlign &&
              nvcompANSRequiredCompressionAlignment <= format::kAlign &&
              nvcompANSRequiredDecompressionAlignment <= format::kAlign);
static_assert(sizeof(std::size_t) == sizeof(u64), "nvCOMP's size arrays are the scan's u64");

u64 align_up(u64 n, u64 a) {
  return (n + a - 1) / a * a;
}

u64 chunks_of(u64 size, u64 chunk) {
  return (size + chunk - 1) / chunk;
}

void check(nvcompStatus_t s, const char* what) {
  if (s != nvcompSuccess) {
    throw std::runtime_error(std::string("nvCOMP ") + what + " failed with status " +
                             std::to_string(static_cast<int>(s)));
  }
}

void require_aligned(const void* p, const char* what) {
  if (reinterpret_cast<std::uintptr_t>(p) % format::kAlign != 0) {
    throw std::invalid_argument(std::string("nvCOMP device API: the ") + what + " must be " +
                                std::to_string(format::kAlign) + "-byte aligned");
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
  // Axes beyond chunk_size that shape the compression options, and the options at a resolved
  // point of them; none: compress_opts everywhere.
  std::vector<AxisSpec> axes = {};
  COpts (*options_at)(COpts defaults, const Params& resolved) = nullptr;
  // Cascaded: of 12 compressions of Calgary's pic on an H100 (nvCOMP 5, asymmetric mode), two
  // distinct containers of equal size, both decoding to the input, whatever the stream and
  // whatever the temporary and output buffers held (tests/gpu/nvcomp_gpu_test.cpp).
  bool reproducible = true;
  // The end-to-end pipeline's chunk for this algorithm (CodecInfo::pipeline_chunk_bytes);
  // 0: the pipeline's default.
  std::uint64_t pipeline_chunk_bytes = 0;
};

// The validated layout of a container, kept in the DecodePlan.
struct Plan {
  u32 chunk_size = 0;
  u64 chunks = 0;
  u64 data_bytes = 0;
};

template <typename COpts, typename DOpts>
class NvcompDeviceCodec final : public TypedDeviceCodec<NvcompDeviceCodec<COpts, DOpts>> {
 public:
  explicit NvcompDeviceCodec(BatchedApi<COpts, DOpts> api) : api_(api) {
    info_.name = std::string("nvcomp-") + api.name;
    info_.version = std::to_string(format::kVersion) + "/nvcomp-" +
                    std::to_string(NVCOMP_VER_MAJOR) + "." + std::to_string(NVCOMP_VER_MINOR) +
                    "." + std::to_string(NVCOMP_VER_PATCH);
    info_.device = Device::gpu;
    info_.role = Role::peer;
    info_.description = std::string("NVIDIA nvCOMP ") + api.name +
                        " through its batched C API: chunk pointers, sizes and CRC-32s on the "
                        "device, no host round trip; end to end in gcbench's pipeline";
    if (api.pipeline_chunk_bytes != 0) {
      info_.description += ", " + std::to_string(api.pipeline_chunk_bytes >> 20) +
                           " MiB a pipeline chunk (larger batches of nvCOMP chunks a call)";
    }
    info_.pipeline_chunk_bytes = api.pipeline_chunk_bytes;
    info_.reproducible = api.reproducible;
    info_.container_format = format::kContainerFormat;
    AxisSpec chunk;
    chunk.name = "chunk_size";
    chunk.help = "bytes per nvCOMP chunk (a multiple of 16)";
    chunk.default_value = kDefaultChunk;
    chunk.min = kMinChunk;
    chunk.max = kMaxChunk;
    chunk.in_container = true;
    info_.axes = {chunk};
    info_.axes.insert(info_.axes.end(), api_.axes.begin(), api_.axes.end());
  }

  // The axes, read once at bind time: the chunk size, the compression options at the point,
  // and the element width nvCOMP reads (0: the codec has no such axis).
  struct Typed {
    u64 chunk_size = kDefaultChunk;
    COpts options{};
    u64 element_width = 0;
  };

  const CodecInfo& info() const override { return info_; }

  // nvCOMP's pointers into the input must stay aligned.
  Typed typed(const Params& resolved) const {
    const auto chunk = static_cast<u64>(axis_value(resolved, "chunk_size"));
    if (chunk % format::kAlign != 0) {
      throw ParamError("nvCOMP chunk_size must be a multiple of " + std::to_string(format::kAlign) +
                       ", not " + std::to_string(chunk));
    }
    const auto width = resolved.find("element_width");
    return {chunk, options_at(resolved),
            width != resolved.end() ? static_cast<u64>(width->second) : 0};
  }

  u64 max_compressed_size(u64 input_size, const Typed& p) const {
    const u64 chunk = p.chunk_size, n = chunks_of(input_size, chunk);
    return kContainerHeaderSize + format::data_offset(n) +
           n * format::padded(max_output_chunk(chunk, options_for(p, input_size)));
  }

  std::size_t compress_temp_bytes(u64 input_size, const Typed& p) const {
    cuda::TempCarver carve;
    carve_compress(carve, input_size, p);
    return carve.bytes();
  }

  void compress_async(const CompressBuffers& b, const Typed& p, DeviceStream stream) const {
    const u64 chunk = p.chunk_size;
    require_aligned(b.input, "input");
    require_aligned(b.output, "output");
    cuda::TempCarver carve(b.temp, b.temp_bytes);
    const CompressTemp t = carve_compress(carve, b.input_size, p);
    const u64 n = t.layout.chunks;
    u8* payload = b.output + kContainerHeaderSize;
    prepare_compress_async(b.input, payload, t.layout, t.batch, stream);
    if (n > 0) {
      // nvCOMP leaves some bytes inside a chunk's output unwritten (seen with cascaded: a chunk
      // compressed in reused memory differed from the same bytes compressed in fresh memory),
      // so the slots start zeroed and a container depends on its input alone.
      GCB_CUDA(cudaMemsetAsync(t.layout.slots, 0, n * t.layout.slot_stride, stream));
      check(api_.compress(t.batch.in_ptrs, t.batch.in_bytes, chunk, n, t.nvcomp_temp,
                          t.nvcomp_temp_bytes, t.batch.out_ptrs, t.batch.out_bytes, t.options,
                          t.batch.statuses, stream),
            "compress");
      size_compressed_async(payload, t.layout, t.batch, stream);
      nvcompBatchedCRC32Opts_t crc{};
      crc.spec = nvcompCRC32;
      crc.kernel_conf = crc_conf(n, t.layout.max_chunk_out);
      check(nvcompBatchedCRC32Async(t.batch.out_ptrs, t.batch.out_bytes, n,
                                    reinterpret_cast<u32*>(payload + format::crcs_offset(n)), crc,
                                    nvcompCRC32OnlySegment, nullptr, stream),
            "CRC-32");
    }
    pack_compressed_async(payload, t.layout, t.batch, t.payload_size, stream);
    finish_compress_async(b.input, b.input_size, b.output, t.crc, t.crc_bytes, t.crc_value,
                          t.payload_size, b.output_size, stream);
  }

  DecodePlan plan_decompress(ByteSpan container, const Typed& typed) const {
    const OpenedContainer c = open_container(container, format::kContainerFormat);
    const ByteSpan p = c.payload;
    const u64 original = c.header.original_size;
    if (p.size() < format::kFixedBytes) throw DecodeError("truncated nvCOMP payload header");
    if (p[0] != static_cast<u8>(api_.id)) {
      throw DecodeError("nvCOMP container holds another algorithm than " + info_.name);
    }
    if (p[1] == format::kCompressFailed) {
      throw DecodeError("nvCOMP reported a failed chunk when this container was compressed");
    }
    if (p[1] != 0 || p[2] != 0 || p[3] != 0) throw DecodeError("nvCOMP payload flags damaged");
    const u64 chunk = load_le<u32>(p.data() + 4);
    if (chunk < kMinChunk || chunk > kMaxChunk || chunk % format::kAlign != 0) {
      throw DecodeError("nvCOMP chunk size out of range");
    }
    const u64 n = load_le<u64>(p.data() + 8);
    if (n != chunks_of(original, chunk)) throw DecodeError("nvCOMP chunk count mismatch");
    if (n > (p.size() - format::kFixedBytes) / format::kTableEntryBytes) {
      throw DecodeError("truncated nvCOMP chunk table");
    }
    const u64 bound = decode_bound(chunk);
    const u64 data_at = format::data_offset(n);
    if (data_at > p.size()) throw DecodeError("truncated nvCOMP chunk table");
    for (u64 k = format::table_end(n); k < data_at; ++k) {
      if (p[k] != 0) throw DecodeError("nvCOMP padding after the chunk table damaged");
    }
    const u64 data_bytes = p.size() - data_at;
    u64 padded_sum = 0;
    for (u64 i = 0; i < n; ++i) {
      const u64 size = load_le<u32>(p.data() + format::kSizesOffset + 4 * i);
      if (size == 0 || size > bound) throw DecodeError("nvCOMP chunk size outside its bound");
      padded_sum += format::padded(size);
    }
    if (padded_sum != data_bytes) {
      throw DecodeError("nvCOMP chunk sizes do not add up to the payload");
    }
    // The decoy for the current device is made here, where synchronizing is allowed, so that
    // decompress_async finds it.
    if (n > 0) {
      cuda::require_device();
      decoy(typed, original);
    }
    cuda::TempCarver carve;
    carve_decompress(carve, n, chunk, original);
    return make_plan(container, original, carve.bytes(),
                     Plan{static_cast<u32>(chunk), n, data_bytes});
  }

  void decompress_async(const DecodePlan& plan, const DecompressBuffers& b, const Typed& typed,
                        DeviceStream stream) const {
    const Plan& l = std::any_cast<const Plan&>(plan.detail);
    require_aligned(b.container, "container");
    require_aligned(b.output, "output");
    cuda::TempCarver carve(b.temp, b.temp_bytes);
    const DecompressTemp t = carve_decompress(carve, l.chunks, l.chunk_size, plan.original_size);
    const DecompressLayout layout{.algorithm = static_cast<u8>(api_.id),
                                  .chunk_size = l.chunk_size,
                                  .chunks = l.chunks,
                                  .original_size = plan.original_size,
                                  .data_bytes = l.data_bytes,
                                  .max_chunk_in = decode_bound(l.chunk_size)};
    const u8* payload = b.container + kContainerHeaderSize;
    begin_decompress_async(b.container, plan.header, b.status, stream);
    if (l.chunks > 0) {
      // Made by plan_decompress; here only on a device that has planned nothing yet (once,
      // synchronizing).
      const Decoy& swap_in = decoy(typed, plan.original_size);
      prepare_decompress_async(payload, b.output, layout, t.batch, b.status, stream);
      // Each chunk's CRC-32 as the device reads it, over the pointers and sizes just checked;
      // the guard then lets only chunks matching the table through to nvCOMP's decoder.
      nvcompBatchedCRC32Opts_t crc{};
      crc.spec = nvcompCRC32;
      crc.kernel_conf = crc_conf(l.chunks, layout.max_chunk_in);
      check(nvcompBatchedCRC32Async(t.batch.in_ptrs, t.batch.in_bytes, l.chunks, t.chunk_crcs, crc,
                                    nvcompCRC32OnlySegment, nullptr, stream),
            "CRC-32");
      guard_chunks_async(payload, layout, t.batch, t.chunk_crcs, t.lowest_bad,
                         {swap_in.bytes.data(), swap_in.size}, b.status, stream);
      check(api_.decompress(t.batch.in_ptrs, t.batch.in_bytes, t.batch.out_bytes,
                            t.batch.actual_bytes, l.chunks, t.nvcomp_temp, t.nvcomp_temp_bytes,
                            t.batch.out_ptrs, api_.decompress_opts, t.batch.statuses, stream),
            "decompress");
      check_decompressed_async(layout, t.batch, b.status, stream);
    }
    finish_decompress_async(b.container, b.output, plan.original_size, t.crc, t.crc_bytes, b.status,
                            stream);
  }

  std::string describe(const DeviceStatus& s) const override {
    const std::string chunk = " chunk " + std::to_string(s.detail);
    switch (s.error) {
      case kChunkDecodeFailed:
        return info_.name + ": nvCOMP could not decompress" + chunk;
      case kChunkWrongSize:
        return info_.name + ": nvCOMP decompressed" + chunk + " to the wrong size";
      case kChunkTableChanged:
        return info_.name + ": the chunk table on the device differs from the planned one at" +
               chunk;
      case kChunkDamaged:
        return info_.name + ": nvCOMP" + chunk + " damaged (checksum or padding mismatch)";
      default:
        return describe_common(info_.name.c_str(), s);
    }
  }

 private:
  struct CompressTemp {
    CompressLayout layout;
    BatchArrays batch;
    void* nvcomp_temp = nullptr;
    std::size_t nvcomp_temp_bytes = 0;
    void* crc = nullptr;
    std::size_t crc_bytes = 0;
    u64* payload_size = nullptr;
    u32* crc_value = nullptr;
    COpts options;
  };

  struct DecompressTemp {
    BatchArrays batch;
    void* nvcomp_temp = nullptr;
    std::size_t nvcomp_temp_bytes = 0;
    void* crc = nullptr;
    std::size_t crc_bytes = 0;
    u32* chunk_crcs = nullptr;
    u64* lowest_bad = nullptr;
  };

  // A chunk nvCOMP compressed from one zero element, which decompress_async gives nvCOMP in
  // place of a chunk that must not reach it. The element is of the type the container's chunks
  // hold (options_for: Bitcomp's decoder takes one type for a whole batch), and fits any
  // chunk's output: chunks are never empty, and whole elements when the type is wider than a
  // byte. The decompression options do not depend on the compression's (the element type of
  // Cascaded and Bitcomp is in the chunk).
  struct Decoy {
    cuda::DeviceBuffer<u8> bytes;
    u64 size = 0;
  };

  template <typename T>
  static T load_le(const u8* p) {
    u64 v = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i) v |= u64{p[i]} << (8 * i);
    return static_cast<T>(v);
  }

  // nvCOMP reads elements of the data type's size, whole ones only (chunks are multiples of 8
  // bytes: the last one decides), so an input that is not whole elements is compressed as
  // bytes, which any length is. The decoder reads the type from the chunks themselves.
  COpts options_for(const Typed& p, u64 input_size) const {
    return p.element_width > 1 && input_size % p.element_width != 0 ? api_.compress_opts
                                                                    : p.options;
  }

  // The compression options at a resolved point of the axes.
  COpts options_at(const Params& resolved) const {
    return api_.options_at ? api_.options_at(api_.compress_opts, resolved) : api_.compress_opts;
  }

  u64 max_output_chunk(u64 chunk, const COpts& options) const {
    std::size_t bytes = 0;
    check(api_.max_output_chunk(chunk, options, &bytes), "max output chunk size");
    return bytes;
  }

  // The largest compressed chunk any point of the axes may write: a decoder checks against
  // it, whatever the point it is called with.
  u64 decode_bound(u64 chunk) const {
    u64 bound = max_output_chunk(chunk, api_.compress_opts);
    for (const AxisSpec& axis : api_.axes) {
      for (const std::int64_t value : axis.allowed) {
        const Params point = resolve_params(info_.axes, {{axis.name, value}});
        bound = std::max(bound, max_output_chunk(chunk, options_at(point)));
      }
    }
    return bound;
  }

  static void carve_batch(cuda::TempCarver& carve, u64 n, bool decompress, BatchArrays& b) {
    b.in_ptrs = carve.take<const void*>(n);
    b.in_bytes = carve.take<std::size_t>(n);
    b.out_ptrs = carve.take<void*>(n);
    b.out_bytes = carve.take<std::size_t>(n);
    b.actual_bytes = decompress ? carve.take<std::size_t>(n) : nullptr;
    b.statuses = carve.take<nvcompStatus_t>(n);
    b.padded = carve.take<u64>(n + 1);
    b.offsets = carve.take<u64>(n + 1);
    b.scan_bytes = scan_temp_bytes(n);
    b.scan = carve.take<u8>(b.scan_bytes);
  }

  // The same sequence of take() when sizing and when running.
  CompressTemp carve_compress(cuda::TempCarver& carve, u64 input_size, const Typed& p) const {
    const u64 chunk = p.chunk_size;
    CompressTemp t;
    t.options = options_for(p, input_size);
    CompressLayout& l = t.layout;
    l.algorithm = static_cast<u8>(api_.id);
    l.chunk_size = static_cast<u32>(chunk);
    l.chunks = chunks_of(input_size, chunk);
    l.input_size = input_size;
    l.max_chunk_out = max_output_chunk(chunk, t.options);
    l.slot_stride = align_up(l.max_chunk_out, kSlotAlign);
    carve_batch(carve, l.chunks, false, t.batch);
    if (l.chunks > 0) {
      check(
          api_.compress_temp(l.chunks, chunk, t.options, &t.nvcomp_temp_bytes, input_size, nullptr),
          "compress temp size");
    }
    t.nvcomp_temp = carve.take<u8>(t.nvcomp_temp_bytes);
    l.slots = carve.take<u8>(l.chunks * l.slot_stride);
    t.crc_bytes = crc_temp_bytes(input_size);
    t.crc = carve.take<u8>(t.crc_bytes);
    t.payload_size = carve.take<u64>(1);
    t.crc_value = carve.take<u32>(1);
    return t;
  }

  DecompressTemp carve_decompress(cuda::TempCarver& carve, u64 n, u64 chunk,
                                  u64 original_size) const {
    DecompressTemp t;
    carve_batch(carve, n, true, t.batch);
    if (n > 0) {
      check(api_.decompress_temp(n, chunk, api_.decompress_opts, &t.nvcomp_temp_bytes,
                                 original_size, nullptr),
            "decompress temp size");
    }
    t.nvcomp_temp = carve.take<u8>(t.nvcomp_temp_bytes);
    t.crc_bytes = crc_temp_bytes(original_size);
    t.crc = carve.take<u8>(t.crc_bytes);
    t.chunk_crcs = carve.take<u32>(n);
    t.lowest_bad = carve.take<u64>(1);
    return t;
  }

  // nvCOMP's heuristic kernel configuration for the chunk CRCs: a host-only query (it reads
  // the device's properties), kept per batch shape (compression and decompression ask for
  // different ones) and device.
  nvcompCRC32KernelConf_t crc_conf(u64 n, u64 max_chunk) const {
    int device = 0;
    GCB_CUDA(cudaGetDevice(&device));
    const std::tuple key{n, max_chunk, device};
    std::lock_guard lock(crc_mutex_);
    if (const auto it = crc_confs_.find(key); it != crc_confs_.end()) return it->second;
    nvcompCRC32KernelConf_t conf{};
    check(nvcompBatchedCRC32GetHeuristicConf(nullptr, n, &conf, max_chunk, nullptr),
          "CRC-32 configuration");
    if (crc_confs_.size() >= kMaxCrcConfs) crc_confs_.clear();
    crc_confs_.emplace(key, conf);
    return conf;
  }

  // The decoy for the current device and the element width the chunks of an input of
  // `original_size` bytes hold at `p`, made the first time it is asked for there.
  const Decoy& decoy(const Typed& p, u64 original_size) const {
    int device = 0;
    GCB_CUDA(cudaGetDevice(&device));
    const u64 width =
        p.element_width > 1 && original_size % p.element_width == 0 ? p.element_width : 1;
    std::lock_guard lock(decoy_mutex_);
    auto it = decoys_.find({device, width});
    if (it == decoys_.end()) {
      it = decoys_
               .emplace(std::pair{device, width}, make_decoy(options_for(p, original_size), width))
               .first;
    }
    return it->second;  // std::map keeps it in place while others are added
  }

  // Compresses one zero element of `width` bytes as compress_async would (a chunk of kMinChunk
  // bytes at most, `options`), then decodes it once: a decoy nvCOMP cannot decode would give
  // its decoder the very input it must not see. Synchronizes.
  Decoy make_decoy(const COpts& options, u64 width) const {
    const u64 chunk = kMinChunk;
    const u64 bound = max_output_chunk(chunk, options);
    std::size_t compress_temp = 0, decompress_temp = 0;
    check(api_.compress_temp(1, chunk, options, &compress_temp, width, nullptr),
          "decoy compress temp size");
    check(api_.decompress_temp(1, chunk, api_.decompress_opts, &decompress_temp, width, nullptr),
          "decoy decompress temp size");
    struct Scratch {
      BatchArrays batch;
      u8* plain = nullptr;    // the zero element
      u8* decoded = nullptr;  // the decoy decoded
      u8* compressed = nullptr;
      void* temp = nullptr;
    };
    const auto carve_scratch = [&](cuda::TempCarver& carve) {
      Scratch s;
      carve_batch(carve, 1, true, s.batch);
      s.plain = carve.take<u8>(width);
      s.decoded = carve.take<u8>(width);
      s.compressed = carve.take<u8>(bound);
      s.temp = carve.take<u8>(std::max(compress_temp, decompress_temp));
      return s;
    };
    cuda::TempCarver sizing;
    carve_scratch(sizing);
    cuda::DeviceBuffer<u8> memory(sizing.bytes());
    cuda::TempCarver carve(memory.data(), memory.bytes());
    const Scratch s = carve_scratch(carve);
    const BatchArrays& b = s.batch;
    cuda::Stream stream;
    const cudaStream_t st = stream.get();
    // Pageable host values: the stream is synchronized before they go out of scope.
    const void* in_ptr = s.plain;
    void* out_ptr = s.compressed;
    std::size_t in_bytes = width, out_bytes = bound;
    GCB_CUDA(cudaMemsetAsync(s.plain, 0, width, st));
    // As compress_async's slots: bytes nvCOMP leaves unwritten inside its output stay defined.
    GCB_CUDA(cudaMemsetAsync(s.compressed, 0, bound, st));
    GCB_CUDA(cudaMemcpyAsync(b.in_ptrs, &in_ptr, sizeof in_ptr, cudaMemcpyHostToDevice, st));
    GCB_CUDA(cudaMemcpyAsync(b.in_bytes, &in_bytes, sizeof in_bytes, cudaMemcpyHostToDevice, st));
    GCB_CUDA(cudaMemcpyAsync(b.out_ptrs, &out_ptr, sizeof out_ptr, cudaMemcpyHostToDevice, st));
    GCB_CUDA(
        cudaMemcpyAsync(b.out_bytes, &out_bytes, sizeof out_bytes, cudaMemcpyHostToDevice, st));
    check(api_.compress(b.in_ptrs, b.in_bytes, chunk, 1, s.temp, compress_temp, b.out_ptrs,
                        b.out_bytes, options, b.statuses, st),
          "decoy compress");
    nvcompStatus_t status = nvcompSuccess;
    GCB_CUDA(
        cudaMemcpyAsync(&out_bytes, b.out_bytes, sizeof out_bytes, cudaMemcpyDeviceToHost, st));
    GCB_CUDA(cudaMemcpyAsync(&status, b.statuses, sizeof status, cudaMemcpyDeviceToHost, st));
    stream.sync();
    check(status, "decoy compress (chunk status)");
    if (out_bytes == 0 || out_bytes > bound) {
      throw std::runtime_error("nvCOMP decoy compress: " + std::to_string(out_bytes) +
                               " bytes, outside (0, " + std::to_string(bound) + "]");
    }
    Decoy made{cuda::DeviceBuffer<u8>(out_bytes), out_bytes};
    GCB_CUDA(
        cudaMemcpyAsync(made.bytes.data(), s.compressed, out_bytes, cudaMemcpyDeviceToDevice, st));
    // The round trip, from the decoy's own buffer as decompress_async will give it.
    const void* decoy_ptr = made.bytes.data();
    void* decoded_ptr = s.decoded;
    std::size_t decoy_bytes = out_bytes, decoded_capacity = width, decoded_bytes = 0;
    std::array<u8, 8> decoded{};
    decoded.fill(1);
    GCB_CUDA(cudaMemsetAsync(s.decoded, 1, width, st));
    GCB_CUDA(cudaMemcpyAsync(b.in_ptrs, &decoy_ptr, sizeof decoy_ptr, cudaMemcpyHostToDevice, st));
    GCB_CUDA(
        cudaMemcpyAsync(b.in_bytes, &decoy_bytes, sizeof decoy_bytes, cudaMemcpyHostToDevice, st));
    GCB_CUDA(
        cudaMemcpyAsync(b.out_ptrs, &decoded_ptr, sizeof decoded_ptr, cudaMemcpyHostToDevice, st));
    GCB_CUDA(cudaMemcpyAsync(b.out_bytes, &decoded_capacity, sizeof decoded_capacity,
                             cudaMemcpyHostToDevice, st));
    check(api_.decompress(b.in_ptrs, b.in_bytes, b.out_bytes, b.actual_bytes, 1, s.temp,
                          decompress_temp, b.out_ptrs, api_.decompress_opts, b.statuses, st),
          "decoy decompress");
    GCB_CUDA(cudaMemcpyAsync(&decoded_bytes, b.actual_bytes, sizeof decoded_bytes,
                             cudaMemcpyDeviceToHost, st));
    GCB_CUDA(cudaMemcpyAsync(&status, b.statuses, sizeof status, cudaMemcpyDeviceToHost, st));
    GCB_CUDA(cudaMemcpyAsync(decoded.data(), s.decoded, width, cudaMemcpyDeviceToHost, st));
    stream.sync();
    check(status, "decoy decompress (chunk status)");
    if (decoded_bytes != width ||
        std::any_of(decoded.begin(), decoded.begin() + width, [](u8 v) { return v != 0; })) {
      throw std::runtime_error("nvCOMP " + info_.name + ": the decoy chunk does not decode to " +
                               "its zero element");
    }
    return made;
  }

  static constexpr std::size_t kMaxCrcConfs = 64;

  BatchedApi<COpts, DOpts> api_;
  CodecInfo info_;
  mutable std::mutex crc_mutex_;
  mutable std::map<std::tuple<u64, u64, int>, nvcompCRC32KernelConf_t> crc_confs_;
  mutable std::mutex decoy_mutex_;
  mutable std::map<std::pair<int, u64>, Decoy> decoys_;  // by device and element width
};

// The integer type nvCOMP reads at the element_width axis (Cascaded's, Bitcomp's data type).
nvcompType_t integer_type(const Params& resolved) {
  switch (element_width_of(resolved)) {
    case 2:
      return NVCOMP_TYPE_USHORT;
    case 4:
      return NVCOMP_TYPE_UINT;
    default:
      return NVCOMP_TYPE_UCHAR;
  }
}

nvcompBatchedCascadedCompressOpts_t cascaded_options(nvcompBatchedCascadedCompressOpts_t defaults,
                                                     const Params& resolved) {
  defaults.common_opts.data_type = integer_type(resolved);
  return defaults;
}

nvcompBatchedBitcompCompressOpts_t bitcomp_options(nvcompBatchedBitcompCompressOpts_t defaults,
                                                   const Params& resolved) {
  defaults.data_type = integer_type(resolved);
  return defaults;
}

template <typename COpts, typename DOpts>
CodecPtr make(BatchedApi<COpts, DOpts> api) {
  return gpu::make_host_codec(std::make_unique<NvcompDeviceCodec<COpts, DOpts>>(api));
}

}  // namespace

// nvCOMP's batched C API names each algorithm's types and functions alike (nvcompBatched<X>...):
// one BatchedApi of them, the rest of its fields at their defaults.
#define GCB_NVCOMP_BATCHED_API(X, name, algorithm)                                        \
  BatchedApi<nvcompBatched##X##CompressOpts_t, nvcompBatched##X##DecompressOpts_t> {      \
    name, algorithm, nvcompBatched##X##CompressDefaultOpts,                               \
        nvcompBatched##X##DecompressDefaultOpts, nvcompBatched##X##CompressGetTempSize,   \
        nvcompBatched##X##CompressGetMaxOutputChunkSize, nvcompBatched##X##CompressAsync, \
        nvcompBatched##X##DecompressGetTempSize, nvcompBatched##X##DecompressAsync        \
  }

std::vector<CodecPtr> make_codecs() {
  // Integer columns compare fairly at their own width (element_width, as FL and RLE read them);
  // by default bytes: the corpus files are byte streams, and any length is then valid.
  AxisSpec width = element_width_axis();
  width.help =
      "bytes per integer element nvCOMP reads (unsigned, 1, 2 or 4; an input that is not whole "
      "elements is compressed as bytes)";

  auto lz4 = GCB_NVCOMP_BATCHED_API(LZ4, "lz4", Algorithm::lz4);
  // LZ4's batched decoder on the pipeline's default chunk (a batch of 512 nvCOMP chunks) ran
  // at a fraction of its rate on large batches, below the PCIe link; on batches four times
  // larger the pipeline keeps the link busy (bench/NOTES.md, "End to end").
  lz4.pipeline_chunk_bytes = std::uint64_t{128} << 20;
  auto cascaded = GCB_NVCOMP_BATCHED_API(Cascaded, "cascaded", Algorithm::cascaded);
  cascaded.compress_opts.common_opts.data_type = NVCOMP_TYPE_UCHAR;
  cascaded.axes = {width};
  cascaded.options_at = cascaded_options;
  cascaded.reproducible = false;
  // Bitcomp's lossless integer mode, at the column's width as Cascaded.
  auto bitcomp = GCB_NVCOMP_BATCHED_API(Bitcomp, "bitcomp", Algorithm::bitcomp);
  bitcomp.axes = {width};
  bitcomp.options_at = bitcomp_options;

  std::vector<CodecPtr> codecs;
  codecs.push_back(make(lz4));
  codecs.push_back(make(GCB_NVCOMP_BATCHED_API(Snappy, "snappy", Algorithm::snappy)));
  codecs.push_back(make(cascaded));
  codecs.push_back(make(GCB_NVCOMP_BATCHED_API(Deflate, "deflate", Algorithm::deflate)));
  codecs.push_back(make(GCB_NVCOMP_BATCHED_API(Zstd, "zstd", Algorithm::zstd)));
  codecs.push_back(make(bitcomp));
  codecs.push_back(make(GCB_NVCOMP_BATCHED_API(Gdeflate, "gdeflate", Algorithm::gdeflate)));
  codecs.push_back(make(GCB_NVCOMP_BATCHED_API(ANS, "ans", Algorithm::ans)));
  return codecs;
}

#undef GCB_NVCOMP_BATCHED_API

}  // namespace gcbench::nvcomp
