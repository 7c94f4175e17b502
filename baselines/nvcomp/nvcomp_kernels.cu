// The kernels around nvCOMP's batched calls (nvcomp_kernels.hpp): one thread per chunk for the
// pointer and size arrays, the chunk guard and the status checks, CUB's ExclusiveSum for the chunk
// offsets, and a copy of each chunk from its slot into the container in 8-byte words.
#include <algorithm>
#include <cub/device/device_scan.cuh>

#include "baselines/nvcomp/nvcomp_format.hpp"
#include "baselines/nvcomp/nvcomp_kernels.hpp"
#include "codecs/common/container_device.cuh"
#include "codecs/common/crc32.cuh"
#include "src/cuda/cuda_check.hpp"
#include "codecs/common/device_elements.cuh"

namespace gcbench::nvcomp {
namespace {

using u8 = std::uint8_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;
using cuda::kBlockThreads;

__device__ __forceinline__ u64 thread_index() {
  return u64{blockIdx.x} * kBlockThreads + threadIdx.x;
}

__global__ void prepare_compress_kernel(const u8* input, u8* payload, CompressLayout l,
                                        BatchArrays b) {
  const u64 i = thread_index();
  if (i == 0) {
    payload[0] = l.algorithm;
    payload[1] = 0;
    payload[2] = 0;
    payload[3] = 0;
    cuda::store_le<u32>(payload + 4, l.chunk_size);
    cuda::store_le<u64>(payload + 8, l.chunks);
  }
  if (i >= l.chunks) return;
  const u64 at = i * l.chunk_size;
  b.in_ptrs[i] = input + at;
  b.in_bytes[i] = min(u64{l.chunk_size}, l.input_size - at);
  b.out_ptrs[i] = l.slots + i * l.slot_stride;
}

// A chunk nvCOMP did not compress (its status, or a size outside (0, bound]) flags the
// payload, which plan_decompress then rejects; its size is clamped so that nothing below
// reads or writes out of bounds.
__global__ void size_compressed_kernel(u8* payload, CompressLayout l, BatchArrays b) {
  const u64 i = thread_index();
  if (i > l.chunks) return;
  if (i == l.chunks) {
    b.padded[i] = 0;
    for (u64 k = format::table_end(l.chunks); k < format::data_offset(l.chunks); ++k) {
      payload[k] = 0;
    }
    return;
  }
  u64 size = b.out_bytes[i];
  if (b.statuses[i] != nvcompSuccess || size == 0 || size > l.max_chunk_out) {
    payload[1] = format::kCompressFailed;
    size = min(size, l.max_chunk_out);
    b.out_bytes[i] = size;
  }
  reinterpret_cast<u32*>(payload + format::kSizesOffset)[i] = static_cast<u32>(size);
  b.padded[i] = format::padded(size);
}

// blockIdx.x: the chunk; blockIdx.y strides over its 8-byte words. Slots are 256-byte
// aligned and at least the padded size long, so whole words are read; the bytes past the
// chunk are zeroed. Every destination is 8-byte aligned (the payload and the padded offsets).
__global__ void pack_kernel(u8* data, CompressLayout l, BatchArrays b, u64* payload_size) {
  const u64 i = blockIdx.x;
  const u64 size = b.out_bytes[i];
  const u64 words = format::padded(size) / 8;
  const u32 tail = static_cast<u32>(size % 8);
  const u64* src = reinterpret_cast<const u64*>(l.slots + i * l.slot_stride);
  u64* dst = reinterpret_cast<u64*>(data + b.offsets[i]);
  for (u64 w = u64{blockIdx.y} * kBlockThreads + threadIdx.x; w < words;
       w += u64{gridDim.y} * kBlockThreads) {
    // Zeros past the chunk: its last word masked, whole padding words never read (a decoder
    // such as Cascaded leaves scratch bytes in its slot after the chunk).
    u64 v = 8 * w < size ? src[w] : 0;
    if (tail != 0 && w == size / 8) v &= (u64{1} << (8 * tail)) - 1;
    dst[w] = v;
  }
  if (i == 0 && blockIdx.y == 0 && threadIdx.x == 0) {
    *payload_size = format::data_offset(l.chunks) + b.offsets[l.chunks];
  }
}

__global__ void set_fixed_payload_size_kernel(u64* payload_size, u64 value) {
  *payload_size = value;
}

// Sizes from the device's table; a size outside (0, bound] means the container changed since
// it was planned (the plan checked every size): reported, and clamped to the bound. The extra
// thread compares the payload's fixed fields with the plan's.
__global__ void decompress_sizes_kernel(const u8* payload, u8* output, DecompressLayout l,
                                        BatchArrays b, DeviceStatus* status) {
  const u64 i = thread_index();
  if (i > l.chunks) return;
  if (i == l.chunks) {
    b.padded[i] = 0;
    if (payload[0] != l.algorithm || payload[1] != 0 || payload[2] != 0 || payload[3] != 0 ||
        cuda::load_le<u32>(payload + 4) != l.chunk_size ||
        cuda::load_le<u64>(payload + 8) != l.chunks) {
      cuda::set_error(status, kChunkTableChanged, l.chunks);
    }
    return;
  }
  u64 size = reinterpret_cast<const u32*>(payload + format::kSizesOffset)[i];
  if (size == 0 || size > l.max_chunk_in) {
    cuda::set_error(status, kChunkTableChanged, i);
    size = min(size, l.max_chunk_in);
  }
  b.padded[i] = format::padded(size);
  b.in_bytes[i] = size;
  const u64 at = i * l.chunk_size;
  b.out_ptrs[i] = output + at;
  b.out_bytes[i] = min(u64{l.chunk_size}, l.original_size - at);
}

// Chunk pointers from the scanned sizes; a chunk reaching past the planned chunk area is
// reported and pointed at the area's start with a size that stays inside it.
__global__ void decompress_pointers_kernel(const u8* data, DecompressLayout l, BatchArrays b,
                                           DeviceStatus* status) {
  const u64 i = thread_index();
  if (i == 0 && b.offsets[l.chunks] != l.data_bytes) {
    cuda::set_error(status, kChunkTableChanged, l.chunks);
  }
  if (i >= l.chunks) return;
  u64 at = b.offsets[i];
  const u64 size = b.in_bytes[i];
  if (at > l.data_bytes || size > l.data_bytes - at) {
    cuda::set_error(status, kChunkTableChanged, i);
    at = 0;
    b.in_bytes[i] = min(size, l.data_bytes);
  }
  b.in_ptrs[i] = data + at;
}

// A chunk is trusted when no check before this one failed (the header, the fixed fields, the
// table: the pointers are then data + offsets[i] and the padding ends within the chunk area),
// its CRC-32 matches the table's and its padding is zeros. Any other chunk is swapped for the
// decoy, so its bytes never reach nvCOMP's decoder; the lowest damaged one is kept.
__global__ void guard_chunks_kernel(const u8* payload, DecompressLayout l, BatchArrays b,
                                    const u32* chunk_crcs, u64* lowest_bad, DecoyChunk decoy,
                                    const DeviceStatus* status) {
  const u64 i = thread_index();
  if (i >= l.chunks) return;
  bool trusted = status->error == kDeviceOk;
  if (trusted) {
    const u32* table_crcs = reinterpret_cast<const u32*>(payload + format::crcs_offset(l.chunks));
    trusted = chunk_crcs[i] == table_crcs[i];
    const u8* data = payload + format::data_offset(l.chunks);
    const u64 end = min(b.offsets[i + 1], l.data_bytes);
    for (u64 k = b.offsets[i] + b.in_bytes[i]; trusted && k < end; ++k) trusted = data[k] == 0;
    if (!trusted) {
      atomicMin(reinterpret_cast<unsigned long long*>(lowest_bad),
                static_cast<unsigned long long>(i));
    }
  }
  if (!trusted) {
    b.in_ptrs[i] = decoy.bytes;
    b.in_bytes[i] = decoy.size;
  }
}

// Before nvCOMP's decompression, so that this error is the first recorded: the decoys'
// wrong sizes and the output's CRC-32 that follow are dropped.
__global__ void report_damaged_kernel(u64 chunks, const u64* lowest_bad, DeviceStatus* status) {
  if (*lowest_bad < chunks) cuda::set_error(status, kChunkDamaged, *lowest_bad);
}

__global__ void check_decompressed_kernel(DecompressLayout l, BatchArrays b, DeviceStatus* status) {
  const u64 i = thread_index();
  if (i >= l.chunks) return;
  if (b.statuses[i] != nvcompSuccess) {
    cuda::set_error(status, kChunkDecodeFailed, i);
  } else if (b.actual_bytes[i] != b.out_bytes[i]) {
    cuda::set_error(status, kChunkWrongSize, i);
  }
}

void scan_async(u64 chunks, const BatchArrays& b, cudaStream_t stream) {
  std::size_t bytes = b.scan_bytes;
  GCB_CUDA(cub::DeviceScan::ExclusiveSum(b.scan, bytes, b.padded, b.offsets, chunks + 1, stream));
}

}  // namespace

std::size_t scan_temp_bytes(u64 chunks) {
  std::size_t bytes = 0;
  GCB_CUDA(cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<const u64*>(nullptr),
                                         static_cast<u64*>(nullptr), chunks + 1));
  return bytes;
}

std::size_t crc_temp_bytes(u64 size) {
  return cuda::crc32_temp_bytes(size);
}

void prepare_compress_async(const u8* input, u8* payload, const CompressLayout& l,
                            const BatchArrays& b, cudaStream_t stream) {
  prepare_compress_kernel<<<cuda::grid_for(l.chunks), kBlockThreads, 0, stream>>>(input, payload, l,
                                                                                  b);
  GCB_CUDA_LAUNCHED();
}

void size_compressed_async(u8* payload, const CompressLayout& l, const BatchArrays& b,
                           cudaStream_t stream) {
  size_compressed_kernel<<<cuda::grid_for(l.chunks + 1), kBlockThreads, 0, stream>>>(payload, l, b);
  GCB_CUDA_LAUNCHED();
  scan_async(l.chunks, b, stream);
}

void pack_compressed_async(u8* payload, const CompressLayout& l, const BatchArrays& b,
                           u64* payload_size, cudaStream_t stream) {
  if (l.chunks == 0) {
    set_fixed_payload_size_kernel<<<1, 1, 0, stream>>>(payload_size, format::kFixedBytes);
    GCB_CUDA_LAUNCHED();
    return;
  }
  if (l.chunks > 0x7FFFFFFFull) throw std::runtime_error("nvCOMP: too many chunks for one grid");
  // About four words per thread for the largest chunk.
  const u64 words = format::padded(l.max_chunk_out) / 8;
  const u64 per_block = u64{kBlockThreads} * 4;
  const auto blocks_y =
      static_cast<unsigned>(std::min<u64>((words + per_block - 1) / per_block, 65535));
  const dim3 grid(static_cast<unsigned>(l.chunks), std::max(blocks_y, 1u));
  pack_kernel<<<grid, kBlockThreads, 0, stream>>>(payload + format::data_offset(l.chunks), l, b,
                                                  payload_size);
  GCB_CUDA_LAUNCHED();
}

void finish_compress_async(const u8* input, u64 input_size, u8* output, void* crc_temp,
                           std::size_t crc_temp_bytes, u32* crc, const u64* payload_size,
                           u64* output_size, cudaStream_t stream) {
  cuda::crc32_async(input, input_size, crc_temp, crc_temp_bytes, {crc}, stream);
  cuda::write_container_header_async(output, format::kContainerFormat, input_size, payload_size,
                                     crc, output_size, stream);
}

void prepare_decompress_async(const u8* payload, u8* output, const DecompressLayout& l,
                              const BatchArrays& b, DeviceStatus* status, cudaStream_t stream) {
  decompress_sizes_kernel<<<cuda::grid_for(l.chunks + 1), kBlockThreads, 0, stream>>>(
      payload, output, l, b, status);
  GCB_CUDA_LAUNCHED();
  scan_async(l.chunks, b, stream);
  decompress_pointers_kernel<<<cuda::grid_for(l.chunks), kBlockThreads, 0, stream>>>(
      payload + format::data_offset(l.chunks), l, b, status);
  GCB_CUDA_LAUNCHED();
}

void guard_chunks_async(const u8* payload, const DecompressLayout& l, const BatchArrays& b,
                        const u32* chunk_crcs, u64* lowest_bad, DecoyChunk decoy,
                        DeviceStatus* status, cudaStream_t stream) {
  GCB_CUDA(cudaMemsetAsync(lowest_bad, 0xFF, sizeof *lowest_bad, stream));
  guard_chunks_kernel<<<cuda::grid_for(l.chunks), kBlockThreads, 0, stream>>>(
      payload, l, b, chunk_crcs, lowest_bad, decoy, status);
  GCB_CUDA_LAUNCHED();
  report_damaged_kernel<<<1, 1, 0, stream>>>(l.chunks, lowest_bad, status);
  GCB_CUDA_LAUNCHED();
}

void check_decompressed_async(const DecompressLayout& l, const BatchArrays& b, DeviceStatus* status,
                              cudaStream_t stream) {
  check_decompressed_kernel<<<cuda::grid_for(l.chunks), kBlockThreads, 0, stream>>>(l, b, status);
  GCB_CUDA_LAUNCHED();
}

void begin_decompress_async(const u8* container, ByteSpan planned_header, DeviceStatus* status,
                            cudaStream_t stream) {
  cuda::begin_decode_async(container, planned_header, status, stream);
}

void finish_decompress_async(const u8* container, const u8* output, u64 original_size,
                             void* crc_temp, std::size_t crc_temp_bytes, DeviceStatus* status,
                             cudaStream_t stream) {
  cuda::crc32_async(output, original_size, crc_temp, crc_temp_bytes,
                    {nullptr, container + 24, status}, stream);
}

}  // namespace gcbench::nvcomp
