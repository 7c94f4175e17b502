// The GPU RLE encoders' device half (rle_gpu.hpp): the fused one-pass encoder's launches (kernels
// in detail/encode_kernels.cuh), or rle-cub's CUB call, then the runs put in place in the payload
// (split first where a run can exceed the count limit), and the container's header and CRC-32
// around it.
//
// The one pass fuses scan-based RLE's four steps (start mask, scan, compaction, scatter): each tile
// flags run starts and scans them across the block and, through CUB's decoupled look-back, across
// tiles, so a start at i that is run r knows value[r] = in[i] and counts[r - 1] = i - (previous
// start). The input is read once, the runs written once, coalesced through shared memory.
#include <array>
#include <bit>
#include <cstring>
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_scan.cuh>
#include <optional>
#include <string>
#include <vector>

#include "codecs/common/container_device.cuh"
#include "codecs/common/crc32.cuh"
#include "src/cuda/cuda_check.hpp"
#include "codecs/common/device_elements.cuh"
#include "src/cuda/temp_storage.hpp"
#include "codecs/common/tile_state.cuh"
#include "codecs/rle/detail/encode_kernels.cuh"
#include "codecs/rle/format.hpp"
#include "codecs/rle/rle_gpu.hpp"
#include "codecs/rle/rle_payload.hpp"
#include "gcbench/container.hpp"

namespace gcbench::rle::gpu {
namespace {

static_assert(std::endian::native == std::endian::little,
              "counts and values are copied to and from the device as they are");

using namespace detail;

std::size_t scan_temp(u64 items) {
  std::size_t bytes = 0;
  GCB_CUDA(cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<const u64*>(nullptr),
                                         static_cast<u64*>(nullptr), items));
  return bytes;
}

std::size_t sort_temp(u32 capacity) {
  std::size_t bytes = 0;
  GCB_CUDA(cub::DeviceMergeSort::SortKeys(nullptr, bytes, static_cast<LongRun*>(nullptr),
                                          static_cast<std::int64_t>(capacity), ByRun{}));
  return bytes;
}

struct CompressTemp {
  int tiles;
  bool wide;             // n >= 2^32: 64-bit run numbers in the look-back state
  bool splitless;        // no run can exceed max_count: the payload's runs go in place, unsplit
  bool counts_in_place;  // splitless, and the fused encoder writes the counts to the payload
  cuda::TempCarver::Piece tile_state, cub, sort, scan, crc;
  u32* counts;
  u8* values;
  u64* run_count;
  LongRun* long_runs;
  u32* long_count;
  u32 capacity;
  u64 *extra, *shift, *payload_size;
  u32* crc_value;

  CompressTemp(cuda::TempCarver& carve, u64 input_size, u32 width, EncoderKind kind,
               u64 max_count) {
    const u64 n = input_size / width;
    tiles = static_cast<int>(cuda::grid_for((n + enc_items(width) - 1) / enc_items(width)));
    wide = n >> 32 != 0;
    splitless = max_count >= n;
    counts_in_place = splitless && kind == EncoderKind::fused;
    tile_state = carve.take_bytes(kind != EncoderKind::fused ? 0
                                  : wide ? cuda::tile_state_bytes<WidePrefix::Item>(tiles)
                                         : cuda::tile_state_bytes<PackedPrefix::Item>(tiles));
    cub = carve.take_bytes(kind == EncoderKind::cub && n > 0 ? cub_encode_temp_bytes(n, width) : 0);
    counts = carve.take<u32>(counts_in_place ? 0 : n);
    values = carve.take<u8>(n * width);
    run_count = carve.take<u64>(1);
    capacity = static_cast<u32>(n / (max_count + 1) + 1);  // runs over max_count at most
    long_runs = carve.take<LongRun>(capacity);
    long_count = carve.take<u32>(1);
    sort = carve.take_bytes(sort_temp(capacity));
    extra = carve.take<u64>(capacity + 1);
    shift = carve.take<u64>(capacity + 1);
    scan = carve.take_bytes(scan_temp(capacity + 1));
    crc = carve.take_bytes(cuda::crc32_temp_bytes(input_size));
    payload_size = carve.take<u64>(1);
    crc_value = carve.take<u32>(1);
  }
};

// Also the raw CRC-32s of crc's tiles (kEncTile<T> elements each).
void encode(const u8* in, u64 n, u32 w, u64 max_count, const CompressTemp& t, CountsOut counts,
            cuda::FusedCrcTiles crc, cudaStream_t stream) {
  auto run = [&](auto prefix_tag, auto elem_tag) {
    using P = decltype(prefix_tag);
    using T = decltype(elem_tag);
    using Item = typename P::Item;
    const auto tiles =
        cuda::init_tile_state_async<Item>(t.tiles, t.tile_state.p, t.tile_state.bytes, stream);
    encode_kernel<T, P><<<static_cast<unsigned>(t.tiles), kBlockThreads, 0, stream>>>(
        reinterpret_cast<const T*>(in), n, max_count, tiles, counts, reinterpret_cast<T*>(t.values),
        t.run_count, t.long_runs, t.long_count, t.capacity, crc);
    GCB_CUDA_LAUNCHED();
  };
  cuda::with_element_type(w, [&](auto elem_tag) {
    if (t.wide) {
      run(WidePrefix{}, elem_tag);
    } else {
      run(PackedPrefix{}, elem_tag);
    }
  });
}

// Runs with no split: counts (unless the encoder wrote them in place) and values to the payload.
void place_runs(const CompressTemp& t, const PayloadLayout& l, u32 w, const u32* counts,
                u8* payload, cudaStream_t stream) {
  place_runs_kernel<<<cuda::persistent_grid(), kBlockThreads, 0, stream>>>(
      counts, t.values, w, t.run_count, payload, l.counts_offset, t.payload_size);
  GCB_CUDA_LAUNCHED();
}

// Runs that may have been split (long_runs): each run to its offset after the pieces before it.
void assemble(const CompressTemp& t, const PayloadLayout& l, u32 w, u64 max_count, u8* payload,
              cudaStream_t stream) {
  std::size_t bytes = t.sort.bytes;
  GCB_CUDA(cub::DeviceMergeSort::SortKeys(t.sort.p, bytes, t.long_runs,
                                          static_cast<std::int64_t>(t.capacity), ByRun{}, stream));
  extra_pieces_kernel<<<cuda::grid_for(t.capacity + 1), kBlockThreads, 0, stream>>>(
      t.long_runs, t.long_count, t.capacity, max_count, t.extra);
  GCB_CUDA_LAUNCHED();
  bytes = t.scan.bytes;
  GCB_CUDA(
      cub::DeviceScan::ExclusiveSum(t.scan.p, bytes, t.extra, t.shift, t.capacity + 1, stream));
  cuda::with_element_type(w, [&](auto tag) {
    using T = decltype(tag);
    assemble_kernel<T><<<cuda::persistent_grid(), kBlockThreads, 0, stream>>>(
        t.counts, reinterpret_cast<const T*>(t.values), t.run_count, t.long_runs, t.shift,
        t.capacity, max_count, payload, l.counts_offset, t.payload_size);
    GCB_CUDA_LAUNCHED();
  });
}

}  // namespace

std::size_t encode_temp_bytes(u64 input_size, u32 width, EncoderKind kind, u64 max_count) {
  cuda::TempCarver carve;
  CompressTemp(carve, input_size, width, kind, max_count);
  return carve.bytes();
}

void encode_async(const CompressBuffers& b, u32 w, EncoderKind kind, u64 max_count,
                  cudaStream_t stream) {
  const u64 n = b.input_size / w;
  cuda::TempCarver carve(b.temp, b.temp_bytes);
  const CompressTemp t(carve, b.input_size, w, kind, max_count);
  const PayloadLayout l = make_layout(b.input_size, w, 0);
  u8* payload = b.output + kContainerHeaderSize;
  std::array<u8, 64> fixed{};
  write_header(fixed.data(), l, {});  // the tail comes from the device input
  cuda::write_prefix_async(payload, ByteSpan(fixed.data(), l.tail_offset), b.input + n * w,
                           l.tail_size, stream);
  cuda::FusedCrcTiles crc_tiles{};
  if (n == 0) {
    cuda::write_prefix_async(payload + l.counts_offset - 8, ByteSpan(fixed.data() + 56, 8), nullptr,
                             0, stream);  // run_count 0
    cuda::set_u64_async(t.payload_size, l.size, stream);
  } else {
    if (!t.splitless) {  // the list of runs to split
      GCB_CUDA(cudaMemsetAsync(t.long_runs, 0xFF, t.capacity * sizeof(LongRun), stream));
      GCB_CUDA(cudaMemsetAsync(t.long_count, 0, sizeof(u32), stream));
    }
    if (kind == EncoderKind::fused) {
      crc_tiles = cuda::crc32_fused_tiles(t.crc.p, t.crc.bytes, b.input_size, n * w,
                                          u64{kBlockThreads} * enc_items(w) * w, stream);
      encode(b.input, n, w, max_count, t,
             CountsOut{t.counts, t.counts_in_place ? payload + l.counts_offset : nullptr},
             crc_tiles, stream);
    } else {
      cub_encode(b.input, n, w, t.cub.p, t.cub.bytes, t.counts, t.values, t.run_count,
                 {t.long_runs, t.long_count, t.capacity, max_count}, stream);
    }
    if (t.splitless) {
      place_runs(t, l, w, t.counts_in_place ? nullptr : t.counts, payload, stream);
    } else {
      assemble(t, l, w, max_count, payload, stream);
    }
  }
  cuda::crc32_async(b.input, b.input_size, t.crc.p, t.crc.bytes, {t.crc_value}, stream, crc_tiles);
  cuda::write_container_header_async(b.output, kContainerFormat, b.input_size, t.payload_size,
                                     t.crc_value, b.output_size, stream);
}

void cub_primitive_async(const CompressBuffers& b, u32 w, u64 max_count, cudaStream_t stream) {
  const u64 n = b.input_size / w;
  if (n == 0) return;
  cuda::TempCarver carve(b.temp, b.temp_bytes);
  const CompressTemp t(carve, b.input_size, w, EncoderKind::cub, max_count);
  std::size_t cub_bytes = t.cub.bytes;  // CUB takes the size by reference
  with_element_type(w, [&](auto tag) {
    using T = decltype(tag);
    GCB_CUDA(cub::DeviceRunLengthEncode::Encode(
        t.cub.p, cub_bytes, reinterpret_cast<const T*>(b.input), reinterpret_cast<T*>(t.values),
        t.counts, t.run_count, static_cast<int>(n), stream));
  });
}

std::optional<std::string> check_cub_primitive(const CompressBuffers& b, u32 w, u64 max_count,
                                               ByteSpan input, cudaStream_t stream) {
  const u64 n = b.input_size / w;
  if (n == 0) return std::nullopt;
  cuda::TempCarver carve(b.temp, b.temp_bytes);
  const CompressTemp t(carve, b.input_size, w, EncoderKind::cub, max_count);
  u64 runs = 0;
  GCB_CUDA(cudaMemcpyAsync(&runs, t.run_count, sizeof runs, cudaMemcpyDeviceToHost, stream));
  GCB_CUDA(cudaStreamSynchronize(stream));
  if (runs == 0 || runs > n)
    return "run count " + std::to_string(runs) + " of " + std::to_string(n);
  // The runs come back in batches, so that the host holds a batch rather than a copy of the
  // whole output (2 GiB for 1 GiB of runs of length 1).
  constexpr u64 kBatchRuns = u64{1} << 23;
  std::vector<u32> counts(std::min(runs, kBatchRuns));
  std::vector<u8> values(counts.size() * w);
  u64 at = 0;
  for (u64 first = 0; first < runs; first += kBatchRuns) {
    const u64 batch = std::min(kBatchRuns, runs - first);
    GCB_CUDA(cudaMemcpyAsync(counts.data(), t.counts + first, batch * sizeof(u32),
                             cudaMemcpyDeviceToHost, stream));
    GCB_CUDA(cudaMemcpyAsync(values.data(), t.values + first * w, batch * w, cudaMemcpyDeviceToHost,
                             stream));
    GCB_CUDA(cudaStreamSynchronize(stream));
    // Each run: its value, then as many equal elements as it counts, the next element different.
    for (u64 b = 0; b < batch; ++b) {
      const u64 r = first + b;
      const u8* value = values.data() + b * w;
      if (counts[b] == 0 || at + counts[b] > n) return "run " + std::to_string(r) + " overruns";
      for (u64 i = at; i < at + counts[b]; ++i) {
        if (std::memcmp(input.data() + i * w, value, w) != 0)
          return "run " + std::to_string(r) + " differs from the input at element " +
                 std::to_string(i);
      }
      at += counts[b];
      if (at < n && std::memcmp(input.data() + at * w, value, w) == 0)
        return "run " + std::to_string(r) + " ends before its value does";
    }
  }
  if (at != n)
    return "the runs cover " + std::to_string(at) + " of " + std::to_string(n) + " elements";
  return std::nullopt;
}

}  // namespace gcbench::rle::gpu
