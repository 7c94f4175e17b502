#include <cstring>
#include <stdexcept>
#include <string>

#include "baselines/peers/peers.hpp"
#include "codecs/common/parallel.hpp"
#include "gcbench/container.hpp"
#include "gcbench/errors.hpp"

namespace gcbench::peers {

AxisSpec level_axis(std::int64_t default_level, std::int64_t min, std::int64_t max,
                    const char* help) {
  AxisSpec a;
  a.name = "level";
  a.help = help;
  a.default_value = default_level;
  a.min = min;
  a.max = max;
  a.in_container = true;
  return a;
}

PeerParams peer_params(const Params& resolved) {
  return {static_cast<int>(axis_value(resolved, "level")), axis_value(resolved, "threads") == 1,
          thread_count(resolved)};
}

AxisSpec peer_threads_axis(const char* help) {
  AxisSpec a = threads_axis();
  a.help = help;
  a.default_value = 1;
  a.in_container = true;  // one thread writes the single stream, more the all-core variant
  return a;
}

void check_claimed_size(std::uint64_t claimed, std::uint64_t input_size, const char* format) {
  if (claimed > kMaxOriginalSize || claimed / kMaxExpansion > input_size) {
    throw DecodeError(std::string(format) + " stream claims an absurd size of " +
                      std::to_string(claimed) + " bytes");
  }
  check_decode_limit(format, "claimed size", claimed, input_size);
}

CodecInfo peer_info(const char* name, const std::string& library_version, const char* help,
                    std::vector<AxisSpec> axes) {
  CodecInfo info;
  info.name = name;
  info.version = "1/" + library_version;
  info.device = Device::cpu;
  info.role = Role::peer;
  // How its cells call it: into buffers allocated outside the timed calls.
  info.description =
      std::string(help) +
      "; compression and decompression into buffers allocated outside the timed calls, the "
      "library's context kept per thread";
  info.axes = std::move(axes);
  return info;
}

std::size_t chunk_count(std::uint64_t input_size) {
  return std::max<std::size_t>(1, (input_size + kChunkSize - 1) / kChunkSize);
}

std::uint64_t chunked_bound(std::uint64_t input_size, std::uint64_t prefix,
                            const ChunkBound& bound) {
  std::uint64_t full = input_size / kChunkSize, rest = input_size % kChunkSize;
  std::uint64_t total = prefix + full * bound(kChunkSize);
  return rest != 0 || full == 0 ? total + bound(rest) : total;
}

ChunkedOutput compress_chunks(ByteSpan input, std::span<std::uint8_t> out, int threads,
                              std::size_t prefix, const ChunkBound& bound,
                              const ChunkEncoder& encode) {
  // Chunk i is written at prefix + i * slot (every chunk but the last is full), then the
  // chunks are moved down to lie back to back.
  const std::size_t count = chunk_count(input.size());
  const auto slot = static_cast<std::size_t>(bound(kChunkSize));
  if (out.size() < chunked_bound(input.size(), prefix, bound)) {
    throw std::invalid_argument("compress_chunks: output smaller than the chunks' bound");
  }
  ChunkedOutput written{prefix, std::vector<std::size_t>(count)};
  parallel_for(count, threads, [&](std::size_t i) {
    ByteSpan chunk = chunk_of(input, i);
    written.sizes[i] = encode(chunk, out.subspan(prefix + i * slot, bound(chunk.size())));
  });
  for (std::size_t i = 0; i < count; ++i) {
    std::memmove(out.data() + written.size, out.data() + prefix + i * slot, written.sizes[i]);
    written.size += written.sizes[i];
  }
  return written;
}

void decompress_chunks(const std::vector<ByteSpan>& pieces, std::span<std::uint8_t> out,
                       int threads, const ChunkDecoder& decode) {
  const std::uint64_t total = out.size();
  if (pieces.size() != chunk_count(total)) {
    throw DecodeError("stream has " + std::to_string(pieces.size()) + " chunks, but " +
                      std::to_string(total) + " bytes make " + std::to_string(chunk_count(total)));
  }
  parallel_for(pieces.size(), threads, [&](std::size_t i) { decode(pieces[i], chunk_of(out, i)); });
}

void check_output_size(std::uint64_t size, std::size_t output_size, const char* format) {
  if (size != output_size) {
    throw DecodeError(std::string(format) + " container holds " + std::to_string(size) +
                      " bytes, the output " + std::to_string(output_size));
  }
}

}  // namespace gcbench::peers
