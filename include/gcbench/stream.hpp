#pragma once
// The chunked stream that the pipelined end-to-end path writes: the input cut into chunks of
// equal size (the last may be shorter), each compressed into its own container, so that chunks
// flow through the GPU independently and inputs larger than its memory stream through it.
//
//   offset size  field
//   0      4     magic "GCBS"
//   4      2     format version (2)
//   6      2     reserved (0)
//   8      8     original size in bytes
//   16     8     chunk size in bytes (>= 1)
//   24     8     chunk count = ceil(original size / chunk size)
//   32     ...   per chunk, in order: its container's size in bytes (8), then the container
//
// The stream reads no codec's container: any codec's (a plugin's too) goes in it as it is.
#include <cstdint>
#include <vector>

#include "gcbench/bytes.hpp"

namespace gcbench {

inline constexpr std::size_t kStreamHeaderSize = 32;
inline constexpr std::size_t kChunkPrefixSize = 8;  // a chunk's container size

Bytes stream_header(std::uint64_t original_size, std::uint64_t chunk_bytes);

struct StreamView {
  std::uint64_t original_size = 0;
  std::uint64_t chunk_bytes = 0;
  std::vector<ByteSpan> containers;  // each one chunk's container, as the stream sizes it

  // The bytes chunk i decodes to: chunk_bytes, the last chunk fewer.
  std::uint64_t chunk_size(std::uint64_t i) const;
};

// Throws DecodeError for anything that is not a whole stream: bad magic or version, a chunk
// count that does not match the sizes, a container running past the end, or bytes left over.
// Whether a container decodes to its chunk's size is for its codec's plan to say.
StreamView parse_stream(ByteSpan stream);

}  // namespace gcbench
