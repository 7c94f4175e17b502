#pragma once
// The self-describing container around every gcbench payload:
//
//   offset size  field
//   0      4     magic "GCBC"
//   4      2     format version (1)
//   6      2     codec id (FormatId)
//   8      8     original size in bytes
//   16     8     payload size in bytes
//   24     4     CRC-32 (zlib) of the original bytes
//   28     4     CRC-32 of bytes 0..27 (catches a corrupted header before any allocation)
//   32     ...   payload, laid out by the codec (its own small format header first)
//
// All fields little-endian. CPU and GPU implementations of a codec write identical bytes.
#include <cstdint>

#include "gcbench/bytes.hpp"

namespace gcbench {

enum class FormatId : std::uint16_t { fl = 1, rle = 2, lz77 = 3, nvcomp = 16 };

inline constexpr std::size_t kContainerHeaderSize = 32;
inline constexpr std::uint16_t kContainerVersion = 1;

// Refuse to allocate more than this for one decompressed buffer: a header claiming more is
// treated as hostile. 64 GiB covers every corpus and synthetic size the suite uses.
inline constexpr std::uint64_t kMaxOriginalSize = std::uint64_t{64} << 30;

struct ContainerHeader {
  FormatId codec{};
  std::uint64_t original_size = 0;
  std::uint64_t payload_size = 0;
  std::uint32_t original_crc = 0;
};

std::uint32_t crc32_of(ByteSpan data);

// Writes header + payload. `original` is used for its size and checksum.
Bytes wrap_container(FormatId codec, ByteSpan original, ByteSpan payload);

// Writes a container with any header values (payload_size is taken from `payload`): for tests
// and fuzzers that craft hostile containers behind a valid header checksum.
Bytes make_container(const ContainerHeader& header, ByteSpan payload);

// Validates magic, version, header checksum, codec id and sizes; returns the header and a
// view of the payload. Throws DecodeError naming what is wrong.
struct OpenedContainer {
  ContainerHeader header;
  ByteSpan payload;
};
OpenedContainer open_container(ByteSpan container, FormatId expected);

// Throws DecodeError unless `decoded` has the header's size and checksum.
void verify_original(const ContainerHeader& header, ByteSpan decoded);

}  // namespace gcbench
