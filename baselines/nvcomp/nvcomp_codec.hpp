#pragma once
// NVIDIA nvCOMP's batched low-level API as GPU peers, each a DeviceCodec (the host API is
// gpu::make_host_codec over it): the input is cut into chunks of `chunk_size` bytes, compressed
// in one batched call, and stored in a gcbench container (format::kContainerFormat, layout in
// nvcomp_format.hpp) with each chunk's compressed size and CRC-32, so decompression needs
// nothing else.
#include <vector>

#include "gcbench/codec.hpp"

namespace gcbench::nvcomp {

enum class Algorithm : std::uint8_t {
  lz4 = 1,
  snappy = 2,
  cascaded = 3,
  deflate = 4,
  zstd = 5,
  bitcomp = 6,
  gdeflate = 7,
  ans = 8
};

// One codec per algorithm, named "nvcomp-lz4", "nvcomp-snappy", ...
std::vector<CodecPtr> make_codecs();

}  // namespace gcbench::nvcomp
