#include <zstd.h>

#include <memory>
#include <span>

#include "baselines/peers/peers.hpp"
#include "gcbench/errors.hpp"
#include "gcbench/typed_codec.hpp"

namespace gcbench::peers {
namespace {

class ZstdCodec final : public TypedCodec<ZstdCodec> {
 public:
  using Typed = PeerParams;

  const CodecInfo& info() const override { return info_; }

  PeerParams typed(const Params& resolved) const { return peer_params(resolved); }

  std::uint64_t max_compressed_size(std::uint64_t n, const PeerParams&) const {
    return ZSTD_compressBound(n);
  }

  Bytes compress(ByteSpan input, const PeerParams& p, RunStats* stats) const {
    return encode_to_bytes(ZSTD_compressBound(input.size()), [&](std::span<std::uint8_t> room) {
      return compress_into(input, room, p, stats);
    });
  }

  // With a compression context kept per thread and its parameters set for each call, as
  // `zstd -b` compresses.
  std::size_t compress_into(ByteSpan input, std::span<std::uint8_t> room, const PeerParams& p,
                            RunStats*) const {
    thread_local const std::unique_ptr<ZSTD_CCtx, decltype(&ZSTD_freeCCtx)> cctx(ZSTD_createCCtx(),
                                                                                 ZSTD_freeCCtx);
    if (!cctx) throw std::bad_alloc();
    ZSTD_CCtx_reset(cctx.get(), ZSTD_reset_session_and_parameters);
    // As the zstd program does: a checksum of the content, so corruption is detected.
    ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_compressionLevel, p.level);
    ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_checksumFlag, 1);
    if (ZSTD_isError(ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_nbWorkers,
                                            p.single_stream ? 0 : p.threads))) {
      throw ParamError("this libzstd was built without multi-threading: use threads=1");
    }
    std::size_t n =
        ZSTD_compress2(cctx.get(), room.data(), room.size(), input.data(), input.size());
    if (ZSTD_isError(n)) throw std::runtime_error(std::string("zstd: ") + ZSTD_getErrorName(n));
    return n;
  }

  // One frame whose header carries the content size (ZSTD_compress2 writes it).
  Bytes decompress(ByteSpan in, const PeerParams& p, RunStats* stats) const {
    return decode_to_bytes(content_size(in), in.size(), "zstd", [&](std::span<std::uint8_t> out) {
      decompress_into(in, out, p, stats);
    });
  }

  // With a decompression context kept per thread, as `zstd -b` decodes.
  void decompress_into(ByteSpan in, std::span<std::uint8_t> out, const PeerParams&,
                       RunStats*) const {
    const std::uint64_t size = content_size(in);
    check_output_size(size, out.size(), "zstd");
    thread_local const std::unique_ptr<ZSTD_DCtx, decltype(&ZSTD_freeDCtx)> dctx(ZSTD_createDCtx(),
                                                                                 ZSTD_freeDCtx);
    if (!dctx) throw std::bad_alloc();
    std::size_t n = ZSTD_decompressDCtx(dctx.get(), out.data(), out.size(), in.data(), in.size());
    if (ZSTD_isError(n)) throw DecodeError(std::string("zstd: ") + ZSTD_getErrorName(n));
    if (n != size) throw DecodeError("zstd frame decoded to fewer bytes than its header says");
  }

 private:
  // The frame's content size from its header, the frame checked to end the input.
  static std::uint64_t content_size(ByteSpan in) {
    unsigned long long size = ZSTD_getFrameContentSize(in.data(), in.size());
    if (size == ZSTD_CONTENTSIZE_ERROR) throw DecodeError("not a zstd frame");
    if (size == ZSTD_CONTENTSIZE_UNKNOWN) throw DecodeError("zstd frame without content size");
    std::size_t frame = ZSTD_findFrameCompressedSize(in.data(), in.size());
    if (ZSTD_isError(frame)) throw DecodeError(std::string("zstd: ") + ZSTD_getErrorName(frame));
    if (frame != in.size()) throw DecodeError("trailing bytes after the zstd frame");
    return size;
  }

  CodecInfo info_ = peer_info("zstd", ZSTD_versionString(), "Zstandard frame",
                              {level_axis(3, 1, 19, "compression level"),
                               peer_threads_axis("zstd's own worker threads (zstd -T): "
                                                 "1 = single-threaded, 0 = all cores")});
};

}  // namespace

CodecPtr make_zstd_codec() {
  return std::make_unique<ZstdCodec>();
}

}  // namespace gcbench::peers
