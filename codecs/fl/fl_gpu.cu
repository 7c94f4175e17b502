// FL on the GPU (SPEC 1.1, seed fl-rle-plan), byte-identical to fl_cpu.cpp.
//
// Compression in one pass when frames divide a tile of 16 KiB and are multiples of 32 elements
// and of a thread's 64 bytes (at width 4 the frame sizes 32, 64, ..., 4096; at width 2
// 32..8192; at width 1 64..16384: the presets' 256, 1024 and 4096 at every width):
// pack_tiles_kernel reads each tile of the input once, into registers, ORs its frames in
// shared memory, writes their bit widths, packs its bits into shared memory at offsets from a
// block scan, and learns its first bit from a decoupled look-back over the tiles before it
// (CUB's ScanTileState), whose value also carries the width of the previous tile's last frame:
// with it the tile rebuilds the word it shares with that tile from the input, so every word is
// stored once, whole, without atomics in global memory. The container's CRC-32 comes from the
// same registers (crc32_tile.cuh).
// Other frame sizes (a frame may span tiles), three passes over device memory:
//   1. frame_or: one read of the input; each block ORs its elements per frame (the widest value
//      of a frame is the bit width of the OR of its values), first within warps, then in
//      shared memory, then one global atomicOr per frame touched by the block; the CRC-32 as
//      above.
//   2. frame_bits + CUB ExclusiveSum: bits[f] and the bit offset of every frame (tiny).
//   3. pack: one thread per output word gathers the 1..33 elements whose bits land in it, so
//      every word is written once, whole, without atomics (the seed's per-element atomicOr
//      would touch each word from several threads). The frame of each tile of words is found
//      beforehand by one binary search per tile, all tiles at once (a search per tile inside
//      the packing loop made it latency-bound: 28% of copy bandwidth, bench/NOTES.md).
// Decompression: bit offsets as above from bits[], then each thread extracts 16 output bytes
// (4, 8 or 16 consecutive elements) per row of a tile, from the tile's words staged in shared
// memory by a bulk copy a tile ahead (or read from global memory where frames are small or
// not a multiple of 16 bytes), and the tile's CRC-32 is computed from those registers (the
// container's checksum without another read of the output).
#include <algorithm>
#include <array>
#include <bit>
#include <cub/agent/single_pass_scan_operators.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>
#include <stdexcept>
#include <type_traits>

#include "codecs/common/bulk_copy.cuh"
#include "codecs/common/container_device.cuh"
#include "codecs/common/crc32.cuh"
#include "codecs/common/crc32_tile.cuh"
#include "codecs/common/cuda_check.hpp"
#include "codecs/common/device_elements.cuh"
#include "codecs/common/elements.hpp"
#include "codecs/common/host_codec.hpp"
#include "codecs/common/temp_storage.hpp"
#include "codecs/common/tile_state.cuh"
#include "codecs/fl/fl.hpp"
#include "codecs/fl/fl_payload.hpp"
#include "codecs/fl/format.hpp"
#include "codecs/fl/params.hpp"
#include "gcbench/container.hpp"
#include "gcbench/typed_device_codec.hpp"

namespace gcbench::fl {
namespace {

static_assert(std::endian::native == std::endian::little,
              "payload words are copied to and from the device as they are");

using u8 = std::uint8_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;
using cuda::kBlockThreads;

constexpr int kOrItems = 16;                         // elements per thread in the OR pass
constexpr std::uint32_t kBadBitWidth = kCodecError;  // detail: the frame
constexpr std::uint32_t kBitsExceedWords = kCodecError + 1;

// Packed words at the container's offset, which is 4-byte aligned only for some tail sizes.
struct WordWriter {
  u8* base;
  bool aligned;
  __device__ __forceinline__ void store(u64 k, u32 v) const {
    if (aligned) {
      reinterpret_cast<u32*>(base)[k] = v;
    } else {
      cuda::store_le<u32>(base + 4 * k, v);
    }
  }
};

// The container's word array, which is 4-byte aligned only for some tail sizes. Aligned words
// are read from `aligned`, the 4-byte boundary at or below base: bit p of the stream is bit
// p + shift_bits of that view, and its words [0, count) lie inside the container whatever the
// shift (word 0 starts in the bytes before the array).
struct WordReader {
  const u8* base;
  u64 count;
  __device__ __forceinline__ u32 shift_bits() const {
    return 8 * static_cast<u32>(reinterpret_cast<std::uintptr_t>(base) % 4);
  }
  __device__ __forceinline__ const u32* aligned() const {
    return reinterpret_cast<const u32*>(base - shift_bits() / 8);
  }
  // Word w of the array itself (0 past its end): two aligned loads and a funnel shift when the
  // array is not aligned, bytes for the last word.
  __device__ __forceinline__ u32 get(u64 w) const {
    if (w >= count) return 0;
    const u32 shift = shift_bits();
    if (shift == 0) return aligned()[w];
    if (w + 1 < count) return __funnelshift_r(aligned()[w], aligned()[w + 1], shift);
    return cuda::load_le<u32>(base + 4 * w);
  }
};
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

__device__ __forceinline__ u32 bit_width(u32 frame_or) {
  return max(1, 32 - __clz(frame_or));
}

// Also the CRC-32 of each whole tile (crc's), from the same registers.
template <typename T>
__global__ void __launch_bounds__(kBlockThreads)
    frame_or_kernel(const T* __restrict__ in, u64 n, u32 fs, u32* __restrict__ frame_or,
                    cuda::FusedCrcTiles crc) {
  static_assert(kBlockThreads == cuda::kCrcThreads);
  __shared__ u32 s_or[kOrTile];  // one slot per frame the tile touches (at most kOrTile)
  const bool crc_tile = blockIdx.x < crc.count;
  const u64 tile0 = u64{blockIdx.x} * kOrTile;
  const u64 tile_end = min(tile0 + kOrTile, n);
  const u64 first = cuda::div_u64(tile0, fs);
  const u64 span = cuda::div_u64(tile_end - 1, fs) - first + 1;
  for (u64 k = threadIdx.x; k < span; k += kBlockThreads) s_or[k] = 0;
  __syncthreads();

  const u64 i0 = tile0 + u64{threadIdx.x} * kOrItems;
  T v[kOrItems];
  cuda::load_items(in, n, i0, v);
  if (crc_tile) cuda::blocked_crc_into(v, crc.slots + blockIdx.x);
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

// ---- one pass (frame sizes that divide a tile and hold whole threads' elements)

// Each thread holds 64 bytes of its tile (kOnePassItems<T> elements) in registers, as 16 words:
// tiles of 16 KiB at every width, since the kernel is bound by each tile's latency.
constexpr u32 kOnePassWords = 16;
template <typename T>
constexpr u32 kOnePassItems = kOnePassWords * 4 / sizeof(T);
template <typename T>
constexpr u64 kOnePassTile = u64{kBlockThreads} * kOnePassItems<T>;

// Element k of a thread's words.
template <typename T>
__device__ __forceinline__ u32 element(const u32 (&w)[kOnePassWords], u32 k) {
  constexpr u32 kPerWord = 4 / sizeof(T);
  return static_cast<T>(w[k / kPerWord] >> (8 * sizeof(T) * (k % kPerWord)));
}

// The thread's elements from i0 on as words, zero past element n.
template <typename T>
__device__ __forceinline__ void load_words(const T* __restrict__ in, u64 n, u64 i0,
                                           u32 (&w)[kOnePassWords]) {
  if (i0 + kOnePassItems<T> <= n) {
    cuda::load_items(reinterpret_cast<const u32*>(in + i0), kOnePassWords, 0, w);
    return;
  }
  constexpr u32 kPerWord = 4 / sizeof(T);
#pragma unroll
  for (u32 k = 0; k < kOnePassWords; ++k) w[k] = 0;
#pragma unroll
  for (u32 k = 0; k < kOnePassItems<T>; ++k) {
    if (i0 + k < n) w[k / kPerWord] |= u32{in[i0 + k]} << (8 * sizeof(T) * (k % kPerWord));
  }
}

// The packed words seen through the 4-byte boundary at or below the array (the container
// leaves the array aligned only for some tail sizes and frame counts): bit p of the stream is
// bit p + 8 * lead of this view. Bytes outside [lead, end) of the view are not the array's.
struct AlignedWordWriter {
  u32* aligned;
  u32 lead;  // bytes of the view before the array, 0..3
  __device__ __forceinline__ void store(u64 j, u32 v, u64 end) const {
    const u64 b0 = 4 * j;
    if (b0 >= lead && b0 + 4 <= end) {
      aligned[j] = v;
      return;
    }
    for (u32 k = 0; k < 4; ++k) {
      if (b0 + k >= lead && b0 + k < end) reinterpret_cast<u8*>(aligned)[b0 + k] = v >> (8 * k);
    }
  }
};

// The look-back's value: the bits of the stream so far (high part) and the bit width of its
// last frame (low 6 bits), which is all a tile needs to rebuild the previous tile's last word
// from the input (its last 32 elements lie in one frame: frames are multiples of 32).
struct LengthAndWidth {
  __device__ u64 operator()(u64 a, u64 b) const { return ((a >> 6) + (b >> 6)) << 6 | (b & 63); }
};

template <typename T>
struct PackShared {
  using BlockScan = cub::BlockScan<u32, kBlockThreads, cub::BLOCK_SCAN_WARP_SCANS>;
  using LookBack = cuda::LateLookBack<u64, LengthAndWidth>;
  // The tile's stream, at most 8 * sizeof(T) bits an element, and up to 3 words after it that
  // the last tile writes (zeros to the array's end, and the shift into the aligned view).
  static constexpr u32 kWords = kOnePassTile<T> * sizeof(T) / 4 + 4;
  // The stream from words[kStream] on (16-byte aligned, for the zeroing), and before it, at
  // words[kStream - 1], the last word of the stream before the tile's.
  static constexpr u32 kStream = 4;
  alignas(16) u32 words[kStream + kWords];
  u32 frame_or[kOnePassTile<T> / 32];  // frames of at least 32 elements
  typename BlockScan::TempStorage scan;
  typename LookBack::TempStorage prefix;
  u64 start;
};

struct PackArgs {
  u64 n;
  u32 fs_log2;  // frames that divide a tile are a power of two long
  u8* bits;
  AlignedWordWriter words;
  cub::ScanTileState<u64> state;
  cuda::FusedCrcTiles crc;
  u64 words_offset;
  u64* payload_size;
};

// The last 32 bits of the stream before a tile whose 32 elements before it lie in one frame of
// width b (0 before the first tile): lane i holds element i before the tile's first.
template <typename T>
__device__ __forceinline__ u32 last_word_before(T element, u32 b) {
  const int at = 32 - static_cast<int>((threadIdx.x % 32 + 1) * b);  // its first bit in the word
  u32 part = 0;
  if (b > 0 && at > -static_cast<int>(b)) part = at >= 0 ? u32{element} << at : element >> -at;
  return __reduce_or_sync(0xFFFFFFFFu, part);
}

// The word that two threads of a frame share at odd widths at width 4 (16 elements of odd
// width end at a half word): the first thread holds its low half (`word`, where it goes), the
// second its high half (`word` null); both ORed and stored once by the first, without atomics
// or zeroed words (bench/NOTES.md, session 41).
struct SharedWord {
  u32* word = nullptr;
  u32 bits = 0;
};

// A thread's elements, B bits each, into the tile's words from bit Phase of `word` on (the
// elements past the input's end are zero). Every shift is a constant: a loop over the elements
// with the width at run time ("fill a word, flush it") took about a fifth of the kernel's
// instructions (bench/NOTES.md, session 40). Whole words are stored; the half of a word shared
// with the neighbouring thread is returned.
template <typename T, u32 B, u32 Phase>
__device__ __forceinline__ SharedWord pack_bits(const u32 (&w)[kOnePassWords], u32* word) {
  constexpr u32 kEnd = Phase + kOnePassItems<T> * B;
  SharedWord shared;
#pragma unroll
  for (u32 j = 0; j < (kEnd + 31) / 32; ++j) {
    u32 v = 0;
#pragma unroll
    for (u32 k = 0; k < kOnePassItems<T>; ++k) {
      const int at = static_cast<int>(Phase + k * B) - static_cast<int>(32 * j);
      if (at > -static_cast<int>(B) && at < 32) {
        v |= at >= 0 ? element<T>(w, k) << at : element<T>(w, k) >> -at;
      }
    }
    if (j == 0 && Phase != 0) {
      shared = {nullptr, v};
    } else if (32 * (j + 1) > kEnd) {
      shared = {word + j, v};
    } else {
      word[j] = v;
    }
  }
  return shared;
}

// pack_bits for b in [Lo, Hi], by a binary choice (warp-uniform where a warp lies in one frame).
// A thread's bits start at a whole word except for odd widths at width 4 (16 elements), where
// every other thread of a frame starts at a half word.
template <typename T, u32 Lo, u32 Hi>
__device__ __forceinline__ SharedWord pack_thread(const u32 (&w)[kOnePassWords], u32 b, u32 offset,
                                                  u32* words) {
  if constexpr (Lo == Hi) {
    u32* word = words + offset / 32;
    if constexpr (kOnePassItems<T> * Lo % 32 != 0) {
      if (offset % 32 != 0) return pack_bits<T, Lo, 16>(w, word);
    }
    return pack_bits<T, Lo, 0>(w, word);
  } else {
    constexpr u32 kMid = (Lo + Hi) / 2;
    if (b <= kMid) return pack_thread<T, Lo, kMid>(w, b, offset, words);
    return pack_thread<T, kMid + 1, Hi>(w, b, offset, words);
  }
}

// One block per tile of kOnePassTile<T> elements (whole frames of at least 32 elements): the
// frames' widths, the tile's bits packed in shared memory, its first bit by look-back (warp 0,
// after its own share of the packing), then its words out. Also the tile's CRC-32 (a.crc's tiles)
// and, from the last tile, the payload's size. The kernel is bound by each tile's latency
// (bench/NOTES.md), so six blocks an SM (40 registers) pay, where resident blocks looping over
// tiles and loading the next ahead ran at half the speed.
template <typename T>
__global__ void __launch_bounds__(kBlockThreads, 6)
    pack_tiles_kernel(const T* __restrict__ in, PackArgs a) {
  static_assert(kBlockThreads == cuda::kCrcThreads);
  __shared__ PackShared<T> s;
  const int tile = static_cast<int>(blockIdx.x);
  const bool last_tile = blockIdx.x == gridDim.x - 1;
  constexpr u32 kItems = kOnePassItems<T>;
  const u64 tile0 = u64(tile) * kOnePassTile<T>;
  // Not tile0 + `at` (below): that fold compiled to a schedule 2.4% slower (bench/NOTES.md,
  // session 42).
  const u64 i0 = tile0 + u64{threadIdx.x} * kItems;
  u32 w[kOnePassWords];
  load_words(in, a.n, i0, w);
  // Warp 0's lane i: element i before the tile, for the word this tile shares with the previous.
  const T before_tile = tile > 0 && threadIdx.x < 32 ? in[tile0 - 1 - threadIdx.x] : T{0};

  // Shifts, not divisions (three 64-bit divisions were about 88 of a warp's 690 instructions a
  // tile, bench/NOTES.md, session 40).
  const u64 first = tile0 >> a.fs_log2;
  const auto tile_len = static_cast<u32>(min(u64{kOnePassTile<T>}, a.n - tile0));
  const u32 frames = ((tile_len - 1) >> a.fs_log2) + 1;
  // The tile's stream; stream[-1] is the last word before it.
  u32* const stream = s.words + PackShared<T>::kStream;
  // Only the last tile reads words that no thread packs (past its bits, to the array's end).
  for (u32 k = threadIdx.x; last_tile && k < PackShared<T>::kWords / 4; k += kBlockThreads) {
    reinterpret_cast<uint4*>(stream)[k] = make_uint4(0, 0, 0, 0);
  }
  for (u32 k = threadIdx.x; k < frames; k += kBlockThreads) s.frame_or[k] = 0;
  __syncthreads();

  const u32 at = threadIdx.x * kItems;  // this thread's first element in the tile
  const u32 valid = at < tile_len ? min(kItems, tile_len - at) : 0;
  const u32 frame = valid > 0 ? at >> a.fs_log2 : 0;
  u32 acc = 0;
#pragma unroll
  for (u32 k = 0; k < kOnePassWords; ++k) acc |= w[k];  // zero past n
  if constexpr (sizeof(T) < 4) acc |= acc >> 16;        // the OR of the elements in the low bits
  if constexpr (sizeof(T) < 2) acc |= acc >> 8;
  acc = static_cast<T>(acc);
  // Usually the whole warp is inside one frame: one shared atomic instead of 32.
  if (__all_sync(0xFFFFFFFFu, frame == __shfl_sync(0xFFFFFFFFu, frame, 0))) {
    acc = __reduce_or_sync(0xFFFFFFFFu, acc);
    if ((threadIdx.x & 31) == 0 && acc != 0) atomicOr(&s.frame_or[frame], acc);
  } else if (acc != 0) {
    atomicOr(&s.frame_or[frame], acc);
  }
  __syncthreads();
  for (u32 k = threadIdx.x; k < frames; k += kBlockThreads) {
    a.bits[first + k] = static_cast<u8>(bit_width(s.frame_or[k]));
  }

  const u32 b = bit_width(s.frame_or[frame]);
  u32 offset, tile_bits;
  typename PackShared<T>::BlockScan(s.scan).ExclusiveSum(b * valid, offset, tile_bits);
  // The tile's length is known: published at once for the tiles after this one. Its CRC-32 waits
  // until here, off that path.
  const u64 mine = u64{tile_bits} << 6 | bit_width(s.frame_or[frames - 1]);
  typename PackShared<T>::LookBack look_back{a.state, tile};
  look_back.publish(mine);
  if (static_cast<u64>(tile) < a.crc.count) cuda::blocked_crc_into(w, a.crc.slots + tile);
  SharedWord shared;
  if (valid > 0) {
    shared = pack_thread<T, 1, 8 * sizeof(T)>(w, b, offset, stream);
  }
  if constexpr (kOnePassItems<T> % 32 != 0) {  // else every thread ends on a whole word
    // A frame's threads pair up (frames of at least 32 elements start at even threads): the
    // high half of a shared word comes from the next lane.
    const u32 high = __shfl_down_sync(0xFFFFFFFFu, shared.bits, 1);
    if (shared.word != nullptr) *shared.word = shared.bits | high;
  }
  // Warp 0 looks back only now, after its share of the packing: looking back at once, it waited
  // for predecessors still loading their tiles, and then the other warps waited for its packing.
  if (threadIdx.x < 32) {
    const u64 before = __shfl_sync(0xFFFFFFFFu, look_back.prefix(s.prefix, mine, 0), 0);
    const u32 carry = last_word_before(before_tile, static_cast<u32>(before & 63));
    if (threadIdx.x == 0) {
      s.start = before >> 6;
      stream[-1] = carry;
    }
  }
  __syncthreads();

  // Aligned word lo + j of the view holds the previous word's top bits and this one's low bits
  // (word lo's previous word is the previous tile's last).
  const u64 start = s.start + 8 * a.words.lead;
  const u32 shift = static_cast<u32>(start % 32);
  const u64 lo = start / 32;
  u64 end = ~u64{0}, count = (start + tile_bits) / 32 - lo;  // words wholly before the next tile
  if (last_tile) {
    const u64 word_count = (s.start + tile_bits + 31) / 32;
    end = a.words.lead + 4 * word_count;
    count = (end + 3) / 4 - lo;
    if (threadIdx.x == 0) *a.payload_size = a.words_offset + 4 * word_count;
  }
  // Only the first and the last tile reach bytes outside the array: the others store unchecked.
  const bool edge = tile == 0 || last_tile;
  for (u32 j = threadIdx.x; j < count; j += kBlockThreads) {
    const u32 word = __funnelshift_l(stream[j - 1], stream[j], shift);
    if (edge) {
      a.words.store(lo + j, word, end);
    } else {
      a.words.aligned[lo + j] = word;
    }
  }
}

// ---- three passes (other frame sizes)

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
  const u32 b = bit_width(frame_or[f]);
  bits[f] = static_cast<u8>(b);
  sizes[f] = b * frame_len(f, n, fs);
}

// sizes[] from bits[]; a width outside 1..max_bits (a container that changed after it was
// planned) is an error, and counts as max_bits so that nothing reads out of bounds.
__global__ void frame_sizes_kernel(const u8* __restrict__ bits, u64 frames, u64 n, u32 fs,
                                   u32 max_bits, u64* __restrict__ sizes, DeviceStatus* status) {
  u64 f = u64{blockIdx.x} * kBlockThreads + threadIdx.x;
  if (f > frames) return;
  if (f == frames) {
    sizes[f] = 0;
    return;
  }
  u32 b = bits[f];
  if (b < 1 || b > max_bits) {
    cuda::set_error(status, kBadBitWidth, f);
    b = max_bits;
  }
  sizes[f] = b * frame_len(f, n, fs);
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
                WordWriter words) {
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
    u64 acc = 0;  // the word sits in the high half; bits past it fall off the top
    if (end <= start + len * b) {
      // The whole word inside frame f (most words): element j's bits start `rel` bits into
      // the word, rel in (-b, 32), all in 32-bit arithmetic.
      const T* frame = in + f * fs;
      const int limit = static_cast<int>(end - pos0);
      for (int rel = static_cast<int>(start + u64{j} * b - pos0); rel < limit; rel += b, ++j) {
        acc |= u64{frame[j]} << (rel + 32);
      }
      words.store(k, static_cast<u32>(acc >> 32));
      continue;
    }
    u64 p = start + u64{j} * b;
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
    words.store(k, static_cast<u32>(acc >> 32));
  }
}

// The K = kPerVector<T> elements of one frame from bit `bit` of `words` on (global memory's
// aligned view, or a tile staged in shared memory), b bits each: K * b <= 128 bits plus an
// offset below 32, so at most 5 words, loaded once and taken off with funnel shifts (the queue
// x0..x4 moves on by a word whenever the offset passes 32). The caller checked that those words
// lie inside the array.
template <typename T, typename Index>
__device__ __forceinline__ void unpack_one_frame(const u32* __restrict__ words, Index bit, u32 b,
                                                 T (&v)[cuda::kPerVector<T>]) {
  constexpr u32 kItems = cuda::kPerVector<T>;
  const Index w = bit / 32;
  u32 s = static_cast<u32>(bit % 32);
  const u32 span = s + kItems * b;
  u32 x0 = words[w];
  u32 x1 = span > 32 ? words[w + 1] : 0;
  u32 x2 = span > 64 ? words[w + 2] : 0;
  u32 x3 = span > 96 ? words[w + 3] : 0;
  u32 x4 = span > 128 ? words[w + 4] : 0;
  const u32 mask = 0xFFFFFFFFu >> (32 - b);
#pragma unroll
  for (u32 k = 0; k < kItems; ++k) {
    v[k] = static_cast<T>(__funnelshift_r(x0, x1, s) & mask);
    s += b;
    if (s >= 32) {
      s -= 32;
      x0 = x1;
      x1 = x2;
      x2 = x3;
      x3 = x4;
    }
  }
}

// Elements i0 .. i0 + kPerVector<T> - 1 (zero past n). bits[] and word_count were validated
// on the host; widths are clamped and word reads bounded anyway, so a container changed since
// cannot misdirect. A vector inside one frame (every one when the frame size is a multiple of
// kPerVector<T>) takes unpack_one_frame; one that crosses frames or the array's end goes
// element by element.
template <typename T>
__device__ __forceinline__ void unpack_vector(const u8* __restrict__ bits,
                                              const u64* __restrict__ offsets, u64 frames,
                                              WordReader words, u64 n, u32 fs, u32 max_bits, u64 i0,
                                              T (&v)[cuda::kPerVector<T>]) {
  constexpr u32 kItems = cuda::kPerVector<T>;
  u64 f = cuda::div_u64(i0, fs);
  u32 j = static_cast<u32>(i0 - f * fs);
  u64 start = offsets[f];
  u32 b = min(max(u32{bits[f]}, 1u), max_bits);
  u64 len = frame_len(f, n, fs);
  const u64 bit = start + u64{j} * b + words.shift_bits();
  if (i0 + kItems <= n && j + kItems <= len && (bit + kItems * b - 1) / 32 < words.count) {
    unpack_one_frame(words.aligned(), bit, b, v);
    return;
  }
#pragma unroll
  for (u32 k = 0; k < kItems; ++k) {
    v[k] = 0;
    if (i0 + k < n && f < frames) {
      u64 p = start + u64{j} * b;
      u64 w = p / 32;
      u32 off = static_cast<u32>(p % 32);
      u64 lo = words.get(w);
      u64 hi = off + b > 32 ? words.get(w + 1) : 0;
      v[k] = static_cast<T>(((hi << 32 | lo) >> off) & ((u64{1} << b) - 1));
      if (++j == len && ++f < frames) {
        start = offsets[f];
        b = min(max(u32{bits[f]}, 1u), max_bits);
        len = frame_len(f, n, fs);
        j = 0;
      }
    }
  }
}

// Tiles of R rows of kCrcThreads 16-byte vectors, one vector per thread per row, on a
// grid-stride loop; crc's tiles are whole, and their CRCs are computed from the registers
// (crc32_tile.cuh) instead of by another read of the output. unpack_kernel's tiles have eight
// rows (four for bytes, which would spill at eight): the CRC's per-warp reduction and the
// tile's fixed costs spread over 32 KiB of output.
template <typename T>
constexpr u32 kUnpackRows = sizeof(T) == 1 ? 4 : 8;

template <typename T, u32 R>
struct UnpackArgs {
  static constexpr u64 kTileBytes = u64{R} * cuda::kCrcThreads * cuda::kCrcVector;
  static constexpr u64 kTileItems = kTileBytes / sizeof(T);

  const u8* bits;
  const u64* offsets;
  u64 frames;
  WordReader words;
  u64 n;
  u32 fs;
  u32 max_bits;
  T* out;
  cuda::FusedCrcTiles crc_tiles;

  __host__ __device__ __forceinline__ u64 tiles() const {
    return (n + kTileItems - 1) / kTileItems;
  }
};

// One tile, every vector located and read from global memory (unpack_vector).
template <typename T, u32 R>
__device__ __forceinline__ void unpack_tile_from_global(const UnpackArgs<T, R>& a, u64 tile) {
  constexpr int kItems = cuda::kPerVector<T>;
  const bool crc_tile = tile < a.crc_tiles.count;  // whole: no thread leaves the loop early
  cuda::RowsCrc<R> crc;
#pragma unroll
  for (u32 r = 0; r < R; ++r) {
    const u64 i0 = ((tile * R + r) * cuda::kCrcThreads + threadIdx.x) * kItems;
    if (i0 >= a.n) break;
    T v[kItems];
    unpack_vector(a.bits, a.offsets, a.frames, a.words, a.n, a.fs, a.max_bits, i0, v);
    cuda::store_row(a.out, a.n, i0, r, v, crc_tile, crc);
  }
  if (crc_tile) crc.reduce_into(a.crc_tiles.slots + tile);
}

template <typename T>
__global__ void __launch_bounds__(cuda::kCrcThreads)
    unpack_kernel(UnpackArgs<T, kUnpackRows<T>> a) {
  for (u64 tile = blockIdx.x; tile < a.tiles(); tile += gridDim.x) unpack_tile_from_global(a, tile);
}

// ---- decompression with each tile's words staged in shared memory

// Where every vector lies in one frame and a tile touches at most kMaxTileFrames frames (frame
// sizes that are multiples of 16 bytes and above a tile's elements / 254: every preset's 256,
// 1024 and 4096), unpack_staged_kernel has each tile's packed words brought into shared memory
// by one bulk copy started a tile ahead, and its frames' offsets and widths loaded two tiles
// ahead; a vector then costs a division, one shared-memory entry and its words from shared
// memory, where unpack_kernel's waits on two dependent global loads (on an H100, 1 GiB at
// width 4: about 1990 against 1495 GB/s, bench/NOTES.md session 37). The words' buffers are
// sized by the plan's widest frame: sized for 32 bits they left L1 too small for the CRC's
// operands (1870 against 1950 GB/s at eight rows). A tile whose words reach the array's last
// 16 bytes, or that is partial, takes unpack_kernel's path.
constexpr u32 kMaxTileFrames = cuda::kCrcThreads;  // a thread loads each

// A frame of a staged tile: the low 32 bits of its bit offset (a tile spans less than 2^32
// bits, so differences of these are exact) and its width.
struct StagedFrame {
  u32 offset;
  u32 bits;
};

// A tile's frames, and what start_tile found: bit p of the stream at bit p - first_bit of the
// shared words (mod 2^32), or staged == 0 where the tile takes the global path.
struct StagedTile {
  u64 first_frame;
  u64 first_offset;
  u32 frames;
  u32 first_bit;
  u32 staged;
};

// Sixteen rows, two blocks an SM (four and three for bytes): faster than eight rows at three
// blocks (1995 against 1935 GB/s at width 4, 1530 against 1490 at width 2, bench/NOTES.md
// session 37), the per-tile costs (the barrier, the CRC's reduction, the next tile's start)
// spread over twice the output.
template <typename T>
constexpr u32 kStagedRows = sizeof(T) == 1 ? 4 : 16;
template <typename T>
constexpr int kStagedBlocks = sizeof(T) == 1 ? 3 : 2;
template <typename T>
using StagedArgs = UnpackArgs<T, kStagedRows<T>>;

template <typename T>
bool staged_unpack(u32 fs) {
  return fs % cuda::kPerVector<T> == 0 && StagedArgs<T>::kTileItems / fs + 2 <= kMaxTileFrames;
}

// This thread's frame of tile `tile` (thread t holds frame t of the tile), loaded into registers
// two tiles ahead of its use.
struct FrameLoad {
  u64 first_frame = 0;
  u64 offset = 0;
  u32 frames = 0;
  u32 bits = 0;

  template <typename T, u32 R>
  __device__ __forceinline__ void load(const UnpackArgs<T, R>& a, u64 tile) {
    frames = 0;
    if (tile >= a.tiles()) return;
    const u64 i0 = tile * a.kTileItems;
    const u64 end = min(i0 + a.kTileItems, a.n);
    first_frame = i0 / a.fs;
    frames = static_cast<u32>((end - 1) / a.fs - first_frame + 1);
    if (threadIdx.x < frames) {
      offset = a.offsets[first_frame + threadIdx.x];
      bits = min(max(u32{a.bits[first_frame + threadIdx.x]}, 1u), a.max_bits);
    }
  }

  __device__ __forceinline__ void store(StagedFrame* frame, StagedTile& tile) const {
    if (threadIdx.x < frames) frame[threadIdx.x] = {static_cast<u32>(offset), bits};
    if (threadIdx.x == 0) tile = {first_frame, offset, frames, 0, 0};
  }
};

// By one thread: the bit range of tile `tile`'s elements, and its words' bulk copy into `dst`
// when they lie, rounded out to 16 bytes, inside the array (not past its last whole 16 bytes,
// where memory after the container may be another allocation's).
template <typename T, u32 R>
__device__ __forceinline__ void start_tile(const UnpackArgs<T, R>& a, u64 tile, StagedTile& t,
                                           const StagedFrame* frame, u8* dst, u32 stage_bytes,
                                           cuda::BulkCopyBarrier& landed) {
  const u64 i0 = tile * a.kTileItems;
  const u64 end = i0 + a.kTileItems;
  const StagedFrame first = frame[0], last = frame[t.frames - 1];
  const u32 shift = a.words.shift_bits();
  const u64 lo = t.first_offset + shift + (i0 - t.first_frame * a.fs) * first.bits;
  const u64 last_start = t.first_offset + shift + (last.offset - first.offset);
  const u64 hi = last_start + (end - (t.first_frame + t.frames - 1) * a.fs) * last.bits;
  const auto view = reinterpret_cast<std::uintptr_t>(a.words.aligned());
  const std::uintptr_t src = (view + 4 * (lo / 32)) & ~(cuda::kBulkAlign - 1);
  const std::uintptr_t src_end =
      (view + 4 * ((hi + 31) / 32) + cuda::kBulkAlign - 1) & ~(cuda::kBulkAlign - 1);
  const std::uintptr_t array_end =
      reinterpret_cast<std::uintptr_t>(a.words.base) + 4 * a.words.count;
  // A frame wider than the plan's widest (a container changed since) does not fit: global path.
  t.staged = end <= a.n && src_end <= array_end && src_end - src <= stage_bytes;
  if (!t.staged) return;
  // Shared bit 0 is view bit 8 * (src - view), stream bit that minus shift.
  t.first_bit = static_cast<u32>(8 * (src - view) - shift);
  landed.start(dst, reinterpret_cast<const void*>(src), static_cast<u32>(src_end - src));
}

template <typename T>
__global__ void __launch_bounds__(cuda::kCrcThreads, kStagedBlocks<T>)
    unpack_staged_kernel(StagedArgs<T> a, u32 stage_bytes) {
  constexpr int kItems = cuda::kPerVector<T>;
  constexpr u32 kRows = kStagedRows<T>;
  extern __shared__ __align__(16) u8 shared[];
  u8* words = shared;  // [2][stage_bytes]: tiles k and k + 1
  auto* frames = reinterpret_cast<StagedFrame*>(shared + 2 * stage_bytes);  // [3][kMax...]
  __shared__ StagedTile staged[3];                                          // tiles k, k + 1, k + 2
  __shared__ cuda::BulkCopyBarrier landed[2];
  const u64 tiles = a.tiles();
  if (threadIdx.x == 0) {
    landed[0].init();
    landed[1].init();
  }
  FrameLoad ahead;
  ahead.load(a, blockIdx.x);
  ahead.store(frames, staged[0]);
  ahead.load(a, u64{blockIdx.x} + gridDim.x);
  ahead.store(frames + kMaxTileFrames, staged[1]);
  __syncthreads();
  if (threadIdx.x == 0 && blockIdx.x < tiles) {
    start_tile(a, blockIdx.x, staged[0], frames, words, stage_bytes, landed[0]);
  }
  __syncthreads();
  u32 parity = 0;  // bit b: the phase that buffer b's next copy completes
  u32 k = 0;
  for (u64 tile = blockIdx.x; tile < tiles; tile += gridDim.x, ++k) {
    const u32 buf = k % 2, slot = k % 3, next = (k + 1) % 3, after = (k + 2) % 3;
    if (threadIdx.x == 0 && tile + gridDim.x < tiles) {
      start_tile(a, tile + gridDim.x, staged[next], frames + next * kMaxTileFrames,
                 words + (buf ^ 1) * stage_bytes, stage_bytes, landed[buf ^ 1]);
    }
    ahead.load(a, tile + 2 * u64{gridDim.x});
    const StagedTile t = staged[slot];
    if (t.staged) {
      landed[buf].wait(parity >> buf & 1);
      parity ^= 1u << buf;
      const auto* stage = reinterpret_cast<const u32*>(words + buf * stage_bytes);
      const StagedFrame* frame = frames + slot * kMaxTileFrames;
      const bool crc_tile = tile < a.crc_tiles.count;
      cuda::RowsCrc<kRows> crc;
      const u64 tile_start = tile * a.kTileItems;
      const u32 lead = static_cast<u32>(tile_start - t.first_frame * a.fs);
#pragma unroll
      for (u32 r = 0; r < kRows; ++r) {
        const u32 q = lead + (r * cuda::kCrcThreads + threadIdx.x) * kItems;
        const u32 f = q / a.fs;
        const StagedFrame fr = frame[f];
        const u32 bit = fr.offset + (q - f * a.fs) * fr.bits - t.first_bit;
        T v[kItems];
        unpack_one_frame(stage, bit, fr.bits, v);
        cuda::store_row(a.out, a.n, tile_start + (q - lead), r, v, crc_tile, crc);
      }
      if (crc_tile) crc.reduce_into(a.crc_tiles.slots + tile);
    } else {
      unpack_tile_from_global(a, tile);
    }
    ahead.store(frames + after * kMaxTileFrames, staged[after]);
    __syncthreads();
  }
}

// The shared memory of unpack_staged_kernel where no frame is wider than `widest` bits: two
// tiles' words (each rounded out to 16 bytes at both ends), three tiles' frames.
struct StagedShared {
  u32 stage_bytes;
  std::size_t bytes;
};

template <typename T>
StagedShared staged_shared(u32 widest) {
  const u32 stage = static_cast<u32>(StagedArgs<T>::kTileItems * widest / 8 + 2 * cuda::kBulkAlign);
  return {stage, 2 * std::size_t{stage} + 3 * kMaxTileFrames * sizeof(StagedFrame)};
}

// The payload's size once the total bit count is known; checks a planned decode's total.
__global__ void payload_size_kernel(const u64* total_bits, u64 words_offset, u64* payload_size) {
  *payload_size = words_offset + 4 * ((*total_bits + 31) / 32);
}

__global__ void check_total_kernel(const u64* total_bits, u64 word_count, DeviceStatus* status) {
  if ((*total_bits + 31) / 32 != word_count) cuda::set_error(status, kBitsExceedWords, *total_bits);
}

u64 frames_of(u64 n, u32 fs) {
  return n / fs + (n % fs != 0 ? 1 : 0);
}

std::size_t scan_bytes(u64 frames) {
  std::size_t bytes = 0;
  GCB_CUDA(cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<const u64*>(nullptr),
                                         static_cast<u64*>(nullptr), frames + 1));
  return bytes;
}

// The one-pass encoder's tiles hold whole frames of at least 32 elements, each thread's
// elements lie in one frame, and so do the 32 elements before a tile.
bool one_pass(u32 fs, u32 width) {
  const u32 items = kOnePassWords * 4 / width;
  return u64{kBlockThreads} * items % fs == 0 && fs % std::max(items, 32u) == 0;
}

u64 one_pass_tile(u32 width) {
  return u64{kBlockThreads} * kOnePassWords * 4 / width;
}

int tile_count(u64 n, u32 width) {
  const u64 tiles = (n + one_pass_tile(width) - 1) / one_pass_tile(width);
  if (tiles > 0x7FFFFFFFull) throw std::runtime_error("input too large for one CUDA grid");
  return static_cast<int>(tiles);
}

// Temporary storage of both directions, carved the same way when sizing and when running.
struct Temp {
  u32* frame_or = nullptr;
  u64* sizes = nullptr;
  u64* offsets = nullptr;
  u64* tile_frame = nullptr;
  cuda::TempCarver::Piece scan{}, tile_state{};
  void* crc;
  std::size_t crc_bytes;
  u64* payload_size;
  u32* crc_value;

  Temp(cuda::TempCarver& carve, u64 input_size, u32 width, u32 fs, bool compress) {
    const u64 n = input_size / width;
    const u64 frames = frames_of(n, fs);
    if (compress && one_pass(fs, width)) {
      const int tiles = tile_count(n, width);
      tile_state = carve.take_bytes(cuda::tile_state_bytes<u64>(tiles));
    } else {
      frame_or = compress ? carve.take<u32>(frames) : nullptr;
      sizes = carve.take<u64>(frames + 1);
      offsets = carve.take<u64>(frames + 1);
      const u64 max_words = (n * 8 * width + 31) / 32;
      tile_frame = compress ? carve.take<u64>((max_words + kPackTile - 1) / kPackTile) : nullptr;
      scan = carve.take_bytes(fl::scan_bytes(frames));
    }
    crc_bytes = cuda::crc32_temp_bytes(input_size);
    crc = carve.take<u8>(crc_bytes);
    payload_size = carve.take<u64>(1);
    crc_value = carve.take<u32>(1);
  }
};

// What a decode needs from the host-side parse.
struct Plan {
  PayloadLayout layout;
  u32 widest_frame;  // bits: sizes the staged decoder's shared memory
};

class FlDeviceCodec final : public TypedDeviceCodec<FlDeviceCodec> {
 public:
  FlDeviceCodec()
      // Built whole: assigning short literals member by member trips a GCC 12 -Wrestrict
      // false positive, an error under nvcc's --Werror=all-warnings.
      : info_{"fl",
              "3",
              Device::gpu,
              "fixed-length bit-packing per frame (CUDA; one pass with decoupled look-back)",
              {element_width_axis(), frame_size_axis()},
              Role::studied,
              "fl"} {
    info_.container_format = kContainerFormat;
  }

  using Typed = FlParams;

  const CodecInfo& info() const override { return info_; }

  FlParams typed(const Params& resolved) const { return fl_params(resolved); }

  u64 max_compressed_size(u64 input_size, const FlParams& f) const {
    return max_container_size(input_size, f.element_width, f.frame_size);
  }

  std::size_t compress_temp_bytes(u64 input_size, const FlParams& f) const {
    cuda::TempCarver carve;
    Temp(carve, input_size, f.element_width, f.frame_size, true);
    return carve.bytes();
  }

  void compress_async(const CompressBuffers& b, const FlParams& f, DeviceStream stream) const {
    const u32 w = f.element_width, fs = f.frame_size;
    const u64 n = b.input_size / w;
    cuda::TempCarver carve(b.temp, b.temp_bytes);
    const Temp t(carve, b.input_size, w, fs, true);
    const PayloadLayout l = make_layout(b.input_size, w, fs, 0);
    u8* payload = b.output + kContainerHeaderSize;
    std::array<u8, kFixedHeaderSize + 4> fixed{};
    write_header(fixed.data(), l, {});  // the tail comes from the device input
    cuda::write_prefix_async(payload, ByteSpan(fixed.data(), kFixedHeaderSize), b.input + n * w,
                             l.tail_size, stream);
    const bool single = one_pass(fs, w);
    const u64 crc_tile = single ? one_pass_tile(w) : kOrTile;
    const cuda::FusedCrcTiles crc_tiles =
        cuda::crc32_fused_tiles(t.crc, t.crc_bytes, b.input_size, n * w, crc_tile * w, stream);
    u8* words = payload + l.words_offset;
    if (n == 0) {
      cuda::set_u64_async(t.payload_size, l.size, stream);
    } else if (single) {
      const auto lead = static_cast<u32>(reinterpret_cast<std::uintptr_t>(words) % 4);
      encode_one_pass(b.input, n, w, fs, t, payload + l.bits_offset,
                      AlignedWordWriter{reinterpret_cast<u32*>(words - lead), lead}, l.words_offset,
                      crc_tiles, stream);
    } else {
      encode(b.input, n, w, fs, l.frame_count, t, payload + l.bits_offset,
             WordWriter{words, reinterpret_cast<std::uintptr_t>(words) % 4 == 0}, crc_tiles,
             stream);
      payload_size_kernel<<<1, 1, 0, stream>>>(t.offsets + l.frame_count, l.words_offset,
                                               t.payload_size);
      GCB_CUDA_LAUNCHED();
    }
    cuda::crc32_async(b.input, b.input_size, t.crc, t.crc_bytes, {t.crc_value}, stream, crc_tiles);
    cuda::write_container_header_async(b.output, kContainerFormat, b.input_size, t.payload_size,
                                       t.crc_value, b.output_size, stream);
  }

  DecodePlan plan_decompress(ByteSpan container, const FlParams&) const {
    const OpenedContainer c = open_container(container, kContainerFormat);
    const ParsedPayload parsed = parse_payload(c.payload, c.header.original_size);
    const PayloadLayout& l = parsed.layout;
    cuda::TempCarver carve;
    Temp(carve, c.header.original_size, l.element_width, l.frame_size, false);
    const u32 widest =
        parsed.bits.empty() ? 1 : *std::max_element(parsed.bits.begin(), parsed.bits.end());
    return make_plan(container, c.header.original_size, carve.bytes(), Plan{l, widest});
  }

  void decompress_async(const DecodePlan& plan, const DecompressBuffers& b, const FlParams&,
                        DeviceStream stream) const {
    const Plan& p = std::any_cast<const Plan&>(plan.detail);
    const PayloadLayout& l = p.layout;
    cuda::TempCarver carve(b.temp, b.temp_bytes);
    const Temp t(carve, plan.original_size, l.element_width, l.frame_size, false);
    const u8* payload = b.container + kContainerHeaderSize;
    cuda::begin_decode_async(b.container, plan.header, b.status, stream);
    const u64 n = l.element_count;
    cuda::FusedCrcTiles crc_tiles{};
    if (n > 0) {
      const u32 max_bits = 8 * l.element_width;
      frame_sizes_kernel<<<cuda::grid_for(l.frame_count + 1), kBlockThreads, 0, stream>>>(
          payload + l.bits_offset, l.frame_count, n, l.frame_size, max_bits, t.sizes, b.status);
      GCB_CUDA_LAUNCHED();
      std::size_t bytes = t.scan.bytes;
      GCB_CUDA(cub::DeviceScan::ExclusiveSum(t.scan.p, bytes, t.sizes, t.offsets, l.frame_count + 1,
                                             stream));
      check_total_kernel<<<1, 1, 0, stream>>>(t.offsets + l.frame_count, l.word_count, b.status);
      GCB_CUDA_LAUNCHED();
      cuda::with_element_type(l.element_width, [&](auto tag) {
        using T = decltype(tag);
        // The decode's arguments for tiles of Args::kRows rows, with the CRC's slots of its tiles.
        const auto args_for = [&]<typename Args>(std::type_identity<Args>) {
          crc_tiles = cuda::crc32_fused_tiles(t.crc, t.crc_bytes, plan.original_size, n * sizeof(T),
                                              Args::kTileBytes, stream);
          return Args{payload + l.bits_offset,
                      t.offsets,
                      l.frame_count,
                      WordReader{payload + l.words_offset, l.word_count},
                      n,
                      l.frame_size,
                      max_bits,
                      reinterpret_cast<T*>(b.output),
                      crc_tiles};
        };
        if (staged_unpack<T>(l.frame_size)) {
          const auto a = args_for(std::type_identity<StagedArgs<T>>{});
          const auto kernel = unpack_staged_kernel<T>;
          const StagedShared shared = staged_shared<T>(p.widest_frame);
          GCB_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(shared.bytes)));
          const unsigned grid =
              cuda::resident_grid(kernel, cuda::kCrcThreads, a.tiles(), shared.bytes);
          kernel<<<grid, cuda::kCrcThreads, shared.bytes, stream>>>(a, shared.stage_bytes);
        } else {
          const auto a = args_for(std::type_identity<UnpackArgs<T, kUnpackRows<T>>>{});
          const auto grid =
              static_cast<unsigned>(std::min<u64>(a.tiles(), cuda::persistent_grid()));
          unpack_kernel<T><<<grid, cuda::kCrcThreads, 0, stream>>>(a);
        }
        GCB_CUDA_LAUNCHED();
      });
    }
    cuda::copy_bytes_async(b.output + n * l.element_width, payload + l.tail_offset, l.tail_size,
                           stream);
    cuda::crc32_async(b.output, plan.original_size, t.crc, t.crc_bytes,
                      {nullptr, b.container + 24, b.status}, stream, crc_tiles);
  }

  std::string describe(const DeviceStatus& s) const override {
    if (s.error == kBadBitWidth)
      return "FL: frame " + std::to_string(s.detail) + " has an invalid bit width";
    if (s.error == kBitsExceedWords) return "FL: frame bit widths do not match the word count";
    return describe_common("fl", s);
  }

 private:
  // Also the CRC-32 tiles of the input's whole tiles and the payload's size.
  static void encode_one_pass(const u8* d_in, u64 n, u32 width, u32 fs, const Temp& t, u8* bits,
                              AlignedWordWriter words, u64 words_offset, cuda::FusedCrcTiles crc,
                              cudaStream_t stream) {
    const int tiles = tile_count(n, width);
    const PackArgs a{
        n,
        static_cast<u32>(std::countr_zero(fs)),
        bits,
        words,
        cuda::init_tile_state_async<u64>(tiles, t.tile_state.p, t.tile_state.bytes, stream),
        crc,
        words_offset,
        t.payload_size};
    cuda::with_element_type(width, [&](auto tag) {
      using T = decltype(tag);
      pack_tiles_kernel<T><<<static_cast<unsigned>(tiles), kBlockThreads, 0, stream>>>(
          reinterpret_cast<const T*>(d_in), a);
      GCB_CUDA_LAUNCHED();
    });
  }

  // Also the CRC-32 tiles of the input's whole OR tiles.
  static void encode(const u8* d_in, u64 n, u32 width, u32 fs, u64 frames, const Temp& t, u8* bits,
                     WordWriter words, cuda::FusedCrcTiles crc, cudaStream_t stream) {
    GCB_CUDA(cudaMemsetAsync(t.frame_or, 0, frames * sizeof(u32), stream));
    const u64 max_words = (n * 8 * width + 31) / 32;
    const u64 max_tiles = (max_words + kPackTile - 1) / kPackTile;
    cuda::with_element_type(width, [&](auto tag) {
      using T = decltype(tag);
      const T* in = reinterpret_cast<const T*>(d_in);
      frame_or_kernel<T>
          <<<cuda::grid_for((n + kOrItems - 1) / kOrItems), kBlockThreads, 0, stream>>>(
              in, n, fs, t.frame_or, crc);
      GCB_CUDA_LAUNCHED();
      frame_bits_kernel<<<cuda::grid_for(frames + 1), kBlockThreads, 0, stream>>>(
          t.frame_or, frames, n, fs, bits, t.sizes);
      GCB_CUDA_LAUNCHED();
      std::size_t bytes = t.scan.bytes;
      GCB_CUDA(
          cub::DeviceScan::ExclusiveSum(t.scan.p, bytes, t.sizes, t.offsets, frames + 1, stream));
      tile_frames_kernel<<<cuda::grid_for(max_tiles), kBlockThreads, 0, stream>>>(
          t.offsets, frames, max_tiles, t.tile_frame);
      GCB_CUDA_LAUNCHED();
      pack_kernel<T><<<cuda::persistent_grid(), kBlockThreads, 0, stream>>>(
          in, n, fs, frames, bits, t.offsets, t.tile_frame, words);
      GCB_CUDA_LAUNCHED();
    });
  }

  CodecInfo info_;
};

}  // namespace

CodecPtr make_gpu_codec() {
  return gcbench::gpu::make_host_codec(std::make_unique<FlDeviceCodec>());
}

}  // namespace gcbench::fl
