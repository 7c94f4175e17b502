// The probe behind codecs/common/crc32_tile.cuh (bench/NOTES.md, "CRC-32 on the tensor cores"):
// 1) b1 m16n8k256 MMA throughput; 2) its fragment layout against a host product; 3) CRC-32 of
// 1 GiB by MMA vs zlib, GB/s vs a plain read. On a device machine, from the repository root:
//   nvcc -std=c++20 -O3 -arch=sm_90 -I. bench/device/crc_mma_probe.cu -o /tmp/probe -lz &&
//   /tmp/probe
// (`/tmp/probe --emu` checks the math on a machine without a GPU).
#include <cuda_runtime.h>
#include <zlib.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "codecs/common/crc32_math.hpp"

using u32 = std::uint32_t;
using u64 = std::uint64_t;
namespace crc = gcbench::crc;

#define CK(x)                                                                       \
  do {                                                                              \
    cudaError_t e = (x);                                                            \
    if (e != cudaSuccess) {                                                         \
      std::printf("CUDA %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); \
      std::exit(1);                                                                 \
    }                                                                               \
  } while (0)

__device__ __forceinline__ void mma_b1(u32 (&c)[4], uint4 a, u32 b0, u32 b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc {%0,%1,%2,%3}, "
      "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
      : "+r"(c[0]), "+r"(c[1]), "+r"(c[2]), "+r"(c[3])
      : "r"(a.x), "r"(a.y), "r"(a.z), "r"(a.w), "r"(b0), "r"(b1));
}

// ---- 1) throughput: 8 independent chains per warp
__global__ void mma_rate(u32* out, int iters) {
  u32 c[8][4] = {};
  uint4 a = make_uint4(threadIdx.x, threadIdx.x * 3, threadIdx.x * 5, threadIdx.x * 7);
  u32 b0 = threadIdx.x * 11, b1 = threadIdx.x * 13;
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int k = 0; k < 8; ++k) mma_b1(c[k], a, b0 + k, b1);
  }
  u32 s = 0;
  for (int k = 0; k < 8; ++k) s += c[k][0] + c[k][1] + c[k][2] + c[k][3];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// ---- 2) probe: one MMA of given fragments
__global__ void mma_once(const uint4* a, const uint2* b, uint4* c) {
  u32 acc[4] = {};
  const uint2 bb = b[threadIdx.x];
  mma_b1(acc, a[threadIdx.x], bb.x, bb.y);
  c[threadIdx.x] = make_uint4(acc[0], acc[1], acc[2], acc[3]);
}

// Host model of the fragments (PTX ISA, mma.m16n8k256 .b1): A row = g (+8 for a1,a3), col =
// t*32 + bit (+128 for a2,a3); B col = g, row = t*32 + bit (+128 for b1); C row = g (+8 for
// c2,c3), col = 2t + (i&1). `msb` says element bit order in a register.
static int bitpos(int b, bool msb) {
  return msb ? 31 - b : b;
}

static bool probe(bool msb) {
  std::mt19937 rng(7);
  std::vector<uint4> a(32);
  std::vector<uint2> b(32);
  for (auto& v : a) v = make_uint4(rng(), rng(), rng(), rng());
  for (auto& v : b) v = make_uint2(rng(), rng());
  // dense matrices
  static int A[16][256], B[256][8];
  for (int lane = 0; lane < 32; ++lane) {
    const int g = lane >> 2, t = lane & 3;
    const u32 ar[4] = {a[lane].x, a[lane].y, a[lane].z, a[lane].w};
    for (int i = 0; i < 4; ++i)
      for (int bit = 0; bit < 32; ++bit)
        A[g + 8 * (i & 1)][t * 32 + 128 * (i >> 1) + bit] = (ar[i] >> bitpos(bit, msb)) & 1;
    const u32 br[2] = {b[lane].x, b[lane].y};
    for (int i = 0; i < 2; ++i)
      for (int bit = 0; bit < 32; ++bit)
        B[t * 32 + 128 * i + bit][g] = (br[i] >> bitpos(bit, msb)) & 1;
  }
  uint4 *da, *dc;
  uint2* db;
  CK(cudaMalloc(&da, 32 * 16));
  CK(cudaMalloc(&db, 32 * 8));
  CK(cudaMalloc(&dc, 32 * 16));
  CK(cudaMemcpy(da, a.data(), 32 * 16, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(db, b.data(), 32 * 8, cudaMemcpyHostToDevice));
  mma_once<<<1, 32>>>(da, db, dc);
  CK(cudaGetLastError());
  std::vector<uint4> c(32);
  CK(cudaMemcpy(c.data(), dc, 32 * 16, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int lane = 0; lane < 32; ++lane) {
    const int g = lane >> 2, t = lane & 3;
    const u32 cr[4] = {c[lane].x, c[lane].y, c[lane].z, c[lane].w};
    for (int i = 0; i < 4; ++i) {
      const int row = g + 8 * (i >> 1), col = 2 * t + (i & 1);
      int s = 0;
      for (int k = 0; k < 256; ++k) s += A[row][k] & B[k][col];
      bad += s != static_cast<int>(cr[i]);
    }
  }
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  std::printf("probe (%s-first): %d of 128 mismatches\n", msb ? "msb" : "lsb", bad);
  return bad == 0;
}

// ---- 3) CRC by MMA. A warp's segment is R rows of 512 bytes; lane l holds bytes [16l, 16l+16)
// of each row. Column n of B = lanes 4n..4n+3 = bytes [64n, 64n+64) of a row. MMA p (0: x,y;
// 1: z,w) and half h (CRC bits 16h..16h+15), A[r][p][h] in shared memory.
template <int R>
__global__ void __launch_bounds__(256)
    crc_mma(const uint4* __restrict__ in, u64 segments, const uint4* __restrict__ a_table,
            const u32* __restrict__ col_shift_basis, u32* __restrict__ out) {
  constexpr int kA = R * 2 * 2 * 32;
  __shared__ uint4 a_s[kA];
  __shared__ u32 basis_s[8][32];
  for (int i = threadIdx.x; i < kA; i += blockDim.x) a_s[i] = a_table[i];
  for (int i = threadIdx.x; i < 256; i += blockDim.x) basis_s[i / 32][i % 32] = col_shift_basis[i];
  __syncthreads();
  const int lane = threadIdx.x % 32;
  const u64 warps = u64{gridDim.x} * (blockDim.x / 32);
  for (u64 seg = u64{blockIdx.x} * (blockDim.x / 32) + threadIdx.x / 32; seg < segments;
       seg += warps) {
    const uint4* p = in + seg * (R * 32) + lane;
    u32 acc[2][4] = {};
    uint4 v[R];
#pragma unroll
    for (int r = 0; r < R; ++r) v[r] = __ldg(p + r * 32);
#pragma unroll
    for (int r = 0; r < R; ++r) {
#pragma unroll
      for (int pp = 0; pp < 2; ++pp) {
        const u32 b0 = pp ? v[r].z : v[r].x;
        const u32 b1 = pp ? v[r].w : v[r].y;
#pragma unroll
        for (int h = 0; h < 2; ++h) mma_b1(acc[h], a_s[((r * 2 + pp) * 2 + h) * 32 + lane], b0, b1);
      }
    }
    // Lane (g, t) holds bits 16h + g (c0: col 2t, c1: col 2t+1) and 16h + g + 8 (c2, c3).
    const int g = lane >> 2, t = lane & 3;
    u32 x0 = 0, x1 = 0;  // partial X for columns 2t and 2t+1
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      x0 |= (acc[h][0] & 1u) << (16 * h + g) | (acc[h][2] & 1u) << (16 * h + g + 8);
      x1 |= (acc[h][1] & 1u) << (16 * h + g) | (acc[h][3] & 1u) << (16 * h + g + 8);
    }
#pragma unroll
    for (int m = 4; m < 32; m <<= 1) {
      x0 |= __shfl_xor_sync(0xFFFFFFFFu, x0, m);
      x1 |= __shfl_xor_sync(0xFFFFFFFFu, x1, m);
    }
    // Lanes t (g == 0) shift columns 2t, 2t+1 by 64 * (7 - n) bytes and xor.
    u32 y = 0;
    if (g == 0) {
      for (int j = 0; j < 2; ++j) {
        const u32 x = j ? x1 : x0;
        const int n = 2 * t + j;
        for (int bit = 0; bit < 32; ++bit)
          if (x >> bit & 1) y ^= basis_s[n][bit];
      }
    }
    y ^= __shfl_xor_sync(0xFFFFFFFFu, y, 1);
    y ^= __shfl_xor_sync(0xFFFFFFFFu, y, 2);
    if (lane == 0) out[seg] = y;
  }
}

__global__ void read_all(const uint4* __restrict__ in, u64 n, u32* out) {
  u32 s = 0;
  for (u64 i = u64{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += u64{gridDim.x} * blockDim.x) {
    const uint4 v = __ldg(in + i);
    s ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (s == 0x12345678u) out[0] = s;
}

template <int R>
static std::vector<uint4> make_a_table(bool msb) {
  const u64 seg_bytes = u64{R} * 512;
  (void)seg_bytes;
  std::vector<uint4> tab(R * 2 * 2 * 32);
  u32 tbit[8];
  for (int j = 0; j < 8; ++j) tbit[j] = crc::update_byte(0, static_cast<std::uint8_t>(1u << j));
  for (int r = 0; r < R; ++r)
    for (int pp = 0; pp < 2; ++pp)
      for (int h = 0; h < 2; ++h)
        for (int lane = 0; lane < 32; ++lane) {
          const int g = lane >> 2, t = lane & 3;
          u32 regs[4] = {};
          for (int i = 0; i < 4; ++i) {
            const int m = 16 * h + g + 8 * (i & 1);
            for (int bit = 0; bit < 32; ++bit) {
              const int k = t * 32 + 128 * (i >> 1) + bit;
              // B's element k of column n: lane 4n + (k%128)/32, register (k/128), bit k%32.
              const int tt = (k % 128) / 32, reg = k / 128, kb = k % 32;
              const int word = 2 * pp + reg;              // x, y, z, w
              const int pb = bitpos(kb, msb);             // the element's bit in the data word
              const int q = 16 * tt + 4 * word + pb / 8;  // byte in the column's 64
              const u64 dist = u64{512} * (R - 1 - r) + (63 - q);
              const u32 contrib = crc::shift(tbit[pb % 8], dist);
              if (contrib >> m & 1) regs[i] |= 1u << bitpos(bit, msb);
            }
          }
          tab[((r * 2 + pp) * 2 + h) * 32 + lane] = make_uint4(regs[0], regs[1], regs[2], regs[3]);
        }
  return tab;
}

static std::vector<u32> make_col_basis() {
  std::vector<u32> b(256);
  for (int n = 0; n < 8; ++n)
    for (int bit = 0; bit < 32; ++bit) b[n * 32 + bit] = crc::shift(1u << bit, u64{64} * (7 - n));
  return b;
}

template <int R>
static void run_crc(const uint4* d_in, u64 bytes, u32 want, bool msb, int blocks_per_sm, int sms,
                    double read_gbps) {
  const u64 seg_bytes = u64{R} * 512;
  const u64 segments = bytes / seg_bytes;
  auto tab = make_a_table<R>(msb);
  auto basis = make_col_basis();
  uint4* d_tab;
  u32 *d_basis, *d_out;
  CK(cudaMalloc(&d_tab, tab.size() * 16));
  CK(cudaMalloc(&d_basis, 256 * 4));
  CK(cudaMalloc(&d_out, segments * 4));
  CK(cudaMemcpy(d_tab, tab.data(), tab.size() * 16, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(d_basis, basis.data(), 256 * 4, cudaMemcpyHostToDevice));
  const int grid = sms * blocks_per_sm;
  crc_mma<R><<<grid, 256>>>(d_in, segments, d_tab, d_basis, d_out);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  float best = 1e9;
  for (int rep = 0; rep < 10; ++rep) {
    CK(cudaEventRecord(e0));
    crc_mma<R><<<grid, 256>>>(d_in, segments, d_tab, d_basis, d_out);
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float ms;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    if (ms < best) best = ms;
  }
  std::vector<u32> seg(segments);
  CK(cudaMemcpy(seg.data(), d_out, segments * 4, cudaMemcpyDeviceToHost));
  // Combine on the host (Horner by the segment length).
  const u32 step = crc::x8nmodp(seg_bytes);
  u32 raw = 0;
  for (u64 s = 0; s < segments; ++s) raw = crc::multmodp(step, raw) ^ seg[s];
  const u32 got = crc::finish(raw, segments * seg_bytes);
  const double gbps = segments * seg_bytes / (best * 1e-3) / 1e9;
  std::printf(
      "crc_mma R=%2d %s blocks/SM=%d: %.3f ms, %.0f GB/s (%.0f%% of read), crc %08x want %08x %s\n",
      R, msb ? "msb" : "lsb", blocks_per_sm, best, gbps, 100 * gbps / read_gbps, got, want,
      got == want ? "OK" : "MISMATCH");
  cudaFree(d_tab);
  cudaFree(d_basis);
  cudaFree(d_out);
}

// Host emulation of crc_mma's math under the probe's layout model (checks the tables here,
// where there is no GPU).
template <int R>
static bool emulate(bool msb) {
  const auto tab = make_a_table<R>(msb);
  const auto basis = make_col_basis();
  const u64 segs = 3, seg_bytes = u64{R} * 512;
  std::vector<std::uint8_t> data(segs * seg_bytes);
  std::mt19937 rng(3);
  for (auto& b : data) b = static_cast<std::uint8_t>(rng());
  u32 raw = 0;
  for (u64 s = 0; s < segs; ++s) {
    int acc[2][16][8] = {};
    for (int r = 0; r < R; ++r)
      for (int pp = 0; pp < 2; ++pp)
        for (int h = 0; h < 2; ++h) {
          int A[16][256] = {}, B[256][8] = {};
          for (int lane = 0; lane < 32; ++lane) {
            const int g = lane >> 2, t = lane & 3;
            const uint4 a = tab[((r * 2 + pp) * 2 + h) * 32 + lane];
            const u32 ar[4] = {a.x, a.y, a.z, a.w};
            u32 w[4];
            std::memcpy(w, data.data() + s * seg_bytes + r * 512 + lane * 16, 16);
            const u32 br[2] = {pp ? w[2] : w[0], pp ? w[3] : w[1]};
            for (int i = 0; i < 4; ++i)
              for (int bit = 0; bit < 32; ++bit)
                A[g + 8 * (i & 1)][t * 32 + 128 * (i >> 1) + bit] = (ar[i] >> bitpos(bit, msb)) & 1;
            for (int i = 0; i < 2; ++i)
              for (int bit = 0; bit < 32; ++bit)
                B[t * 32 + 128 * i + bit][g] = (br[i] >> bitpos(bit, msb)) & 1;
          }
          for (int m = 0; m < 16; ++m)
            for (int n = 0; n < 8; ++n)
              for (int k = 0; k < 256; ++k) acc[h][m][n] += A[m][k] & B[k][n];
        }
    u32 y = 0;
    for (int n = 0; n < 8; ++n) {
      u32 x = 0;
      for (int h = 0; h < 2; ++h)
        for (int m = 0; m < 16; ++m) x |= u32(acc[h][m][n] & 1) << (16 * h + m);
      for (int bit = 0; bit < 32; ++bit)
        if (x >> bit & 1) y ^= basis[n * 32 + bit];
    }
    raw = crc::multmodp(crc::x8nmodp(seg_bytes), raw) ^ y;
  }
  const u32 got = crc::finish(raw, data.size());
  const u32 want = static_cast<u32>(crc32(0, data.data(), static_cast<uInt>(data.size())));
  std::printf("emulated R=%d %s: %08x want %08x %s\n", R, msb ? "msb" : "lsb", got, want,
              got == want ? "OK" : "MISMATCH");
  return got == want;
}

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--emu") == 0) {
    const bool ok = emulate<8>(false) & emulate<8>(true) & emulate<2>(false);
    return ok ? 0 : 1;
  }
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  const int sms = prop.multiProcessorCount;
  std::printf("%s, %d SMs\n", prop.name, sms);
  // 1) rate
  {
    u32* d;
    CK(cudaMalloc(&d, sms * 8 * 256 * 4));
    const int iters = 4096;
    mma_rate<<<sms * 8, 256>>>(d, 16);
    CK(cudaDeviceSynchronize());
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    CK(cudaEventRecord(e0));
    mma_rate<<<sms * 8, 256>>>(d, iters);
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    CK(cudaGetLastError());
    float ms;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    const double mmas = double(sms) * 8 * 8 * iters * 8;  // blocks * warps * iters * chains
    int clk_khz;
    CK(cudaDeviceGetAttribute(&clk_khz, cudaDevAttrClockRate, 0));
    std::printf("b1 m16n8k256: %.1f ms, %.2f Tmma/s, %.2f MMA/clk/SM at %d MHz (%.0f Tbitop/s)\n",
                ms, mmas / (ms * 1e-3) / 1e12, mmas / (ms * 1e-3) / (clk_khz * 1e3) / sms,
                clk_khz / 1000, mmas * 16 * 8 * 256 * 2 / (ms * 1e-3) / 1e12);
    cudaFree(d);
  }
  // 2) layout
  const bool lsb = probe(false);
  const bool msb = probe(true);
  // 3) CRC of 1 GiB
  const u64 bytes = u64{1} << 30;
  std::vector<std::uint8_t> host(bytes);
  std::mt19937_64 rng(42);
  for (u64 i = 0; i < bytes; i += 8) {
    const u64 v = rng();
    std::memcpy(host.data() + i, &v, 8);
  }
  uint4* d_in;
  u32* d_sink;
  CK(cudaMalloc(&d_in, bytes));
  CK(cudaMalloc(&d_sink, 4));
  CK(cudaMemcpy(d_in, host.data(), bytes, cudaMemcpyHostToDevice));
  float best = 1e9;
  {
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    for (int rep = 0; rep < 10; ++rep) {
      CK(cudaEventRecord(e0));
      read_all<<<sms * 8, 256>>>(d_in, bytes / 16, d_sink);
      CK(cudaEventRecord(e1));
      CK(cudaEventSynchronize(e1));
      float ms;
      CK(cudaEventElapsedTime(&ms, e0, e1));
      if (ms < best) best = ms;
    }
  }
  // Both segment sizes divide 1 GiB; zlib's uInt length holds 1 GiB.
  const u32 want = static_cast<u32>(crc32(0, host.data(), static_cast<uInt>(bytes)));
  const double read_gbps = bytes / (best * 1e-3) / 1e9;
  std::printf("read 1 GiB: %.3f ms, %.0f GB/s\n", best, read_gbps);
  for (bool order : {false, true}) {
    if ((order ? msb : lsb) == false) continue;
    for (int bps : {2, 4, 8}) {
      run_crc<8>(d_in, bytes, want, order, bps, sms, read_gbps);
      run_crc<16>(d_in, bytes, want, order, bps, sms, read_gbps);
    }
  }
  return 0;
}
