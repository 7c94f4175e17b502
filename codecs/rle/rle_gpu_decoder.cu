// The GPU RLE decoders' device half (rle_gpu.hpp; kernels in detail/decode_kernels.cuh): the counts
// scanned (saturating, so hostile counts cannot wrap) into run offsets in two levels and checked on
// the device, then output tiles expanded a block each in shared memory, each tile's first run found
// by one binary search:
//   scan:  its runs' values loaded and their starts marked; an element's run is the last mark;
//   flood: its runs' values scattered to their starts with head flags, then a flood-right scan.
// Both fold each whole tile's CRC-32 into the pass.
#include <algorithm>
#include <cstdint>
#include <cub/device/device_scan.cuh>
#include <stdexcept>
#include <string>

#include "codecs/common/container_device.cuh"
#include "codecs/common/crc32.cuh"
#include "src/cuda/cuda_check.hpp"
#include "codecs/common/device_elements.cuh"
#include "src/cuda/temp_storage.hpp"
#include "codecs/rle/detail/decode_kernels.cuh"
#include "codecs/rle/rle_gpu.hpp"
#include "gcbench/container.hpp"

namespace gcbench::rle::gpu {
namespace {

using namespace detail;

int scan_tiles(u64 runs) {
  const u64 tiles = (runs + 1 + kScanTile - 1) / kScanTile;
  if (tiles > 0x7FFFFFFFull) throw std::runtime_error("RLE: too many runs for one CUDA grid");
  return static_cast<int>(tiles);
}

// CUB's temporary storage for the scan of `tiles` tile sums.
template <typename Off>
std::size_t sums_scan_bytes(int tiles) {
  std::size_t bytes = 0;
  GCB_CUDA(cub::DeviceScan::ExclusiveScan(nullptr, bytes, static_cast<const Off*>(nullptr),
                                          static_cast<Off*>(nullptr), SaturatingAdd<Off>{}, Off{0},
                                          tiles));
  return bytes;
}

template <typename Off>
struct DecodeTemp {
  int tiles;  // of the counts' scan
  cuda::TempCarver::Piece scan, crc;
  Off *local, *sums, *prefix;
  u64* tile_run;

  DecodeTemp(cuda::TempCarver& carve, const PayloadLayout& l, u64 original_size) {
    const u64 n = l.element_count, runs = l.run_count;
    tiles = n > 0 ? scan_tiles(runs) : 0;
    local = carve.take<Off>(runs + 1);
    sums = carve.take<Off>(tiles);
    prefix = carve.take<Off>(tiles);
    scan = carve.take_bytes(n > 0 ? sums_scan_bytes<Off>(tiles) : 0);
    // The smallest tile (width 4) has the most tiles.
    tile_run = carve.take<u64>((n + kExpandTile<u32> - 1) / kExpandTile<u32>);
    crc = carve.take_bytes(cuda::crc32_temp_bytes(original_size));
  }
};

// offsets_kernel for the counts' place within 16 bytes, then the scan of the tiles' sums.
template <typename Off>
RunOffsets<Off> scan_counts(const u8* counts, u64 runs, const DecodeTemp<Off>& t,
                            cudaStream_t stream) {
  auto launch = [&](auto kernel) {
    kernel<<<t.tiles, kBlockThreads, 0, stream>>>(counts, runs, t.local, t.sums);
  };
  switch (reinterpret_cast<std::uintptr_t>(counts) % 16 / 4) {
    case 0:
      launch(offsets_kernel<Off, 0>);
      break;
    case 1:
      launch(offsets_kernel<Off, 1>);
      break;
    case 2:
      launch(offsets_kernel<Off, 2>);
      break;
    default:
      launch(offsets_kernel<Off, 3>);
      break;
  }
  GCB_CUDA_LAUNCHED();
  std::size_t bytes = t.scan.bytes;
  GCB_CUDA(cub::DeviceScan::ExclusiveScan(t.scan.p, bytes, t.sums, t.prefix, SaturatingAdd<Off>{},
                                          Off{0}, t.tiles, stream));
  return {t.local, t.prefix};
}

// Either variant computes the CRC-32s of its whole tiles (kExpandTileBytes<T>) and returns
// them for crc32_async.
template <typename T, typename Off>
cuda::FusedCrcTiles expand(DecodeVariant variant, const DecodeTemp<Off>& t, RunOffsets<Off> offsets,
                           u64 n, u64 runs, const u8* values, T* out, u64 original_size,
                           cudaStream_t stream) {
  const cuda::FusedCrcTiles crc_tiles = cuda::crc32_fused_tiles(
      t.crc.p, t.crc.bytes, original_size, n * sizeof(T), kExpandTileBytes<T>, stream);
  constexpr u32 kTile = kExpandTile<T>;
  const u64 tiles = (n + kTile - 1) / kTile;
  tile_runs_kernel<Off><<<cuda::grid_for(tiles), kBlockThreads, 0, stream>>>(
      offsets, runs, n, kTile, tiles, t.tile_run);
  GCB_CUDA_LAUNCHED();
  auto launch = [&](auto kernel) {
    kernel<<<cuda::resident_grid(kernel, kBlockThreads, tiles), kBlockThreads, 0, stream>>>(
        offsets, t.tile_run, runs, Values<T>{values}, n, out, tiles, crc_tiles);
  };
  if (variant == DecodeVariant::scan) {
    launch(expand_kernel<T, Off>);
  } else {
    launch(flood_kernel<T, Off>);
  }
  GCB_CUDA_LAUNCHED();
  return crc_tiles;
}

template <typename Off>
void decode_with(const DecodePlan& plan, const PayloadLayout& l, DecodeVariant variant,
                 const DecompressBuffers& b, cudaStream_t stream) {
  cuda::TempCarver carve(b.temp, b.temp_bytes);
  const DecodeTemp<Off> t(carve, l, plan.original_size);
  const u8* payload = b.container + kContainerHeaderSize;
  cuda::begin_decode_async(b.container, plan.header, b.status, stream);
  const u64 n = l.element_count, runs = l.run_count;
  cuda::FusedCrcTiles crc_tiles{};
  if (n > 0) {
    const u8* counts = payload + l.counts_offset;
    const u8* values = payload + l.values_offset;
    const RunOffsets<Off> offsets = scan_counts(counts, runs, t, stream);
    cuda::with_element_type(l.element_width, [&](auto tag) {
      using T = decltype(tag);
      crc_tiles = expand<T, Off>(variant, t, offsets, n, runs, values,
                                 reinterpret_cast<T*>(b.output), plan.original_size, stream);
    });
    check_counts_kernel<<<1, 1, 0, stream>>>(offsets, runs, n, b.status);
    GCB_CUDA_LAUNCHED();
  }
  cuda::copy_bytes_async(b.output + n * l.element_width, payload + l.tail_offset, l.tail_size,
                         stream);
  cuda::crc32_async(b.output, plan.original_size, t.crc.p, t.crc.bytes,
                    {nullptr, b.container + 24, b.status}, stream, crc_tiles);
}

}  // namespace

std::size_t decode_temp_bytes(const PayloadLayout& layout, u64 original_size) {
  return with_offset_type(layout.element_count, [&](auto off_tag) {
    cuda::TempCarver carve;
    DecodeTemp<decltype(off_tag)>(carve, layout, original_size);
    return carve.bytes();
  });
}

void decode_async(const DecodePlan& plan, const PayloadLayout& l, DecodeVariant variant,
                  const DecompressBuffers& b, cudaStream_t stream) {
  with_offset_type(l.element_count, [&](auto off_tag) {
    decode_with<decltype(off_tag)>(plan, l, variant, b, stream);
  });
}

std::string describe_error(const char* codec, const DeviceStatus& s) {
  if (s.error != kBadCounts) return describe_common(codec, s);
  return s.detail >= kSaturatedDetail
             ? std::string(
                   "RLE: a run has count 0, or the counts add up to more than the element "
                   "count")
             : "RLE: run counts add up to " + std::to_string(s.detail) + ", not the element count";
}

}  // namespace gcbench::rle::gpu
