#include <lz4frame.h>
#include <lz4hc.h>

#include <memory>

#include "baselines/peers/peers.hpp"
#include "gcbench/errors.hpp"

namespace gcbench::peers {
namespace {

LZ4F_preferences_t preferences(std::uint64_t content_size, std::int64_t level) {
  LZ4F_preferences_t p{};
  p.frameInfo.contentSize = content_size;
  p.frameInfo.blockSizeID = LZ4F_max4MB;
  p.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled;  // as the lz4 program does
  p.compressionLevel = static_cast<int>(level);  // 0: fast LZ4, >= 1: HC at that level
  return p;
}

class Lz4Codec final : public Codec {
 public:
  const CodecInfo& info() const override { return info_; }

  std::uint64_t max_compressed_size(std::uint64_t n, const Params& params) const override {
    auto p = preferences(n, resolve_params(info_.axes, params).at("level"));
    return LZ4F_compressFrameBound(n, &p);
  }

  Bytes compress(ByteSpan input, const Params& params, RunStats*) const override {
    auto p = preferences(input.size(), resolve_params(info_.axes, params).at("level"));
    Bytes out(LZ4F_compressFrameBound(input.size(), &p));
    std::size_t n = LZ4F_compressFrame(out.data(), out.size(), input.data(), input.size(), &p);
    if (LZ4F_isError(n)) throw std::runtime_error(std::string("lz4: ") + LZ4F_getErrorName(n));
    out.resize(n);
    return out;
  }

  Bytes decompress(ByteSpan in, const Params&, RunStats*) const override {
    LZ4F_dctx* raw = nullptr;
    if (LZ4F_isError(LZ4F_createDecompressionContext(&raw, LZ4F_VERSION))) throw std::bad_alloc();
    std::unique_ptr<LZ4F_dctx, decltype(&LZ4F_freeDecompressionContext)> ctx(
        raw, LZ4F_freeDecompressionContext);
    LZ4F_frameInfo_t frame{};
    std::size_t header = in.size();
    std::size_t hint = LZ4F_getFrameInfo(ctx.get(), &frame, in.data(), &header);
    if (LZ4F_isError(hint)) throw DecodeError(std::string("lz4: ") + LZ4F_getErrorName(hint));
    // contentSize 0 means "unknown" as well as empty: an unknown-size frame with data fails
    // below for want of output room.
    check_claimed_size(frame.contentSize, in.size(), "lz4");
    Bytes out(frame.contentSize);
    std::size_t in_pos = header, out_pos = 0;
    while (hint != 0) {
      std::size_t src = in.size() - in_pos, dst = out.size() - out_pos;
      if (src == 0) throw DecodeError("truncated lz4 frame");
      hint =
          LZ4F_decompress(ctx.get(), out.data() + out_pos, &dst, in.data() + in_pos, &src, nullptr);
      if (LZ4F_isError(hint)) throw DecodeError(std::string("lz4: ") + LZ4F_getErrorName(hint));
      if (src == 0 && dst == 0) throw DecodeError("lz4 frame makes no progress");
      in_pos += src;
      out_pos += dst;
    }
    if (in_pos != in.size()) throw DecodeError("trailing bytes after the lz4 frame");
    if (out_pos != out.size()) throw DecodeError("lz4 frame shorter than its content size");
    return out;
  }

 private:
  CodecInfo info_ = peer_info("lz4", LZ4_versionString(), "LZ4 frame (level 0) or LZ4 HC",
                              {level_axis(0, 0, LZ4HC_CLEVEL_MAX, "0 = fast, 1..12 = HC level")});
};

}  // namespace

CodecPtr make_lz4_codec() {
  return std::make_unique<Lz4Codec>();
}

}  // namespace gcbench::peers
