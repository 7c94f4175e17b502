#pragma once
// The tile status array of CUB's decoupled look-back (cub::ScanTileState), which the one-pass
// encoders (FL's pack_tiles_kernel, RLE's encode_kernel) pass from tile to tile: its size in
// the caller's temporary storage, and its set-up in the stream before the scan's kernel.
#include <cub/agent/single_pass_scan_operators.cuh>

#include "codecs/common/cuda_check.hpp"
#include "codecs/common/device_elements.cuh"

namespace gcbench::cuda {

template <typename Item>
std::size_t tile_state_bytes(int tiles) {
  std::size_t bytes = 0;
  GCB_CUDA(cub::ScanTileState<Item>::AllocationSize(tiles, bytes));
  return bytes;
}

template <typename Item>
__global__ void init_tile_state_kernel(cub::ScanTileState<Item> state, int tiles) {
  state.InitializeStatus(tiles);
}

// The state of `tiles` tiles over storage of tile_state_bytes<Item>(tiles) bytes, every tile
// marked not yet available, in the stream's order.
template <typename Item>
cub::ScanTileState<Item> init_tile_state_async(int tiles, void* storage, std::size_t bytes,
                                               cudaStream_t stream) {
  cub::ScanTileState<Item> state;
  GCB_CUDA(state.Init(tiles, storage, bytes));
  init_tile_state_kernel<Item>
      <<<grid_for(static_cast<std::uint64_t>(tiles)), kBlockThreads, 0, stream>>>(state, tiles);
  GCB_CUDA_LAUNCHED();
  return state;
}

}  // namespace gcbench::cuda
