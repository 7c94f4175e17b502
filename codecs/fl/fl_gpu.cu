// FL on the GPU (SPEC 1.1, seed fl-rle-plan), byte-identical to fl_cpu.cpp.
//
// Compression, three passes over device memory:
//   1. frame_or: one read of the input; each block ORs its elements per frame (the widest value
//      of a frame is the bit width of the OR of its values), first within warps, then in
//      shared memory, then one global atomicOr per frame touched by the block.
//   2. frame_bits + CUB ExclusiveSum: bits[f] and the bit offset of every frame (tiny).
//   3. pack: one thread per output word gathers the 1..33 elements whose bits land in it, so
//      every word is written once, whole, without atomics (the seed's per-element atomicOr
//      would touch each word from several threads). The frame of each tile of words is found
//      beforehand by one binary search per tile, all tiles at once (a search per tile inside
//      the packing loop made it latency-bound: 28% of copy bandwidth, bench/NOTES.md).
// Decompression: bit offsets as above from bits[], then one thread per 16 output bytes
// (4, 8 or 16 consecutive elements) extracts its values.
#include <algorithm>
#include <bit>
#include <cub/device/device_scan.cuh>
#include <stdexcept>

#include "codecs/common/cuda_check.hpp"
#include "codecs/common/device_buffer.hpp"
#include "codecs/common/device_elements.cuh"
#include "codecs/common/elements.hpp"
#include "codecs/fl/fl.hpp"
#include "codecs/fl/fl_gpu.hpp"
#include "codecs/fl/fl_payload.hpp"
#include "gcbench/container.hpp"

namespace gcbench::fl::gpu {
namespace {

static_assert(std::endian::native == std::endian::little,
              "payload words are copied to and from the device as they are");

using u8 = std::uint8_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;
using cuda::kBlockThreads;

constexpr int kOrItems = 16;  // elements per thread in the OR pass
constexpr u64 kOrTile = u64{kBlockThreads} * kOrItems;

__device__ __forceinline__ u64 frame_len(u64 f, u64 n, u32 fs) {
  u64 start = f * fs;
  return n - start < fs ? n - start : fs;
}

// The frame holding bit `bit`; frame offsets strictly increase because every frame has at
// least one element of at least one bit.
__device__ __forceinline__ u64 frame_of_bit(const u64* offsets, u64 lo, u64 hi, u64 bit) {
  return cuda::last_at_or_below(offsets, lo, hi, bit);
}

template <typename T>
__global__ void __launch_bounds__(kBlockThreads)
    frame_or_kernel(const T* __restrict__ in, u64 n, u32 fs, u32* __restrict__ frame_or) {
  __shared__ u32 s_or[kOrTile];  // one slot per frame the tile touches (at most kOrTile)
  const u64 tile0 = u64{blockIdx.x} * kOrTile;
  const u64 tile_end = min(tile0 + kOrTile, n);
  const u64 first = cuda::div_u64(tile0, fs);
  const u64 span = cuda::div_u64(tile_end - 1, fs) - first + 1;
  for (u64 k = threadIdx.x; k < span; k += kBlockThreads) s_or[k] = 0;
  __syncthreads();

  const u64 i0 = tile0 + u64{threadIdx.x} * kOrItems;
  T v[kOrItems];
  cuda::load_items(in, n, i0, v);
  u32 acc = 0;
  u64 f = first;
  if (i0 < n) {
    f = cuda::div_u64(i0, fs);
    u32 r = static_cast<u32>(i0 - f * fs);
#pragma unroll
    for (int k = 0; k < kOrItems; ++k) {
      acc |= v[k];  // zero past n
      if (++r == fs) {
        if (acc != 0) atomicOr(&s_or[f - first], acc);
        acc = 0;
        ++f;
        r = 0;
      }
    }
  }
  // Usually the whole warp is inside one frame: one shared atomic instead of 32.
  const u64 f_lane0 = __shfl_sync(0xFFFFFFFFu, f, 0);
  if (__all_sync(0xFFFFFFFFu, f == f_lane0 || acc == 0)) {
    u32 w = __reduce_or_sync(0xFFFFFFFFu, acc);
    if ((threadIdx.x & 31) == 0 && w != 0) atomicOr(&s_or[f_lane0 - first], w);
  } else if (acc != 0) {
    atomicOr(&s_or[f - first], acc);
  }
  __syncthreads();
  for (u64 k = threadIdx.x; k < span; k += kBlockThreads) {
    if (s_or[k] != 0) atomicOr(&frame_or[first + k], s_or[k]);
  }
}

// bits[f] from the frame's OR (0 needs 1 bit), and sizes[f] = bits[f] * frame length;
// sizes[frames] = 0 so that the exclusive scan's last entry is the total.
__global__ void frame_bits_kernel(const u32* __restrict__ frame_or, u64 frames, u64 n, u32 fs,
                                  u8* __restrict__ bits, u64* __restrict__ sizes) {
  u64 f = u64{blockIdx.x} * kBlockThreads + threadIdx.x;
  if (f > frames) return;
  if (f == frames) {
    sizes[f] = 0;
    return;
  }
  u32 b = max(1, 32 - __clz(frame_or[f]));
  bits[f] = static_cast<u8>(b);
  sizes[f] = b * frame_len(f, n, fs);
}

// sizes[] from bits[] already validated to 1..8*width on the host.
__global__ void frame_sizes_kernel(const u8* __restrict__ bits, u64 frames, u64 n, u32 fs,
                                   u64* __restrict__ sizes) {
  u64 f = u64{blockIdx.x} * kBlockThreads + threadIdx.x;
  if (f > frames) return;
  sizes[f] = f == frames ? 0 : bits[f] * frame_len(f, n, fs);
}

// Word k holds bits [32k, 32k + 32) of the stream; kPackTile words make a tile. The word count
// is only known on the device (offsets[frames]), so threads past it return at once.
constexpr u64 kPackTile = kBlockThreads;

// tile_frame[t] = the frame holding tile t's first bit. One thread per tile: the binary
// searches all run side by side instead of on the packing kernel's critical path.
__global__ void tile_frames_kernel(const u64* __restrict__ offsets, u64 frames, u64 max_tiles,
                                   u64* __restrict__ tile_frame) {
  const u64 t = u64{blockIdx.x} * kBlockThreads + threadIdx.x;
  const u64 word_count = (offsets[frames] + 31) / 32;
  if (t >= max_tiles || t * kPackTile >= word_count) return;
  tile_frame[t] = frame_of_bit(offsets, 0, frames - 1, t * kPackTile * 32);
}

// Grid-stride over word tiles, one word per thread; each word gathers the elements whose bits
// land in it, so every word is written once, whole, without atomics.
template <typename T>
__global__ void __launch_bounds__(kBlockThreads)
    pack_kernel(const T* __restrict__ in, u64 n, u32 fs, u64 frames, const u8* __restrict__ bits,
                const u64* __restrict__ offsets, const u64* __restrict__ tile_frame,
                u32* __restrict__ words) {
  const u64 total = offsets[frames];
  const u64 word_count = (total + 31) / 32;
  for (u64 t = blockIdx.x; t * kPackTile < word_count; t += gridDim.x) {
    const u64 k = t * kPackTile + threadIdx.x;
    if (k >= word_count) break;
    // The frames of this tile's first bit and of the next tile's bound the search.
    const u64 lo = tile_frame[t];
    const u64 hi = (t + 1) * kPackTile < word_count ? tile_frame[t + 1] : frames - 1;
    const u64 pos0 = k * 32;
    const u64 end = min(pos0 + 32, total);
    u64 f = frame_of_bit(offsets, lo, hi, pos0);
    u64 start = offsets[f];
    u32 b = bits[f];
    u64 len = frame_len(f, n, fs);
    // Bits within a frame stay below 2^24 * 32, so 32-bit division is exact.
    u32 j = static_cast<u32>(pos0 - start) / b;
    u64 p = start + u64{j} * b;
    u64 acc = 0;  // the word sits in the high half; bits past it fall off the top
    while (p < end) {
      u64 v = in[f * fs + j];
      acc |= v << (p - pos0 + 32);  // shift in [33 - b, 63]
      p += b;
      if (++j == len) {
        if (++f == frames) break;
        b = bits[f];
        len = frame_len(f, n, fs);
        j = 0;
      }
    }
    words[k] = static_cast<u32>(acc >> 32);
  }
}

// One thread per 16 output bytes. bits[] and word_count were validated on the host; the
// word reads are bounded anyway.
template <typename T>
__global__ void __launch_bounds__(kBlockThreads)
    unpack_kernel(const u8* __restrict__ bits, const u64* __restrict__ offsets, u64 frames,
                  const u32* __restrict__ words, u64 word_count, u64 n, u32 fs,
                  T* __restrict__ out) {
  constexpr int kItems = cuda::kPerVector<T>;
  const u64 i0 = (u64{blockIdx.x} * kBlockThreads + threadIdx.x) * kItems;
  if (i0 >= n) return;
  u64 f = cuda::div_u64(i0, fs);
  u32 j = static_cast<u32>(i0 - f * fs);
  u64 start = offsets[f];
  u32 b = bits[f];
  u64 len = frame_len(f, n, fs);
  T v[kItems];
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    v[k] = 0;
    if (i0 + k < n && f < frames) {
      u64 p = start + u64{j} * b;
      u64 w = p / 32;
      u32 off = static_cast<u32>(p % 32);
      u64 lo = w < word_count ? words[w] : 0;
      u64 hi = off + b > 32 && w + 1 < word_count ? words[w + 1] : 0;
      v[k] = static_cast<T>(((hi << 32 | lo) >> off) & ((u64{1} << b) - 1));
      if (++j == len && ++f < frames) {
        start = offsets[f];
        b = bits[f];
        len = frame_len(f, n, fs);
        j = 0;
      }
    }
  }
  if (i0 + kItems <= n) {
    cuda::store_vector(out + i0, v);
  } else {
    for (int k = 0; i0 + k < n; ++k) out[i0 + k] = v[k];
  }
}

u64 frames_of(u64 n, u32 fs) {
  return n / fs + (n % fs != 0 ? 1 : 0);
}

// CUB temporary storage for the exclusive scan of frames + 1 sizes.
cuda::DeviceBuffer<u8> scan_storage(u64 frames) {
  std::size_t bytes = 0;
  GCB_CUDA(cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<const u64*>(nullptr),
                                         static_cast<u64*>(nullptr), frames + 1));
  return cuda::DeviceBuffer<u8>(bytes);
}

}  // namespace

Encoder::Encoder(u64 element_count, u32 width, u32 frame_size)
    : n_(element_count),
      width_(width),
      frame_size_(frame_size),
      frames_(frames_of(element_count, frame_size)),
      frame_or_(frames_),
      bits_(frames_),
      sizes_(frames_ + 1),
      offsets_(frames_ + 1),
      // at most 8 * width bits per element
      words_((element_count * 8 * width + 31) / 32),
      tile_frame_((words_.size() + kPackTile - 1) / kPackTile),
      temp_(scan_storage(frames_)),
      pack_grid_(cuda::persistent_grid()) {
  if (n_ == 0) throw std::invalid_argument("fl::gpu::Encoder needs at least one element");
}

void Encoder::encode(const u8* d_in, cudaStream_t stream) {
  GCB_CUDA(cudaMemsetAsync(frame_or_.data(), 0, frame_or_.bytes(), stream));
  cuda::with_element_type(width_, [&](auto tag) {
    using T = decltype(tag);
    const T* in = reinterpret_cast<const T*>(d_in);
    frame_or_kernel<T>
        <<<cuda::grid_for((n_ + kOrItems - 1) / kOrItems), kBlockThreads, 0, stream>>>(
            in, n_, frame_size_, frame_or_.data());
    GCB_CUDA_LAUNCHED();
    frame_bits_kernel<<<cuda::grid_for(frames_ + 1), kBlockThreads, 0, stream>>>(
        frame_or_.data(), frames_, n_, frame_size_, bits_.data(), sizes_.data());
    GCB_CUDA_LAUNCHED();
    std::size_t bytes = temp_.bytes();
    GCB_CUDA(cub::DeviceScan::ExclusiveSum(temp_.data(), bytes, sizes_.data(), offsets_.data(),
                                           frames_ + 1, stream));
    tile_frames_kernel<<<cuda::grid_for(tile_frame_.size()), kBlockThreads, 0, stream>>>(
        offsets_.data(), frames_, tile_frame_.size(), tile_frame_.data());
    GCB_CUDA_LAUNCHED();
    pack_kernel<T><<<pack_grid_, kBlockThreads, 0, stream>>>(in, n_, frame_size_, frames_,
                                                             bits_.data(), offsets_.data(),
                                                             tile_frame_.data(), words_.data());
    GCB_CUDA_LAUNCHED();
  });
}

Decoder::Decoder(u64 element_count, u32 width, u32 frame_size, u64 word_count)
    : n_(element_count),
      width_(width),
      frame_size_(frame_size),
      frames_(frames_of(element_count, frame_size)),
      word_count_(word_count),
      bits_(frames_),
      words_(word_count),
      sizes_(frames_ + 1),
      offsets_(frames_ + 1),
      temp_(scan_storage(frames_)) {
  if (n_ == 0) throw std::invalid_argument("fl::gpu::Decoder needs at least one element");
}

void Decoder::decode(u8* d_out, cudaStream_t stream) {
  frame_sizes_kernel<<<cuda::grid_for(frames_ + 1), kBlockThreads, 0, stream>>>(
      bits_.data(), frames_, n_, frame_size_, sizes_.data());
  GCB_CUDA_LAUNCHED();
  std::size_t bytes = temp_.bytes();
  GCB_CUDA(cub::DeviceScan::ExclusiveSum(temp_.data(), bytes, sizes_.data(), offsets_.data(),
                                         frames_ + 1, stream));
  cuda::with_element_type(width_, [&](auto tag) {
    using T = decltype(tag);
    constexpr int kItems = cuda::kPerVector<T>;
    unpack_kernel<T><<<cuda::grid_for((n_ + kItems - 1) / kItems), kBlockThreads, 0, stream>>>(
        bits_.data(), offsets_.data(), frames_, words_.data(), word_count_, n_, frame_size_,
        reinterpret_cast<T*>(d_out));
    GCB_CUDA_LAUNCHED();
  });
}

namespace {

class FlGpuCodec final : public Codec {
 public:
  FlGpuCodec()
      // Built whole: assigning short literals member by member trips a GCC 12 -Wrestrict
      // false positive, an error under nvcc's --Werror=all-warnings.
      : info_{"fl",
              "1",
              Device::gpu,
              "fixed-length bit-packing per frame (CUDA; CUB scan, one thread per word)",
              {element_width_axis(), frame_size_axis()}} {}

  const CodecInfo& info() const override { return info_; }

  u64 max_compressed_size(u64 input_size, const Params& params) const override {
    Params p = resolve_params(info_.axes, params);
    return max_container_size(input_size, static_cast<u32>(p.at("element_width")),
                              static_cast<u32>(p.at("frame_size")));
  }

  Bytes compress(ByteSpan input, const Params& params, RunStats* stats) const override {
    cuda::require_device();
    Params p = resolve_params(info_.axes, params);
    auto width = static_cast<u32>(p.at("element_width"));
    auto frame_size = static_cast<u32>(p.at("frame_size"));
    const u64 n = input.size() / width;
    ByteSpan tail = input.subspan(n * width);
    Bytes payload;
    cuda::Stream stream;
    cuda::PhaseTimer timer(stream.get());
    if (n == 0) {
      PayloadLayout l = make_layout(input.size(), width, frame_size, 0);
      payload.resize(l.size);
      write_header(payload.data(), l, tail);
    } else {
      cuda::DeviceBuffer<u8> d_in(n * width);
      Encoder enc(n, width, frame_size);
      timer.begin();
      GCB_CUDA(cudaMemcpyAsync(d_in.data(), input.data(), n * width, cudaMemcpyHostToDevice,
                               stream.get()));
      timer.end_transfer();
      enc.encode(d_in.data(), stream.get());
      timer.end_kernel();
      u64 total = 0;
      GCB_CUDA(cudaMemcpyAsync(&total, enc.total_bits(), sizeof total, cudaMemcpyDeviceToHost,
                               stream.get()));
      timer.end_transfer();
      PayloadLayout l = make_layout(input.size(), width, frame_size, total);
      payload.resize(l.size);
      write_header(payload.data(), l, tail);
      timer.begin();  // the host allocation above is not transfer time
      GCB_CUDA(cudaMemcpyAsync(payload.data() + l.bits_offset, enc.bits(), l.frame_count,
                               cudaMemcpyDeviceToHost, stream.get()));
      GCB_CUDA(cudaMemcpyAsync(payload.data() + l.words_offset, enc.words(), 4 * l.word_count,
                               cudaMemcpyDeviceToHost, stream.get()));
      timer.end_transfer();
    }
    if (stats) *stats = RunStats{timer.kernel_s(), timer.transfer_s()};
    return wrap_container(FormatId::fl, input, payload);
  }

  Bytes decompress(ByteSpan container, const Params& params, RunStats* stats) const override {
    cuda::require_device();
    resolve_params(info_.axes, params);
    OpenedContainer c = open_container(container, FormatId::fl);
    ParsedPayload p = parse_payload(c.payload, c.header.original_size);
    const PayloadLayout& l = p.layout;
    Bytes out(c.header.original_size);
    cuda::Stream stream;
    cuda::PhaseTimer timer(stream.get());
    if (l.element_count > 0) {
      Decoder dec(l.element_count, l.element_width, l.frame_size, l.word_count);
      cuda::DeviceBuffer<u8> d_out(l.element_count * l.element_width);
      timer.begin();
      GCB_CUDA(cudaMemcpyAsync(dec.bits(), p.bits.data(), p.bits.size(), cudaMemcpyHostToDevice,
                               stream.get()));
      GCB_CUDA(cudaMemcpyAsync(dec.words(), p.words.data(), p.words.size(), cudaMemcpyHostToDevice,
                               stream.get()));
      timer.end_transfer();
      dec.decode(d_out.data(), stream.get());
      timer.end_kernel();
      GCB_CUDA(cudaMemcpyAsync(out.data(), d_out.data(), d_out.bytes(), cudaMemcpyDeviceToHost,
                               stream.get()));
      timer.end_transfer();
    }
    std::copy(p.tail.begin(), p.tail.end(), out.end() - static_cast<std::ptrdiff_t>(p.tail.size()));
    verify_original(c.header, out);
    if (stats) *stats = RunStats{timer.kernel_s(), timer.transfer_s()};
    return out;
  }

 private:
  CodecInfo info_;
};

}  // namespace
}  // namespace gcbench::fl::gpu

namespace gcbench::fl {
CodecPtr make_gpu_codec() {
  return std::make_unique<gpu::FlGpuCodec>();
}
}  // namespace gcbench::fl
