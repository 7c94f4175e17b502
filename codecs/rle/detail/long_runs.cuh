#pragma once
// The fix-up both GPU RLE encoders share (the fused one and rle-cub): a run longer than the
// count limit keeps max_count in its slot and is listed here with its true length; the
// encoder's assembly (rle_gpu_encoder.cu) then splits it into pieces as format.hpp says.
#include <cstdint>

#include "codecs/rle/detail/common.cuh"

namespace gcbench::rle::gpu::detail {

// A run longer than the count limit: the encoder stores max_count in its slot and lists the
// true length here; the assembly splits it as format.hpp says.
struct LongRun {
  u64 run;
  u64 length;
};

// The count of run `run`, or max_count with the true length recorded for the host to split.
__device__ __forceinline__ u32 clamp_count(u64 run, u64 length, u64 max_count, LongRun* long_runs,
                                           u32* long_count, u32 capacity) {
  if (length <= max_count) return static_cast<u32>(length);
  u32 slot = atomicAdd(long_count, 1u);
  if (slot < capacity) long_runs[slot] = LongRun{run, length};
  return static_cast<u32>(max_count);
}

// Entries past long_count keep their all-ones fill, so they sort last and add nothing.
struct ByRun {
  __device__ bool operator()(const LongRun& a, const LongRun& b) const { return a.run < b.run; }
};

}  // namespace gcbench::rle::gpu::detail
