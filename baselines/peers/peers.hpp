#pragma once
// Widely used CPU codecs run beside gcbench's own, each writing its library's native
// self-describing format (gzip member, zstd frame, LZ4 frame) so that sizes are the ones
// users know. Each exists only when its library was found at configure time.
#include <algorithm>
#include <functional>
#include <span>
#include <vector>

#include "gcbench/codec.hpp"

namespace gcbench::peers {

// threads = 1 (default) writes the library's single stream; any other value (0 = all cores)
// its all-core variant, whose bytes depend on the input only, never on the thread count.
CodecPtr make_libdeflate_codec();  // gzip member, levels 1..12 (default 6); all cores: one
                                   // member per chunk, each with its size in an extra field
CodecPtr make_zstd_codec();        // zstd frame with content size, levels 1..19 (default 3);
                                   // all cores: zstd's own workers in one frame
CodecPtr make_lz4_codec();         // LZ4 frame with content size, the fast compressor
                                   // (level 0 only); all cores: an index in a skippable
                                   // frame, then one frame per chunk
CodecPtr make_lz4hc_codec();       // the same frames from LZ4 HC, levels 3..12 (default 9)

// A `level` axis for a peer's CodecInfo.
AxisSpec level_axis(std::int64_t default_level, std::int64_t min, std::int64_t max,
                    const char* help);

// The `threads` axis of a peer (default 1); it shapes the output (see above).
AxisSpec peer_threads_axis(const char* help);

// A peer's axes, typed: read once at bind time from the resolved map.
struct PeerParams {
  int level = 0;
  bool single_stream = true;  // threads = 1: the library's own single stream
  int threads = 1;            // the thread count otherwise (threads = 0: all cores)
};
PeerParams peer_params(const Params& resolved);

// Throws DecodeError unless `claimed` (an original size read from untrusted input) is
// plausible for `input_size` compressed bytes, before anything is allocated for it: no
// format here expands by more than kMaxExpansion (zstd's densest block is ~44000:1).
inline constexpr std::uint64_t kMaxExpansion = 65536;
void check_claimed_size(std::uint64_t claimed, std::uint64_t input_size, const char* format);

// Adds the library's version to a CodecInfo's version string ("<ours>/<library>").
CodecInfo peer_info(const char* name, const std::string& library_version, const char* help,
                    std::vector<AxisSpec> axes);

// Libraries without a multi-threaded API (libdeflate, lz4) go on all cores as pigz, BGZF and
// `lz4 -T` do: the input is cut into chunks of kChunkSize compressed independently. pigz uses
// 128 KiB, zstd -T jobs of several MiB; each chunk starts with an empty window, and at 1 MiB
// that costs little ratio while a 100 MB input still gives ~100 pieces to share out.
inline constexpr std::size_t kChunkSize = std::size_t{1} << 20;

// At least 1: an empty input is one empty chunk (a gzip file needs a member).
std::size_t chunk_count(std::uint64_t input_size);

// Chunk i of `data`: kChunkSize bytes from i * kChunkSize, the last one shorter.
template <typename T>
std::span<T> chunk_of(std::span<T> data, std::size_t i) {
  std::size_t begin = i * kChunkSize;
  return data.subspan(begin, std::min(kChunkSize, data.size() - begin));
}

// A chunked output: `prefix` bytes (the caller's index, if any), then each chunk's bytes.
// ChunkBound gives a true bound on one chunk's bytes for its input size.
using ChunkBound = std::function<std::uint64_t(std::uint64_t chunk_size)>;
std::uint64_t chunked_bound(std::uint64_t input_size, std::uint64_t prefix,
                            const ChunkBound& bound);

// Compresses the chunks in parallel into `out` (chunked_bound(input.size(), prefix, bound)
// bytes), each by encode(chunk, room) -> bytes written into room (bound(chunk.size()) bytes):
// after `prefix` bytes left for the caller to fill, the chunks back to back. `size` is the
// whole output's, sizes[i] chunk i's.
struct ChunkedOutput {
  std::size_t size = 0;
  std::vector<std::size_t> sizes;
};
using ChunkEncoder = std::function<std::size_t(ByteSpan chunk, std::span<std::uint8_t> room)>;
ChunkedOutput compress_chunks(ByteSpan input, std::span<std::uint8_t> out, int threads,
                              std::size_t prefix, const ChunkBound& bound,
                              const ChunkEncoder& encode);

// A peer's compress(): a buffer of `bound` bytes filled by its compress_into, `into(room)`,
// cut to the size it returns.
template <typename Into>
Bytes encode_to_bytes(std::uint64_t bound, Into&& into) {
  Bytes out(bound);
  out.resize(into(std::span<std::uint8_t>(out)));
  return out;
}

// Decodes pieces[i] into chunk i of `out` in parallel; decode must fill its span exactly or
// throw DecodeError. There must be chunk_count(out.size()) pieces.
using ChunkDecoder = std::function<void(ByteSpan piece, std::span<std::uint8_t> out)>;
void decompress_chunks(const std::vector<ByteSpan>& pieces, std::span<std::uint8_t> out,
                       int threads, const ChunkDecoder& decode);

// Throws DecodeError unless a container's original size, `size`, is the caller's output's.
void check_output_size(std::uint64_t size, std::size_t output_size, const char* format);

// A peer's decompress(): an output of `size` bytes (checked with check_claimed_size against the
// container's, `input_size`) filled by its decompress_into, `into(output)`.
template <typename Into>
Bytes decode_to_bytes(std::uint64_t size, std::uint64_t input_size, const char* format,
                      Into&& into) {
  check_claimed_size(size, input_size, format);
  Bytes out(size);
  into(std::span<std::uint8_t>(out));
  return out;
}

}  // namespace gcbench::peers
