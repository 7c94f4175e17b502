// deltapack's device path: the host path's bytes (deltapack_cpu.c), written and read on the
// GPU in the shape the plugin ABI asks for (temporary storage queried first, work enqueued on
// the caller's stream, sizes and status in device memory). Kept plain, as an example:
//   compress    one thread block per deltapack block finds its widest delta (table entry and
//               packed size), a CUB scan places the blocks, then one thread per output word
//               gathers the deltas that fall into it;
//   decompress  the packed sizes from the table's widths, a CUB scan, one check of the total
//               against the container's size, then one thread block per deltapack block
//               unpacks its deltas and sums them with a block-wide scan; the checksum last.
// Both directions sum the checksum's terms as they pass the original words.
#include <cub/cub.cuh>

#include <cstdio>

#include "deltapack.h"

namespace {

using u8 = std::uint8_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

constexpr int kThreads = 256;
// gcbench's shared code for a checksum mismatch, then codes of deltapack's own (from 16).
enum : u32 { kChecksumMismatch = 2, kWidthAbove32 = 17, kSizeMismatch = 18, kPadding = 19 };

__device__ u32 load_u32(const u8* p) {
  if ((reinterpret_cast<std::uintptr_t>(p) & 3) == 0) return *reinterpret_cast<const u32*>(p);
  return u32{p[0]} | u32{p[1]} << 8 | u32{p[2]} << 16 | u32{p[3]} << 24;
}

__device__ void store_u32(u8* p, u32 v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<u8>(v >> (8 * i));
}

__device__ void store_u64(u8* p, u64 v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<u8>(v >> (8 * i));
}

// The delta of element i (i >= 1) of the block starting at `block`, zigzag-coded.
__device__ u32 zigzag_delta(const u8* block, u64 i) {
  return deltapack_zigzag(load_u32(block + 4 * i) - load_u32(block + 4 * (i - 1)));
}

struct Layout {
  u64 elements;
  u64 block_size;
  u64 blocks;
  u8* table;  // the output's (or container's) block table
};

__host__ __device__ Layout layout(u64 original_size, u64 block_size, const u8* container) {
  const u64 elements = original_size / 4;
  const u64 blocks = deltapack_block_count(elements, block_size);
  return {elements, block_size, blocks, const_cast<u8*>(container) + DELTAPACK_HEADER_SIZE};
}

// Adds this thread block's checksum terms, summed, to *checksum (thread 0 once).
__device__ void add_to_checksum(u64 mine, u64* checksum) {
  using Reduce = cub::BlockReduce<u64, kThreads>;
  __shared__ typename Reduce::TempStorage reduce;
  const u64 sum = Reduce(reduce).Sum(mine);
  if (threadIdx.x == 0) atomicAdd(reinterpret_cast<unsigned long long*>(checksum), sum);
}

__global__ void measure_kernel(const u8* input, Layout l, u64* packed_sizes, u64* checksum) {
  const u64 b = blockIdx.x;
  const u64 begin = b * l.block_size;
  const u64 count = deltapack_block_elements(l.elements, l.block_size, b);
  const u8* block = input + 4 * begin;
  __shared__ u32 widest;
  if (threadIdx.x == 0) widest = 0;
  __syncthreads();
  u32 mine = 0;
  u64 terms = 0;
  for (u64 i = threadIdx.x; i < count; i += blockDim.x) {
    terms += deltapack_term(begin + i, load_u32(block + 4 * i));
    if (i > 0) mine |= zigzag_delta(block, i);
  }
  atomicOr(&widest, mine);
  add_to_checksum(terms, checksum);
  __syncthreads();  // every thread's atomicOr done
  if (threadIdx.x != 0) return;
  const int width = deltapack_width(widest);
  u8* entry = l.table + DELTAPACK_ENTRY_SIZE * b;
  store_u32(entry, load_u32(block));
  entry[4] = static_cast<u8>(width);
  packed_sizes[b] = deltapack_packed_bytes(count, width);
}

// The padded tail's term: the checksum's last (deltapack_cpu.c's checksum()).
__device__ u64 tail_term(const u8* tail, u64 original_size) {
  u32 word = 0;
  for (u64 i = 0; i < original_size % 4; ++i) word |= u32{tail[i]} << (8 * i);
  return deltapack_term(original_size / 4, word);
}

// Word j of block b's packed deltas: every delta whose bits fall into bits 32j..32j+31.
__global__ void pack_kernel(const u8* input, Layout l, const u64* offsets, const u64* packed_sizes,
                            u8* data) {
  const u64 b = blockIdx.x;
  const u64 count = deltapack_block_elements(l.elements, l.block_size, b);
  const int width = l.table[DELTAPACK_ENTRY_SIZE * b + 4];
  const u64 bytes = packed_sizes[b];
  if (width == 0) return;
  const u8* block = input + 4 * b * l.block_size;
  for (u64 j = threadIdx.x; 4 * j < bytes; j += blockDim.x) {
    const u64 first_bit = 32 * j;
    const u64 last_delta = min((first_bit + 31) / width, count - 2);
    u32 word = 0;
    for (u64 d = first_bit / width; d <= last_delta; ++d) {
      const u64 z = zigzag_delta(block, d + 1);
      const long long shift = static_cast<long long>(d * width) - static_cast<long long>(first_bit);
      word |= shift >= 0 ? static_cast<u32>(z << shift) : static_cast<u32>(z >> -shift);
    }
    for (u64 k = 0; k < 4 && 4 * j + k < bytes; ++k) {
      data[offsets[b] + 4 * j + k] = static_cast<u8>(word >> (8 * k));
    }
  }
}

// The header, the unpacked tail and the container's size, once the blocks are placed.
__global__ void finish_compress_kernel(const u8* input, u64 input_size, Layout l,
                                       const u64* offsets, const u64* packed_sizes,
                                       const u64* checksum, u8* output, u64* output_size) {
  for (int i = 0; i < 4; ++i) output[i] = static_cast<u8>(DELTAPACK_MAGIC[i]);
  store_u32(output + 4, static_cast<u32>(l.block_size));
  store_u64(output + 8, input_size);
  store_u64(output + 16, *checksum + tail_term(input + 4 * l.elements, input_size));
  const u64 packed = l.blocks == 0 ? 0 : offsets[l.blocks - 1] + packed_sizes[l.blocks - 1];
  u8* tail = output + DELTAPACK_HEADER_SIZE + DELTAPACK_ENTRY_SIZE * l.blocks + packed;
  for (u64 i = 0; i < input_size % 4; ++i) tail[i] = input[4 * l.elements + i];
  *output_size = static_cast<u64>(tail - output) + input_size % 4;
}

__device__ void fail(gcbench_plugin_device_status* status, u32 error, u64 detail) {
  if (atomicCAS(&status->error, 0u, error) == 0) status->detail = detail;
}

__global__ void sizes_kernel(Layout l, u64* packed_sizes, gcbench_plugin_device_status* status) {
  const u64 b = blockIdx.x * u64{blockDim.x} + threadIdx.x;
  if (b >= l.blocks) return;
  const int width = l.table[DELTAPACK_ENTRY_SIZE * b + 4];
  if (width > 32) fail(status, kWidthAbove32, b);
  const u64 count = deltapack_block_elements(l.elements, l.block_size, b);
  packed_sizes[b] = width > 32 ? 0 : deltapack_packed_bytes(count, width);
}

// The packed blocks and the tail must fill the container exactly: the decode kernel then
// reads nothing outside it. Copies the tail.
__global__ void check_kernel(const u8* container, u64 container_size, u64 original_size, Layout l,
                             const u64* offsets, const u64* packed_sizes, u8* output,
                             gcbench_plugin_device_status* status) {
  const u64 packed = l.blocks == 0 ? 0 : offsets[l.blocks - 1] + packed_sizes[l.blocks - 1];
  const u64 data = DELTAPACK_HEADER_SIZE + DELTAPACK_ENTRY_SIZE * l.blocks;
  if (data + packed + original_size % 4 != container_size) {
    fail(status, kSizeMismatch, data + packed + original_size % 4);
    return;
  }
  for (u64 i = 0; i < original_size % 4; ++i) {
    output[4 * l.elements + i] = container[data + packed + i];
  }
}

// The decoded bytes' checksum against the container's; the decoded size once they match.
__global__ void verify_kernel(const u8* container, u64 original_size, const u8* output,
                              const u64* checksum, gcbench_plugin_device_status* status) {
  if (status->error != 0) return;
  u64 expected = 0;
  for (int i = 0; i < 8; ++i) expected |= u64{container[16 + i]} << (8 * i);
  if (*checksum + tail_term(output + original_size / 4 * 4, original_size) != expected) {
    fail(status, kChecksumMismatch, 0);
  } else {
    status->size = original_size;
  }
}

__global__ void decode_kernel(Layout l, const u64* offsets, const u64* packed_sizes, u8* output,
                              u64* checksum, gcbench_plugin_device_status* status) {
  if (status->error != 0) return;
  using Scan = cub::BlockScan<u32, kThreads>;
  __shared__ typename Scan::TempStorage scan;
  const u64 b = blockIdx.x;
  const u64 count = deltapack_block_elements(l.elements, l.block_size, b);
  const u8* entry = l.table + DELTAPACK_ENTRY_SIZE * b;
  const int width = entry[4];
  const u64 bytes = packed_sizes[b];
  const u8* data = l.table + DELTAPACK_ENTRY_SIZE * l.blocks + offsets[b];
  const u32 mask = width == 32 ? ~0u : (1u << width) - 1;
  // One container per input: the last byte's unused bits are zero.
  const u64 used_bits = count == 0 ? 0 : (count - 1) * width;
  if (threadIdx.x == 0 && used_bits % 8 != 0 && data[bytes - 1] >> (used_bits % 8) != 0) {
    fail(status, kPadding, b);
  }
  const u64 begin = b * l.block_size;
  u8* out = output + 4 * begin;
  u32 carry = 0;
  u64 terms = 0;
  for (u64 tile = 0; tile < count; tile += kThreads) {
    const u64 i = tile + threadIdx.x;
    u32 delta = 0;
    if (i == 0) {
      delta = u32{entry[0]} | u32{entry[1]} << 8 | u32{entry[2]} << 16 | u32{entry[3]} << 24;
    } else if (i < count && width > 0) {
      const u64 bit = (i - 1) * width;
      u64 bits = 0;
      for (u64 k = 0; k < 5 && bit / 8 + k < bytes; ++k) bits |= u64{data[bit / 8 + k]} << (8 * k);
      delta = deltapack_unzigzag(static_cast<u32>(bits >> (bit % 8)) & mask);
    }
    u32 value = 0, tile_sum = 0;
    Scan(scan).InclusiveSum(delta, value, tile_sum);
    __syncthreads();  // the scan's storage is used again by the next tile
    if (i < count) {
      store_u32(out + 4 * i, carry + value);
      terms += deltapack_term(begin + i, carry + value);
    }
    carry += tile_sum;
  }
  add_to_checksum(terms, checksum);
}

// Temporary storage: the checksum's sum, packed sizes, their offsets, CUB's scan storage,
// each 256-byte aligned.
struct Temp {
  u64* checksum;
  u64* packed_sizes;
  u64* offsets;
  void* scan;
  std::size_t scan_bytes;
};

std::size_t align256(std::size_t n) {
  return (n + 255) & ~std::size_t{255};
}

std::size_t scan_bytes(u64 blocks) {
  std::size_t bytes = 0;
  cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<const u64*>(nullptr),
                                static_cast<u64*>(nullptr), static_cast<int>(blocks));
  return bytes;
}

std::size_t temp_bytes_for(u64 blocks) {
  return 256 + 2 * align256(blocks * sizeof(u64)) + align256(scan_bytes(blocks));
}

Temp carve(void* temp, u64 blocks) {
  auto* base = static_cast<u8*>(temp);
  const std::size_t sizes = align256(blocks * sizeof(u64));
  return {reinterpret_cast<u64*>(base), reinterpret_cast<u64*>(base + 256),
          reinterpret_cast<u64*>(base + 256 + sizes), base + 256 + 2 * sizes,
          align256(scan_bytes(blocks))};
}

int cuda_status(cudaError_t error, char* message, std::size_t capacity) {
  if (error == cudaSuccess) return GCBENCH_PLUGIN_OK;
  std::snprintf(message, capacity, "%s", cudaGetErrorString(error));
  return GCBENCH_PLUGIN_ERROR_INTERNAL;
}

u64 blocks_of(u64 input_size, u64 block_size) {
  return deltapack_block_count(input_size / 4, block_size);
}

std::size_t compress_temp_bytes(const std::int64_t* params, u64 input_size) {
  return temp_bytes_for(blocks_of(input_size, static_cast<u64>(params[0])));
}

int compress_async(const std::int64_t* params, const u8* input, u64 input_size, void* temp,
                   std::size_t /*temp_bytes*/, u8* output, u64* output_size, void* stream_handle,
                   char* message, std::size_t capacity) {
  auto stream = static_cast<cudaStream_t>(stream_handle);
  const Layout l = layout(input_size, static_cast<u64>(params[0]), output);
  const Temp t = carve(temp, l.blocks);
  u8* data = l.table + DELTAPACK_ENTRY_SIZE * l.blocks;
  cudaError_t error = cudaMemsetAsync(t.checksum, 0, sizeof(u64), stream);
  if (error != cudaSuccess) return cuda_status(error, message, capacity);
  if (l.blocks > 0) {
    measure_kernel<<<l.blocks, kThreads, 0, stream>>>(input, l, t.packed_sizes, t.checksum);
    std::size_t scan = t.scan_bytes;
    error = cub::DeviceScan::ExclusiveSum(t.scan, scan, t.packed_sizes, t.offsets,
                                          static_cast<int>(l.blocks), stream);
    if (error != cudaSuccess) return cuda_status(error, message, capacity);
    pack_kernel<<<l.blocks, kThreads, 0, stream>>>(input, l, t.offsets, t.packed_sizes, data);
  }
  finish_compress_kernel<<<1, 1, 0, stream>>>(input, input_size, l, t.offsets, t.packed_sizes,
                                              t.checksum, output, output_size);
  return cuda_status(cudaGetLastError(), message, capacity);
}

// The plan's detail: the block size, read on the host.
int plan_decompress(const std::int64_t* /*params*/, const u8* container, u64 container_size,
                    gcbench_plugin_plan* plan, char* message, std::size_t capacity) {
  u64 block_size = 0;
  if (const char* error =
          deltapack_read_header(container, container_size, &block_size, &plan->decompressed_size)) {
    std::snprintf(message, capacity, "%s", error);
    return GCBENCH_PLUGIN_ERROR_CORRUPT;
  }
  plan->temp_bytes = temp_bytes_for(blocks_of(plan->decompressed_size, block_size));
  plan->detail[0] = block_size;
  return GCBENCH_PLUGIN_OK;
}

int decompress_async(const std::int64_t* /*params*/, const gcbench_plugin_plan* plan,
                     const u8* container, u64 container_size, void* temp,
                     std::size_t /*temp_bytes*/, u8* output, gcbench_plugin_device_status* status,
                     void* stream_handle, char* message, std::size_t capacity) {
  auto stream = static_cast<cudaStream_t>(stream_handle);
  const u64 original_size = plan->decompressed_size;
  const Layout l = layout(original_size, plan->detail[0], container);
  const Temp t = carve(temp, l.blocks);
  cudaError_t error = cudaMemsetAsync(status, 0, sizeof *status, stream);
  if (error == cudaSuccess) error = cudaMemsetAsync(t.checksum, 0, sizeof(u64), stream);
  if (error != cudaSuccess) return cuda_status(error, message, capacity);
  if (l.blocks > 0) {
    const auto grid = static_cast<unsigned>((l.blocks + kThreads - 1) / kThreads);
    sizes_kernel<<<grid, kThreads, 0, stream>>>(l, t.packed_sizes, status);
    std::size_t scan = t.scan_bytes;
    error = cub::DeviceScan::ExclusiveSum(t.scan, scan, t.packed_sizes, t.offsets,
                                          static_cast<int>(l.blocks), stream);
    if (error != cudaSuccess) return cuda_status(error, message, capacity);
  }
  check_kernel<<<1, 1, 0, stream>>>(container, container_size, original_size, l, t.offsets,
                                    t.packed_sizes, output, status);
  if (l.blocks > 0) {
    decode_kernel<<<l.blocks, kThreads, 0, stream>>>(l, t.offsets, t.packed_sizes, output,
                                                     t.checksum, status);
  }
  verify_kernel<<<1, 1, 0, stream>>>(container, original_size, output, t.checksum, status);
  return cuda_status(cudaGetLastError(), message, capacity);
}

}  // namespace

extern "C" const gcbench_plugin_gpu deltapack_gpu = {deltapack_max_compressed_size,
                                                     compress_temp_bytes, compress_async,
                                                     plan_decompress, decompress_async};
