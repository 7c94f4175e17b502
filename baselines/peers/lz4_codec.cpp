// LZ4F_compressFrame_usingCDict, exported by liblz4 and used by the lz4 program to compress
// whole frames with a context it keeps.
#define LZ4F_STATIC_LINKING_ONLY
#include <lz4frame.h>
#include <lz4hc.h>

#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "baselines/peers/peers.hpp"
#include "gcbench/errors.hpp"
#include "gcbench/typed_codec.hpp"

namespace gcbench::peers {
namespace {

// All-core variant: a skippable frame (which lz4 tools pass over) holding the index, then one
// standard frame per chunk. Index: magic, its size (12 + 4 * count), the content size (u64),
// the frame count (u32), each frame's compressed size (u32); all little-endian.
constexpr std::uint32_t kSkippableMagic = 0x184D2A50;
constexpr std::size_t kIndexHeader = 8;
constexpr std::size_t kIndexFixed = 12;

LZ4F_preferences_t preferences(std::uint64_t content_size, std::int64_t level) {
  LZ4F_preferences_t p{};
  p.frameInfo.contentSize = content_size;
  p.frameInfo.blockSizeID = LZ4F_max4MB;
  p.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled;  // as the lz4 program does
  p.compressionLevel = static_cast<int>(level);  // 0: fast LZ4, >= 1: HC at that level
  return p;
}

std::uint64_t frame_bound(std::uint64_t n, std::int64_t level) {
  auto p = preferences(n, level);
  return LZ4F_compressFrameBound(n, &p);
}

// The calling thread's LZ4 frame context of type Context (compression or decompression),
// made by `create` on first use and kept across calls, as the lz4 program keeps its own.
template <typename Context, auto create, auto destroy>
Context* thread_context() {
  thread_local const std::unique_ptr<Context, decltype(destroy)> context(
      [] {
        Context* raw = nullptr;
        if (LZ4F_isError(create(&raw, LZ4F_VERSION))) throw std::bad_alloc();
        return raw;
      }(),
      destroy);
  return context.get();
}

LZ4F_cctx* thread_compression_context() {
  return thread_context<LZ4F_cctx, LZ4F_createCompressionContext, LZ4F_freeCompressionContext>();
}

std::size_t compress_frame(ByteSpan input, std::span<std::uint8_t> out, std::int64_t level) {
  auto p = preferences(input.size(), level);
  std::size_t n =
      LZ4F_compressFrame_usingCDict(thread_compression_context(), out.data(), out.size(),
                                    input.data(), input.size(), nullptr, &p);
  if (LZ4F_isError(n)) throw std::runtime_error(std::string("lz4: ") + LZ4F_getErrorName(n));
  return n;
}

std::uint64_t index_size(std::uint64_t frames) {
  return kIndexHeader + kIndexFixed + 4 * frames;
}

// The calling thread's decompression context, reset for each frame (one that failed leaves it
// mid-frame).
LZ4F_dctx* thread_decompression_context() {
  LZ4F_dctx* context =
      thread_context<LZ4F_dctx, LZ4F_createDecompressionContext, LZ4F_freeDecompressionContext>();
  LZ4F_resetDecompressionContext(context);
  return context;
}

// One LZ4 frame from untrusted bytes: its header is read first, so that its content size is
// known before anything is allocated, then decode() fills exactly that many bytes.
class FrameDecoder {
 public:
  explicit FrameDecoder(ByteSpan in) : in_(in), ctx_(thread_decompression_context()) {
    LZ4F_frameInfo_t frame{};
    header_ = in.size();
    hint_ = LZ4F_getFrameInfo(ctx_, &frame, in.data(), &header_);
    if (LZ4F_isError(hint_)) throw DecodeError(std::string("lz4: ") + LZ4F_getErrorName(hint_));
    content_size_ = frame.contentSize;
  }

  // 0 means "unknown" as well as empty: an unknown-size frame with data fails decode() for
  // want of output room.
  std::uint64_t content_size() const { return content_size_; }

  // `out` has content_size() bytes; the frame must end exactly at the end of the input.
  void decode(std::span<std::uint8_t> out) {
    std::size_t in_pos = header_, out_pos = 0;
    while (hint_ != 0) {
      std::size_t src = in_.size() - in_pos, dst = out.size() - out_pos;
      if (src == 0) throw DecodeError("truncated lz4 frame");
      hint_ = LZ4F_decompress(ctx_, out.data() + out_pos, &dst, in_.data() + in_pos, &src, nullptr);
      if (LZ4F_isError(hint_)) throw DecodeError(std::string("lz4: ") + LZ4F_getErrorName(hint_));
      if (src == 0 && dst == 0) throw DecodeError("lz4 frame makes no progress");
      in_pos += src;
      out_pos += dst;
    }
    if (in_pos != in_.size()) throw DecodeError("trailing bytes after the lz4 frame");
    if (out_pos != out.size()) throw DecodeError("lz4 frame shorter than its content size");
  }

 private:
  ByteSpan in_;
  LZ4F_dctx* ctx_;
  std::size_t header_ = 0, hint_ = 0;
  std::uint64_t content_size_ = 0;
};

// The index of a chunked stream: the original size and each chunk's frame.
struct ChunkedIndex {
  std::uint64_t total = 0;
  std::vector<ByteSpan> frames;
};

bool has_frame_index(ByteSpan in) {
  return in.size() >= 4 && load_le<std::uint32_t>(in.data()) == kSkippableMagic;
}

ChunkedIndex read_index(ByteSpan in) {
  ByteReader r(in.subspan(4));
  std::uint64_t index_bytes = r.read<std::uint32_t>("lz4 index size");
  ChunkedIndex index;
  index.total = r.read<std::uint64_t>("lz4 content size");
  std::uint64_t count = r.read<std::uint32_t>("lz4 frame count");
  if (index_bytes != kIndexFixed + 4 * count) throw DecodeError("lz4 index of the wrong size");
  check_claimed_size(index.total, in.size(), "lz4");
  if (count != chunk_count(index.total)) {
    throw DecodeError("lz4 frame count does not fit the size");
  }
  std::vector<std::uint32_t> sizes(count);  // count <= in.size() / 16 + 1: small
  for (auto& size : sizes) size = r.read<std::uint32_t>("lz4 frame size");
  for (std::uint32_t size : sizes) index.frames.push_back(r.take(size, "lz4 frame"));
  if (r.remaining() != 0) throw DecodeError("trailing bytes after the last lz4 frame");
  return index;
}

// LZ4 frames from LZ4F: `lz4` the fast compressor (level 0 only), `lz4hc` its HC levels, as
// lzbench names them; one decoder for both.
class Lz4Codec final : public TypedCodec<Lz4Codec> {
 public:
  using Typed = PeerParams;

  explicit Lz4Codec(bool hc) : info_(hc ? hc_info() : fast_info()) {}

  const CodecInfo& info() const override { return info_; }

  PeerParams typed(const Params& resolved) const { return peer_params(resolved); }

  std::uint64_t max_compressed_size(std::uint64_t n, const PeerParams& p) const {
    const std::int64_t level = p.level;
    if (p.single_stream) return frame_bound(n, level);
    return chunked_bound(n, index_size(chunk_count(n)),
                         [&](std::uint64_t size) { return frame_bound(size, level); });
  }

  Bytes compress(ByteSpan input, const PeerParams& p, RunStats* stats) const {
    return encode_to_bytes(max_compressed_size(input.size(), p), [&](std::span<std::uint8_t> room) {
      return compress_into(input, room, p, stats);
    });
  }

  std::size_t compress_into(ByteSpan input, std::span<std::uint8_t> room, const PeerParams& p,
                            RunStats*) const {
    const std::int64_t level = p.level;
    if (p.single_stream) return compress_frame(input, room, level);
    const std::size_t count = chunk_count(input.size());
    const ChunkedOutput chunked = compress_chunks(
        input, room, p.threads, index_size(count),
        [&](std::uint64_t size) { return frame_bound(size, level); },
        [&](ByteSpan chunk, std::span<std::uint8_t> frame_room) {
          return compress_frame(chunk, frame_room, level);
        });
    std::uint8_t* index = room.data();
    store_le<std::uint32_t>(index, kSkippableMagic);
    store_le<std::uint32_t>(index + 4, static_cast<std::uint32_t>(kIndexFixed + 4 * count));
    store_le<std::uint64_t>(index + 8, input.size());
    store_le<std::uint32_t>(index + 16, static_cast<std::uint32_t>(count));
    std::uint8_t* frame_sizes = index + index_size(0);
    for (std::size_t i = 0; i < count; ++i) {
      store_le<std::uint32_t>(frame_sizes + 4 * i, static_cast<std::uint32_t>(chunked.sizes[i]));
    }
    return chunked.size;
  }

  Bytes decompress(ByteSpan in, const PeerParams& p, RunStats* stats) const {
    const std::uint64_t size =
        has_frame_index(in) ? read_index(in).total : FrameDecoder(in).content_size();
    return decode_to_bytes(size, in.size(), "lz4", [&](std::span<std::uint8_t> out) {
      decompress_into(in, out, p, stats);
    });
  }

  void decompress_into(ByteSpan in, std::span<std::uint8_t> out, const PeerParams& p,
                       RunStats*) const {
    if (!has_frame_index(in)) {
      FrameDecoder frame(in);
      check_output_size(frame.content_size(), out.size(), "lz4");
      frame.decode(out);
      return;
    }
    const ChunkedIndex index = read_index(in);
    check_output_size(index.total, out.size(), "lz4");
    decompress_chunks(index.frames, out, p.threads,
                      [](ByteSpan piece, std::span<std::uint8_t> chunk) {
                        FrameDecoder frame(piece);
                        if (frame.content_size() != chunk.size()) {
                          throw DecodeError("lz4 frame's content size differs from its chunk's");
                        }
                        frame.decode(chunk);
                      });
  }

 private:
  static constexpr const char* kThreadsHelp =
      "1 = one frame; else 1 MiB chunks, one frame each, compressed on this many threads (0 = "
      "all cores) behind an index in a skippable frame";
  static CodecInfo fast_info() {
    return peer_info("lz4", LZ4_versionString(), "LZ4 frame, the fast compressor (lz4hc: HC)",
                     {level_axis(0, 0, 0, "0 only: fast LZ4 (its HC levels are lz4hc's)"),
                      peer_threads_axis(kThreadsHelp)});
  }
  // LZ4F compresses levels below LZ4HC_CLEVEL_MIN with the fast compressor: HC starts there.
  static CodecInfo hc_info() {
    return peer_info("lz4hc", LZ4_versionString(), "LZ4 frame, LZ4 HC",
                     {level_axis(LZ4HC_CLEVEL_DEFAULT, LZ4HC_CLEVEL_MIN, LZ4HC_CLEVEL_MAX,
                                 "LZ4 HC level"),
                      peer_threads_axis(kThreadsHelp)});
  }

  CodecInfo info_;
};

}  // namespace

CodecPtr make_lz4_codec() {
  return std::make_unique<Lz4Codec>(false);
}

CodecPtr make_lz4hc_codec() {
  return std::make_unique<Lz4Codec>(true);
}

}  // namespace gcbench::peers
