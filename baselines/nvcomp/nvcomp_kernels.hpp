#pragma once
// The small kernels around nvCOMP's batched calls (nvcomp_kernels.cu): the per-chunk pointer
// and size arrays nvCOMP takes, computed on the device into temporary storage, the scan of
// the compressed sizes and the packing of the chunks into the container (nvcomp_format.hpp),
// the check of each chunk's CRC-32 before nvCOMP reads it, and the checks of nvCOMP's
// per-chunk statuses. All enqueue on `stream` and allocate nothing.
#include <cuda_runtime.h>
#include <nvcomp/shared_types.h>

#include <cstddef>
#include <cstdint>

#include "gcbench/bytes.hpp"
#include "gcbench/device_codec.hpp"

namespace gcbench::nvcomp {

// Codes of DeviceStatus::error for this codec (detail: the chunk).
enum NvcompDeviceError : std::uint32_t {
  kChunkDecodeFailed = kCodecError,      // nvCOMP's status for the chunk was not success
  kChunkWrongSize = kCodecError + 1,     // the chunk decoded to another size than planned
  kChunkTableChanged = kCodecError + 2,  // the device's chunk table is not the planned one
  kChunkDamaged = kCodecError + 3,       // the chunk's CRC-32 or its zero padding is wrong
};

// Per-chunk arrays in temporary storage, n entries each (padded and offsets: n + 1).
struct BatchArrays {
  const void** in_ptrs = nullptr;
  std::size_t* in_bytes = nullptr;
  void** out_ptrs = nullptr;
  std::size_t* out_bytes = nullptr;
  std::size_t* actual_bytes = nullptr;  // decompression only
  nvcompStatus_t* statuses = nullptr;
  std::uint64_t* padded = nullptr;   // chunk sizes rounded up to format::kAlign, then 0
  std::uint64_t* offsets = nullptr;  // their exclusive sum: chunk offsets, then the total
  void* scan = nullptr;
  std::size_t scan_bytes = 0;
};

// CUB's temporary storage for the scan of n + 1 sizes; the CRC-32's of `size` bytes.
std::size_t scan_temp_bytes(std::uint64_t chunks);
std::size_t crc_temp_bytes(std::uint64_t size);

struct CompressLayout {
  std::uint8_t algorithm = 0;
  std::uint32_t chunk_size = 0;
  std::uint64_t chunks = 0;
  std::uint64_t input_size = 0;
  std::uint8_t* slots = nullptr;  // temp: chunk i compressed at slots + i * slot_stride
  std::uint64_t slot_stride = 0;
  std::uint64_t max_chunk_out = 0;  // nvCOMP's bound for one compressed chunk
};

// Before nvCOMP's compression: the payload's fixed fields, and the input and slot pointers.
void prepare_compress_async(const std::uint8_t* input, std::uint8_t* payload,
                            const CompressLayout& l, const BatchArrays& b, cudaStream_t stream);
// After it: the sizes table (a failed chunk flags the payload, its size clamped to the bound),
// the padded sizes and their scan. The CRC table is nvCOMP's batched CRC-32, between this and
// pack_compressed_async.
void size_compressed_async(std::uint8_t* payload, const CompressLayout& l, const BatchArrays& b,
                           cudaStream_t stream);
// The chunks from their slots into the payload, zero-padded, and *payload_size.
void pack_compressed_async(std::uint8_t* payload, const CompressLayout& l, const BatchArrays& b,
                           std::uint64_t* payload_size, cudaStream_t stream);

// The CRC-32 of the input and the container header (codecs/common), *output_size.
void finish_compress_async(const std::uint8_t* input, std::uint64_t input_size,
                           std::uint8_t* output, void* crc_temp, std::size_t crc_temp_bytes,
                           std::uint32_t* crc, const std::uint64_t* payload_size,
                           std::uint64_t* output_size, cudaStream_t stream);

struct DecompressLayout {
  std::uint8_t algorithm = 0;
  std::uint32_t chunk_size = 0;
  std::uint64_t chunks = 0;
  std::uint64_t original_size = 0;
  std::uint64_t data_bytes = 0;    // the chunk area's planned size (padded sizes summed)
  std::uint64_t max_chunk_in = 0;  // nvCOMP's bound for one compressed chunk
};

// Before nvCOMP's decompression: pointers and sizes from the device's chunk table, checked
// against the plan's fixed fields and bounds (kChunkTableChanged; the pointers stay inside the
// container).
void prepare_decompress_async(const std::uint8_t* payload, std::uint8_t* output,
                              const DecompressLayout& l, const BatchArrays& b, DeviceStatus* status,
                              cudaStream_t stream);

// A valid chunk of the codec's algorithm, in device memory, that decodes to fewer bytes than
// any chunk holds: what nvCOMP is given in place of a chunk that must not reach it.
struct DecoyChunk {
  const void* bytes = nullptr;
  std::uint64_t size = 0;
};

// After prepare_decompress_async and nvCOMP's batched CRC-32 of its chunks into `chunk_crcs`,
// before nvCOMP's decompression: each chunk's CRC-32 against the container's table and its
// padding against zeros. A chunk failing either (kChunkDamaged, detail: the lowest such
// chunk), and every chunk once an earlier check has failed, is swapped for the decoy, so that
// nvCOMP decodes only chunks that match their table. `lowest_bad`: one u64 of temporary storage.
void guard_chunks_async(const std::uint8_t* payload, const DecompressLayout& l,
                        const BatchArrays& b, const std::uint32_t* chunk_crcs,
                        std::uint64_t* lowest_bad, DecoyChunk decoy, DeviceStatus* status,
                        cudaStream_t stream);
// After it: nvCOMP's statuses and decoded sizes into *status.
void check_decompressed_async(const DecompressLayout& l, const BatchArrays& b, DeviceStatus* status,
                              cudaStream_t stream);

// The device's header against the planned one (clearing *status first), and the output's
// CRC-32 against the container's (codecs/common).
void begin_decompress_async(const std::uint8_t* container, ByteSpan planned_header,
                            DeviceStatus* status, cudaStream_t stream);
void finish_decompress_async(const std::uint8_t* container, const std::uint8_t* output,
                             std::uint64_t original_size, void* crc_temp,
                             std::size_t crc_temp_bytes, DeviceStatus* status, cudaStream_t stream);

}  // namespace gcbench::nvcomp
