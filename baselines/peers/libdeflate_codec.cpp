#include <libdeflate.h>

#include <memory>

#include "baselines/peers/peers.hpp"
#include "gcbench/errors.hpp"

namespace gcbench::peers {
namespace {

class LibdeflateCodec final : public Codec {
 public:
  const CodecInfo& info() const override { return info_; }

  std::uint64_t max_compressed_size(std::uint64_t n, const Params& params) const override {
    auto compressor = make_compressor(params);
    return libdeflate_gzip_compress_bound(compressor.get(), n);
  }

  Bytes compress(ByteSpan input, const Params& params, RunStats*) const override {
    auto compressor = make_compressor(params);
    Bytes out(libdeflate_gzip_compress_bound(compressor.get(), input.size()));
    std::size_t n = libdeflate_gzip_compress(compressor.get(), input.data(), input.size(),
                                             out.data(), out.size());
    if (n == 0) throw std::runtime_error("libdeflate: output exceeded its own bound");
    out.resize(n);
    return out;
  }

  // The gzip trailer's ISIZE gives the size (mod 2^32: inputs of 4 GiB or more are refused).
  Bytes decompress(ByteSpan in, const Params&, RunStats*) const override {
    if (in.size() < 18) throw DecodeError("gzip stream shorter than its header and trailer");
    std::uint64_t size = load_le<std::uint32_t>(in.data() + in.size() - 4);
    check_claimed_size(size, in.size(), "gzip");
    Bytes out(size);
    std::unique_ptr<libdeflate_decompressor, decltype(&libdeflate_free_decompressor)> d(
        libdeflate_alloc_decompressor(), libdeflate_free_decompressor);
    if (!d) throw std::bad_alloc();
    std::size_t in_used = 0;
    auto result = libdeflate_gzip_decompress_ex(d.get(), in.data(), in.size(), out.data(),
                                                out.size(), &in_used, nullptr);
    if (result != LIBDEFLATE_SUCCESS) throw DecodeError("libdeflate: invalid gzip stream");
    if (in_used != in.size()) throw DecodeError("trailing bytes after the gzip member");
    return out;
  }

 private:
  using Compressor = std::unique_ptr<libdeflate_compressor, decltype(&libdeflate_free_compressor)>;
  Compressor make_compressor(const Params& params) const {
    auto level = resolve_params(info_.axes, params).at("level");
    Compressor c(libdeflate_alloc_compressor(static_cast<int>(level)), libdeflate_free_compressor);
    if (!c) throw std::bad_alloc();
    return c;
  }

  CodecInfo info_ =
      peer_info("libdeflate", LIBDEFLATE_VERSION_STRING, "libdeflate gzip (whole-buffer deflate)",
                {level_axis(6, 1, 12, "compression level")});
};

}  // namespace

CodecPtr make_libdeflate_codec() {
  return std::make_unique<LibdeflateCodec>();
}

}  // namespace gcbench::peers
