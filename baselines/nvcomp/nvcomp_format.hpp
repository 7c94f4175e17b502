#pragma once
// The payload of an nvCOMP container (format kContainerFormat), version 3, written and read on the
// device (nvcomp_kernels.cu) and read by nvcomp_codec.cpp (the header and table checked on the
// host, each chunk against its CRC-32 and zero padding on the device):
//
//   offset      size  field
//   0           1     algorithm (nvcomp::Algorithm)
//   1           1     flags: 0, or kCompressFailed when nvCOMP reported a failed chunk
//   2           2     zero
//   4           4     chunk_size (a multiple of kAlign)
//   8           8     chunk_count = ceil(original_size / chunk_size)
//   16          4n    compressed_bytes[n] (u32; each at most nvCOMP's bound for a chunk)
//   16 + 4n     4n    crc32[n]: CRC-32 (zlib's) of each compressed chunk
//   16 + 8n     ...   zeros up to a multiple of kAlign (data_offset)
//   data_offset ...   the chunks in order, each followed by zeros up to a multiple of kAlign
//
// The payload starts 32 bytes into the container, so every chunk starts at a multiple of
// kAlign from the container's start: nvCOMP decodes the chunks in place (its decoders want
// up to 16-byte aligned inputs, ANS's), with no copy into aligned staging.
#include <cstdint>

#include "gcbench/container.hpp"

namespace gcbench::nvcomp::format {

// nvCOMP's id in the container header (include/gcbench/container.hpp).
inline constexpr ContainerFormat kContainerFormat{16, "nvcomp"};

inline constexpr std::uint32_t kVersion = 3;  // CodecInfo::version "3/nvcomp-x.y.z"
inline constexpr std::uint64_t kAlign = 16;   // chunk starts, chunk sizes, buffer pointers
inline constexpr std::uint64_t kFixedBytes = 16;
inline constexpr std::uint64_t kTableEntryBytes = 8;  // compressed size and CRC-32
inline constexpr std::uint8_t kCompressFailed = 1;

inline constexpr std::uint64_t kSizesOffset = kFixedBytes;
inline constexpr std::uint64_t crcs_offset(std::uint64_t chunks) {
  return kFixedBytes + 4 * chunks;
}
inline constexpr std::uint64_t padded(std::uint64_t bytes) {
  return (bytes + kAlign - 1) / kAlign * kAlign;
}
inline constexpr std::uint64_t table_end(std::uint64_t chunks) {
  return kFixedBytes + kTableEntryBytes * chunks;
}
inline constexpr std::uint64_t data_offset(std::uint64_t chunks) {
  return padded(table_end(chunks));
}

}  // namespace gcbench::nvcomp::format
