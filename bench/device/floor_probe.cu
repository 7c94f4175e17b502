// The byte floors of issue 14, measured (bench/NOTES.md, "the byte floors measured"): how fast this
// GPU moves a decoder's traffic (a byte written per output byte plus a quarter read: FL and RLE at
// width 4, runs of 8), an encoder's (the reverse), a copy, a pure write and a pure read, by the
// same 16-byte vector kernels at 4, 8 and 16 blocks an SM; rates count output bytes for the decoder
// shape, input bytes otherwise. From the repository root:
//   nvcc -std=c++20 -O3 -arch=sm_90 -I. -Iinclude bench/device/floor_probe.cu -o /tmp/floor &&
//   /tmp/floor
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "src/cuda/cuda_check.hpp"

using u64 = std::uint64_t;

constexpr int kThreads = 256;

__global__ void copy_kernel(const uint4* __restrict__ in, uint4* __restrict__ out, u64 vectors) {
  for (u64 i = u64{blockIdx.x} * kThreads + threadIdx.x; i < vectors;
       i += u64{gridDim.x} * kThreads)
    out[i] = in[i];
}

__global__ void fill_kernel(uint4* __restrict__ out, u64 vectors) {
  for (u64 i = u64{blockIdx.x} * kThreads + threadIdx.x; i < vectors;
       i += u64{gridDim.x} * kThreads)
    out[i] = make_uint4(static_cast<unsigned>(i), 1, 2, 3);
}

__global__ void read_kernel(const uint4* __restrict__ in, u64 vectors, unsigned* sink) {
  unsigned acc = 0;
  for (u64 i = u64{blockIdx.x} * kThreads + threadIdx.x; i < vectors;
       i += u64{gridDim.x} * kThreads) {
    const uint4 v = in[i];
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x12345678u) *sink = acc;  // keeps the loads
}

// Each warp reads 32 vectors and writes 4 x 32 (coalesced): one byte read per 4 written.
__global__ void expand_kernel(const uint4* __restrict__ in, uint4* __restrict__ out,
                              u64 in_vectors) {
  const unsigned lane = threadIdx.x % 32;
  for (u64 i = u64{blockIdx.x} * kThreads + threadIdx.x; i < in_vectors;
       i += u64{gridDim.x} * kThreads) {
    const uint4 v = in[i];
    uint4* o = out + (i - lane) * 4 + lane;
#pragma unroll
    for (int j = 0; j < 4; ++j) o[32 * j] = make_uint4(v.x + j, v.y, v.z, v.w);
  }
}

// Each warp reads 4 x 32 vectors and writes 32: four bytes read per one written.
__global__ void reduce_kernel(const uint4* __restrict__ in, uint4* __restrict__ out,
                              u64 out_vectors) {
  const unsigned lane = threadIdx.x % 32;
  for (u64 i = u64{blockIdx.x} * kThreads + threadIdx.x; i < out_vectors;
       i += u64{gridDim.x} * kThreads) {
    const uint4* p = in + (i - lane) * 4 + lane;
    uint4 a = p[0];
#pragma unroll
    for (int j = 1; j < 4; ++j) {
      const uint4 b = p[32 * j];
      a = make_uint4(a.x ^ b.x, a.y ^ b.y, a.z ^ b.z, a.w ^ b.w);
    }
    out[i] = a;
  }
}

template <typename F>
float best_ms(F launch, int reps) {
  cudaEvent_t a, b;
  GCB_CUDA(cudaEventCreate(&a));
  GCB_CUDA(cudaEventCreate(&b));
  float best = 1e30f;
  for (int r = 0; r < reps; ++r) {
    GCB_CUDA(cudaEventRecord(a));
    launch();
    GCB_CUDA_LAUNCHED();
    GCB_CUDA(cudaEventRecord(b));
    GCB_CUDA(cudaEventSynchronize(b));
    float ms = 0;
    GCB_CUDA(cudaEventElapsedTime(&ms, a, b));
    best = std::min(best, ms);
  }
  GCB_CUDA(cudaEventDestroy(a));
  GCB_CUDA(cudaEventDestroy(b));
  return best;
}

int main() {
  constexpr u64 kBytes = u64{1} << 30;
  constexpr u64 kVectors = kBytes / 16;
  uint4 *big_a, *big_b, *quarter;
  unsigned* sink;
  GCB_CUDA(cudaMalloc(&big_a, kBytes));
  GCB_CUDA(cudaMalloc(&big_b, kBytes));
  GCB_CUDA(cudaMalloc(&quarter, kBytes / 4));
  GCB_CUDA(cudaMalloc(&sink, 4));
  GCB_CUDA(cudaMemset(big_a, 1, kBytes));
  GCB_CUDA(cudaMemset(quarter, 2, kBytes / 4));
  int sms = 0, device = 0;
  GCB_CUDA(cudaGetDevice(&device));
  GCB_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  cudaDeviceProp prop;
  GCB_CUDA(cudaGetDeviceProperties(&prop, device));
  std::printf("%s, %d SMs; 1 GiB, best of 20, GB/s of the bytes named\n", prop.name, sms);
  const int reps = 20;
  for (int per_sm : {4, 8, 16}) {
    const int grid = sms * per_sm;
    const double copy =
        kBytes / 1e6 /
        best_ms([&] { copy_kernel<<<grid, kThreads>>>(big_a, big_b, kVectors); }, reps);
    const double fill =
        kBytes / 1e6 / best_ms([&] { fill_kernel<<<grid, kThreads>>>(big_b, kVectors); }, reps);
    const double read =
        kBytes / 1e6 /
        best_ms([&] { read_kernel<<<grid, kThreads>>>(big_a, kVectors, sink); }, reps);
    const double expand =
        kBytes / 1e6 /
        best_ms([&] { expand_kernel<<<grid, kThreads>>>(quarter, big_b, kVectors / 4); }, reps);
    const double reduce =
        kBytes / 1e6 /
        best_ms([&] { reduce_kernel<<<grid, kThreads>>>(big_a, quarter, kVectors / 4); }, reps);
    std::printf(
        "%2d blocks/SM: copy %7.1f (in)  write %7.1f  read %7.1f  expand 1:4 %7.1f (out, %5.1f%% "
        "of copy)  "
        "reduce 4:1 %7.1f (in, %5.1f%% of copy)\n",
        per_sm, copy, fill, read, expand, 100 * expand / copy, reduce, 100 * reduce / copy);
  }
  const double memset =
      kBytes / 1e6 / best_ms([&] { GCB_CUDA(cudaMemsetAsync(big_b, 0, kBytes)); }, reps);
  const double memcpy =
      kBytes / 1e6 /
      best_ms([&] { GCB_CUDA(cudaMemcpyAsync(big_b, big_a, kBytes, cudaMemcpyDeviceToDevice)); },
              reps);
  std::printf("cudaMemsetAsync %7.1f  cudaMemcpyAsync D2D %7.1f (in)\n", memset, memcpy);
  return 0;
}
