// GPU CRC-32 of device memory: 64 KiB tiles (crc32_tile.cuh; 16 KiB for small data) on a
// grid-stride loop, then one block combines the tiles' raw CRCs by their linearity (after a block
// each per chunk of kChunkTiles where there are more). The aligned body counts as if zeros were
// prepended up to whole tiles (leading zeros leave a raw CRC unchanged); the unaligned head and
// tail are folded in last, tiles a kernel already computed (fused) first.
#include <algorithm>
#include <array>

#include "codecs/common/crc32.cuh"
#include "codecs/common/crc32_tile.cuh"
#include "src/cuda/cuda_check.hpp"
#include "codecs/common/device_elements.cuh"
#include "src/cuda/temp_storage.hpp"

namespace gcbench::cuda {
namespace {

using u8 = std::uint8_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

constexpr u64 kRowBytes = u64{kCrcThreads} * kCrcVector;
constexpr u32 kRows = 16;
constexpr u64 kTile = kRows * kRowBytes;
// Data of at most kSmallTilesUpTo bytes is cut in tiles a quarter as long: each block's chain of
// MMAs a quarter as long, four times the blocks. A small call's 64 KiB tiles are fewer than the
// SMs and each a long chain (bench/NOTES.md, "End to end").
constexpr u32 kSmallRows = 4;
constexpr u64 kSmallTile = kSmallRows * kRowBytes;
constexpr u64 kSmallTilesUpTo = u64{16} << 20;
constexpr u64 kMinFusedTile = kRowBytes;
// The fused tiles' array has a slot per kMinFusedTile of data, so small tiles fit after them.
static_assert(kSmallTile >= kMinFusedTile);
constexpr u32 kFinalThreads = 1024;

template <u32 Rows>
__global__ void __launch_bounds__(kCrcThreads)
    tile_kernel(const uint4* __restrict__ body, u64 pad, u64 tiles, u32* __restrict__ out) {
  for (u64 tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    // Virtual byte v (v >= pad) is body byte v - pad; both are multiples of 16 here.
    const u64 v0 = tile * Rows * kRowBytes + u64{threadIdx.x} * kCrcVector;
    uint4 vec[Rows];
#pragma unroll
    for (u32 r = 0; r < Rows; ++r) {
      const u64 v = v0 + r * kRowBytes;
      vec[r] = v >= pad ? __ldg(body + (v - pad) / kCrcVector) : make_uint4(0, 0, 0, 0);
    }
    RowsCrc<Rows> crc;
#pragma unroll
    for (u32 r = 0; r < Rows; ++r) crc.add_row(r, vec[r]);
    crc.reduce_into(out + tile);
  }
}

// Multiplication by a constant m, given as m * x^(31 - i) for each bit i of the other factor
// (computed on the host, where the sizes are known): one shift per entry, no bit-serial
// multiplication on the device.
struct Basis {
  u32 v[32];
};

// x^(8 * 2^k) mod P for k < 64: x^(8n) is the product of those of n's set bits.
constexpr std::array<u32, 64> make_powers() {
  std::array<u32, 64> p{};
  p[0] = crc::x8nmodp(1);
  for (u32 k = 1; k < 64; ++k) p[k] = crc::multmodp(p[k - 1], p[k - 1]);
  return p;
}
constexpr std::array<u32, 64> kPowers = make_powers();

u32 x8n(u64 bytes) {
  u32 p = 1u << 31;  // x^0
  for (u32 k = 0; bytes != 0; ++k, bytes >>= 1) {
    if (bytes & 1) p = crc::multmodp(kPowers[k], p);
  }
  return p;
}

Basis basis_of(u32 m) {
  Basis b{};
  b.v[31] = m;  // bit 31 is x^0
  for (int i = 30; i >= 0; --i) {
    const u32 v = b.v[i + 1];
    b.v[i] = v & 1 ? (v >> 1) ^ crc::kPoly : v >> 1;  // times x
  }
  return b;
}

__device__ u32 mul_basis(const Basis& b, u32 c) {
  u32 r = 0;
  for (u32 i = 0; i < 32; ++i) r ^= (c >> i) & 1 ? b.v[i] : 0u;
  return r;
}

// How a run of equal tiles combines: three stages of Horner's rule (each thread over `per`
// tiles, 32 threads over 32 threads' results, thread 0 over those), each with its multiplier.
struct Combine {
  u64 count = 0;
  u64 per = 0;
  Basis stage[3];
};

Combine combine_of(u64 count, u64 tile_bytes) {
  Combine c{};
  c.count = count;
  c.per = (count + kFinalThreads - 1) / kFinalThreads;
  const u64 strides[3] = {tile_bytes, c.per * tile_bytes, 32 * c.per * tile_bytes};
  if (count > 0) {
    for (int k = 0; k < 3; ++k) c.stage[k] = basis_of(x8n(strides[k]));
  }
  return c;
}

struct FinalShared {
  crc::MulTable shift;
  u32 value[kFinalThreads];
};

// s.shift = multiplication by the basis' constant, one entry per thread.
__device__ void build_shift(FinalShared& s, const Basis& m) {
  static_assert(kFinalThreads == 4 * 256);
  const u32 k = threadIdx.x / 256, b = threadIdx.x % 256;
  u32 entry = 0;
  for (u32 j = 0; j < 8; ++j) entry ^= (b >> j) & 1 ? m.v[8 * k + j] : 0u;
  __syncthreads();  // nobody reads the previous table any more
  s.shift.t[k][b] = entry;
  __syncthreads();
}

// The raw CRC of c.count consecutive tiles, tile(i) the raw CRC of tile i (padded in front to a
// multiple of the threads), in thread 0. Every thread of the block calls it.
template <typename Tile>
__device__ u32 combine_tiles(Tile tile, const Combine& c, FinalShared& s) {
  if (c.count == 0) return 0;
  const u64 vpad = c.per * kFinalThreads - c.count;
  build_shift(s, c.stage[0]);
  u32 v = 0;
  for (u64 u = threadIdx.x * c.per; u < (threadIdx.x + 1) * c.per; ++u) {
    if (u >= vpad) v = crc::mul(s.shift.t, v) ^ tile(u - vpad);
  }
  s.value[threadIdx.x] = v;
  build_shift(s, c.stage[1]);
  if (threadIdx.x < 32) {
    v = 0;
    for (u32 j = 0; j < 32; ++j) v = crc::mul(s.shift.t, v) ^ s.value[threadIdx.x * 32 + j];
  }
  build_shift(s, c.stage[2]);
  if (threadIdx.x < 32) s.value[threadIdx.x] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    v = 0;
    for (u32 j = 0; j < 32; ++j) v = crc::mul(s.shift.t, v) ^ s.value[j];
  }
  __syncthreads();  // s is free again
  return v;
}

// Where the data not covered by fused tiles lies.
struct Rest {
  const u8* head;
  u32 head_bytes;  // before the first 16-byte boundary
  u64 body_bytes;  // a multiple of 16
  const u8* tail;
  u32 tail_bytes;
  u64 tile_bytes;
  u64 tiles;
};

Rest rest_of(const u8* data, u64 size) {
  const auto misalign = static_cast<u32>(reinterpret_cast<std::uintptr_t>(data) % 16);
  Rest r{};
  r.head = data;
  r.head_bytes = static_cast<u32>(std::min<u64>(size, (16 - misalign) % 16));
  r.body_bytes = (size - r.head_bytes) / 16 * 16;
  r.tail = data + r.head_bytes + r.body_bytes;
  r.tail_bytes = static_cast<u32>(size - r.head_bytes - r.body_bytes);
  r.tile_bytes = r.body_bytes <= kSmallTilesUpTo ? kSmallTile : kTile;
  r.tiles = (r.body_bytes + r.tile_bytes - 1) / r.tile_bytes;
  return r;
}

// Tiles beyond one block's share are first combined in chunks of kChunkTiles, a block each: one
// block over all of them stalled on its Horner steps' shared-memory look-ups and barriers
// (bench/NOTES.md, "RLE compression in place, staged before the look-back").
constexpr u64 kChunkTiles = kFinalThreads;

// Raw CRC of chunk b of the tiles, the tiles taken as if zeros were prepended up to a
// whole number of chunks (`pad` tiles; leading zeros leave a raw CRC unchanged).
__global__ void __launch_bounds__(kFinalThreads)
    chunk_kernel(const u32* __restrict__ tiles, u64 pad, Combine chunk, u32* __restrict__ out) {
  __shared__ FinalShared shared;
  const u64 first = u64{blockIdx.x} * kChunkTiles;
  const u32 raw = combine_tiles(
      [&](u64 u) { return first + u >= pad ? tiles[first + u - pad] : 0u; }, chunk, shared);
  if (threadIdx.x == 0) out[blockIdx.x] = raw;
}

// What the final kernel needs from the host: the combinations, and the two shifts by sizes.
struct FinalParams {
  Combine fused, rest;
  Basis body_shift;  // x^(8 * the rest's body bytes)
  u32 size_term;     // crc::finish's shift of the initial 0xFFFFFFFF over the whole size
};

// Combines the fused tiles, the rest's tiles and its head and tail bytes, and delivers the CRC.
__global__ void __launch_bounds__(kFinalThreads)
    final_kernel(const u32* __restrict__ fused_tiles, const u32* __restrict__ rest_tiles, Rest rest,
                 u64 size, FinalParams p, CrcTarget target) {
  __shared__ FinalShared shared;
  const u32 fused_raw = combine_tiles([&](u64 u) { return fused_tiles[u]; }, p.fused, shared);
  const u32 body_raw = combine_tiles([&](u64 u) { return rest_tiles[u]; }, p.rest, shared);
  if (threadIdx.x != 0) return;
  u32 raw = fused_raw;
  for (u32 i = 0; i < rest.head_bytes; ++i) raw = crc::update_byte(raw, rest.head[i]);
  raw = mul_basis(p.body_shift, raw) ^ body_raw;
  for (u32 i = 0; i < rest.tail_bytes; ++i) raw = crc::update_byte(raw, rest.tail[i]);
  const u32 crc32 = ~(raw ^ p.size_term);  // crc::finish
  if (target.out) *target.out = crc32;
  if (target.expected_le) {
    const u8* e = target.expected_le;
    const u32 expected = e[0] | u32{e[1]} << 8 | u32{e[2]} << 16 | u32{e[3]} << 24;
    if (target.status->error == kDeviceOk) {
      if (expected == crc32) {
        target.status->size = size;
      } else {
        target.status->error = kChecksumMismatch;
      }
    }
  }
}

struct Temp {
  u32* fused;
  u32* rest;
  u32* fused_chunks;
  u32* rest_chunks;
  Temp(TempCarver& carve, u64 size)
      : fused(carve.take<u32>(size / kMinFusedTile + 1)),
        rest(carve.take<u32>(size / kTile + 2)),
        fused_chunks(carve.take<u32>(size / kMinFusedTile / kChunkTiles + 1)),
        rest_chunks(carve.take<u32>(size / kTile / kChunkTiles + 2)) {}
};

// Tiles as the final kernel combines them: as they are, or one raw CRC per chunk when there
// are more than one block's share.
struct TileCrcs {
  const u32* raw;
  Combine combine;
};

TileCrcs chunked(const u32* tiles, u64 count, u64 tile_bytes, u32* chunk_out, cudaStream_t stream) {
  if (count <= kChunkTiles) return {tiles, combine_of(count, tile_bytes)};
  const u64 chunks = (count + kChunkTiles - 1) / kChunkTiles;
  chunk_kernel<<<static_cast<unsigned>(chunks), kFinalThreads, 0, stream>>>(
      tiles, chunks * kChunkTiles - count, combine_of(kChunkTiles, tile_bytes), chunk_out);
  GCB_CUDA_LAUNCHED();
  return {chunk_out, combine_of(chunks, kChunkTiles * tile_bytes)};
}

}  // namespace

std::size_t crc32_temp_bytes(std::uint64_t size) {
  TempCarver carve;
  Temp(carve, size);
  return carve.bytes();
}

FusedCrcTiles crc32_fused_tiles(void* temp, std::size_t temp_bytes, std::uint64_t size,
                                std::uint64_t covered, std::uint64_t tile_bytes,
                                cudaStream_t stream) {
  if (covered > size || tile_bytes < kMinFusedTile || tile_bytes % kMinFusedTile != 0) {
    throw std::invalid_argument("crc32_fused_tiles: tiles do not fit the data");
  }
  TempCarver carve(temp, temp_bytes);
  const FusedCrcTiles tiles{Temp(carve, size).fused, covered / tile_bytes, tile_bytes};
  GCB_CUDA(cudaMemsetAsync(tiles.slots, 0, tiles.count * sizeof(u32), stream));
  return tiles;
}

void crc32_async(const std::uint8_t* data, std::uint64_t size, void* temp, std::size_t temp_bytes,
                 const CrcTarget& target, cudaStream_t stream, FusedCrcTiles fused) {
  const u64 fused_bytes = fused.count * fused.tile_bytes;  // checked by crc32_fused_tiles
  TempCarver carve(temp, temp_bytes);
  const Temp t(carve, size);
  const Rest rest = rest_of(data + fused_bytes, size - fused_bytes);
  // Small tiles' raw CRCs go after the fused tiles' in their array, which has a slot per
  // kMinFusedTile of data: room for both, and the temp storage stays what 64 KiB tiles need.
  u32* const rest_slots = rest.tile_bytes == kSmallTile ? t.fused + fused.count : t.rest;
  if (rest.tiles > 0) {
    const u64 pad = rest.tiles * rest.tile_bytes - rest.body_bytes;
    const auto grid = static_cast<unsigned>(std::min<u64>(rest.tiles, persistent_grid()));
    const auto* body = reinterpret_cast<const uint4*>(rest.head + rest.head_bytes);
    GCB_CUDA(cudaMemsetAsync(rest_slots, 0, rest.tiles * sizeof(u32), stream));
    if (rest.tile_bytes == kSmallTile) {
      tile_kernel<kSmallRows><<<grid, kCrcThreads, 0, stream>>>(body, pad, rest.tiles, rest_slots);
    } else {
      tile_kernel<kRows><<<grid, kCrcThreads, 0, stream>>>(body, pad, rest.tiles, rest_slots);
    }
    GCB_CUDA_LAUNCHED();
  }
  const TileCrcs fused_crcs =
      chunked(t.fused, fused.count, fused.tile_bytes, t.fused_chunks, stream);
  const TileCrcs rest_crcs =
      chunked(rest_slots, rest.tiles, rest.tile_bytes, t.rest_chunks, stream);
  FinalParams p{};
  p.fused = fused_crcs.combine;
  p.rest = rest_crcs.combine;
  p.body_shift = basis_of(x8n(rest.body_bytes));
  p.size_term = crc::multmodp(x8n(size), 0xFFFFFFFFu);
  final_kernel<<<1, kFinalThreads, 0, stream>>>(fused_crcs.raw, rest_crcs.raw, rest, size, p,
                                                target);
  GCB_CUDA_LAUNCHED();
}

}  // namespace gcbench::cuda
