#pragma once
// The tile status array of CUB's decoupled look-back (cub::ScanTileState), which the one-pass
// encoders (FL's pack_tiles_kernel, RLE's encode_kernel) pass from tile to tile: its size in
// the caller's temporary storage, its set-up in the stream before the scan's kernel, and the
// look-back split in two (LateLookBack).
#include <cub/agent/single_pass_scan_operators.cuh>

#include "src/cuda/cuda_check.hpp"
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

// CUB's look-back (TilePrefixCallbackOp) publishes a tile's aggregate and then waits for its
// predecessors in one call. A one-pass encoder's warp 0 splits the two, so that its own share of
// the tile's work runs while the predecessors finish: publish() as soon as the aggregate is
// known (the tiles after this one wait for it), prefix() when the block needs the tile's start.
template <typename Item, typename Op>
struct LateLookBack {
  using Callback = cub::TilePrefixCallbackOp<Item, Op, cub::ScanTileState<Item>>;
  using TempStorage = typename Callback::TempStorage;

  cub::ScanTileState<Item> state;
  int tile;

  // Thread 0 publishes; tile 0's aggregate is already its inclusive prefix.
  __device__ __forceinline__ void publish(Item aggregate) {
    if (threadIdx.x != 0) return;
    if (tile == 0) {
      state.SetInclusive(0, aggregate);
    } else {
      state.SetPartial(tile, aggregate);
    }
  }

  // The tiles before this one, combined, in lane 0 (the other lanes hold window partials); every
  // lane of warp 0 calls it, after publish() (CUB's callback publishes the same value again).
  // Tile 0 gets `none`.
  __device__ __forceinline__ Item prefix(TempStorage& storage, Item aggregate, Item none) {
    if (tile == 0) return none;
    return Callback(state, storage, Op{}, tile)(aggregate);
  }
};

}  // namespace gcbench::cuda
