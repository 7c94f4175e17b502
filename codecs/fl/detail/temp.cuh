#pragma once
// The temporary storage of FL's GPU encoder and decoder (fl_gpu_encoder.cu, fl_gpu_decoder.cu),
// and what its layout depends on: the frame count, CUB's scan storage, and whether the one-pass
// encoder takes the frame size.
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cstddef>
#include <stdexcept>

#include "codecs/common/crc32.cuh"
#include "src/cuda/cuda_check.hpp"
#include "src/cuda/temp_storage.hpp"
#include "codecs/common/tile_state.cuh"
#include "codecs/fl/detail/common.cuh"

namespace gcbench::fl::gpu::detail {

inline u64 frames_of(u64 n, u32 fs) {
  return n / fs + (n % fs != 0 ? 1 : 0);
}

inline std::size_t scan_bytes(u64 frames) {
  std::size_t bytes = 0;
  GCB_CUDA(cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<const u64*>(nullptr),
                                         static_cast<u64*>(nullptr), frames + 1));
  return bytes;
}

// The one-pass encoder's tiles hold whole frames of at least 32 elements, each thread's
// elements lie in one frame, and so do the 32 elements before a tile.
inline bool one_pass(u32 fs, u32 width) {
  const u32 items = kOnePassWords * 4 / width;
  return u64{kBlockThreads} * items % fs == 0 && fs % std::max(items, 32u) == 0;
}

inline u64 one_pass_tile(u32 width) {
  return u64{kBlockThreads} * kOnePassWords * 4 / width;
}

inline int tile_count(u64 n, u32 width) {
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
      scan = carve.take_bytes(detail::scan_bytes(frames));
    }
    crc_bytes = cuda::crc32_temp_bytes(input_size);
    crc = carve.take<u8>(crc_bytes);
    payload_size = carve.take<u64>(1);
    crc_value = carve.take<u32>(1);
  }
};

}  // namespace gcbench::fl::gpu::detail
