#pragma once
// FL compression in one pass, for frame sizes that divide a tile and hold whole threads'
// elements (fl_gpu_encoder.cu launches it).
#include <cub/agent/single_pass_scan_operators.cuh>
#include <cub/block/block_scan.cuh>

#include "codecs/common/crc32.cuh"
#include "codecs/common/crc32_tile.cuh"
#include "codecs/common/device_elements.cuh"
#include "codecs/common/tile_state.cuh"
#include "codecs/fl/detail/common.cuh"

namespace gcbench::fl::gpu::detail {

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
// or zeroed words (bench/NOTES.md, "FL's pack without zeroed words or atomics").
struct SharedWord {
  u32* word = nullptr;
  u32 bits = 0;
};

// A thread's elements, B bits each, into the tile's words from bit Phase of `word` on (the
// elements past the input's end are zero). Every shift is a constant: a loop over the elements
// with the width at run time ("fill a word, flush it") cost the kernel many instructions
// (bench/NOTES.md, "FL packing with the width at compile time"). Whole words are stored; the
// half of a word shared with the neighbouring thread is returned.
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
// and, from the last tile, the payload's size. The kernel is bound by each tile's latency, so
// six blocks an SM pay, where resident blocks looping over tiles and loading the next ahead
// were slower (bench/NOTES.md, "FL compression in one pass").
template <typename T>
__global__ void __launch_bounds__(kBlockThreads, 6)
    pack_tiles_kernel(const T* __restrict__ in, PackArgs a) {
  static_assert(kBlockThreads == cuda::kCrcThreads);
  __shared__ PackShared<T> s;
  const int tile = static_cast<int>(blockIdx.x);
  const bool last_tile = blockIdx.x == gridDim.x - 1;
  constexpr u32 kItems = kOnePassItems<T>;
  const u64 tile0 = u64(tile) * kOnePassTile<T>;
  // Not tile0 + `at` (below): that fold compiled to a slower schedule (bench/NOTES.md, "FL
  // pack's first element as tile0 + at").
  const u64 i0 = tile0 + u64{threadIdx.x} * kItems;
  u32 w[kOnePassWords];
  load_words(in, a.n, i0, w);
  // Warp 0's lane i: element i before the tile, for the word this tile shares with the previous.
  const T before_tile = tile > 0 && threadIdx.x < 32 ? in[tile0 - 1 - threadIdx.x] : T{0};

  // Shifts, not divisions: 64-bit divisions were a large share of a tile's instructions
  // (bench/NOTES.md, "FL packing with the width at compile time").
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

}  // namespace gcbench::fl::gpu::detail
