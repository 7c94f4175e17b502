#include "gcbench/stream.hpp"

#include <algorithm>
#include <string>

#include "gcbench/container.hpp"
#include "gcbench/errors.hpp"

namespace gcbench {
namespace {
constexpr std::uint8_t kStreamMagic[4] = {'G', 'C', 'B', 'S'};
constexpr std::uint16_t kVersion = 2;
}  // namespace

Bytes stream_header(std::uint64_t original_size, std::uint64_t chunk_bytes) {
  Bytes h(kStreamHeaderSize);
  std::copy(kStreamMagic, kStreamMagic + 4, h.begin());
  store_le<std::uint16_t>(&h[4], kVersion);
  store_le<std::uint64_t>(&h[8], original_size);
  store_le<std::uint64_t>(&h[16], chunk_bytes);
  store_le<std::uint64_t>(&h[24], (original_size + chunk_bytes - 1) / chunk_bytes);
  return h;
}

StreamView parse_stream(ByteSpan stream) {
  if (stream.size() < kStreamHeaderSize ||
      !std::equal(kStreamMagic, kStreamMagic + 4, stream.begin())) {
    throw DecodeError("not a gcbench chunked stream (bad magic or shorter than its header)");
  }
  ByteReader r(stream);
  r.take(4, "magic");
  if (r.read<std::uint16_t>("version") != kVersion) {
    throw DecodeError("unsupported chunked stream version");
  }
  r.read<std::uint16_t>("reserved");
  StreamView v;
  v.original_size = r.read<std::uint64_t>("original size");
  v.chunk_bytes = r.read<std::uint64_t>("chunk size");
  const auto count = r.read<std::uint64_t>("chunk count");
  if (v.chunk_bytes == 0 || v.original_size > kMaxOriginalSize ||
      count != (v.original_size + v.chunk_bytes - 1) / v.chunk_bytes) {
    throw DecodeError("chunked stream: chunk count " + std::to_string(count) +
                      " does not match the sizes");
  }
  for (std::uint64_t i = 0; i < count; ++i) {
    if (r.remaining() < kChunkPrefixSize) throw DecodeError("chunked stream truncated");
    const auto size = r.read<std::uint64_t>("chunk size");
    if (size > r.remaining()) {
      throw DecodeError("chunked stream: chunk " + std::to_string(i) + " runs past the end");
    }
    v.containers.push_back(r.take(size, "chunk"));
  }
  if (r.remaining() != 0) throw DecodeError("chunked stream: bytes after the last chunk");
  return v;
}

std::uint64_t StreamView::chunk_size(std::uint64_t i) const {
  return std::min(chunk_bytes, original_size - i * chunk_bytes);
}

}  // namespace gcbench
