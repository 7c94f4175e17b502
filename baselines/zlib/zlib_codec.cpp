// zlib deflate baseline. The output is one gzip member with the header `gzip -n` writes
// (mtime 0, no name, OS 3 = Unix), so its size is comparable with `gzip -<level> -n` output.
// It is not byte-identical: gzip carries its own deflate, whose block splitting differs from
// zlib's, so sizes differ slightly either way.
#include "baselines/zlib/zlib_codec.hpp"

#include <zlib.h>

#include <algorithm>
#include <limits>
#include <string>

#include "gcbench/container.hpp"
#include "gcbench/errors.hpp"
#include "gcbench/typed_codec.hpp"

namespace gcbench::zlib {
namespace {

constexpr int kGzipWindowBits = 15 + 16;  // 32 KiB window, gzip wrapper
constexpr int kMemLevel = 8;              // zlib's and gzip's default
constexpr int kGzipOsUnix = 3;            // what gzip writes on every platform it is built for
// Inflate can produce at most 258 bytes from 2 bits (a length-258 match with 1-bit codes).
constexpr std::uint64_t kMaxInflateRatio = 1032;
// The smallest gzip member: a 10-byte header, an empty final block of fixed codes (2 bytes), an
// 8-byte trailer.
constexpr std::uint64_t kMinMember = 20;
// zlib counts in uInt; feed it at most this much per call.
constexpr std::size_t kChunk = std::size_t{1} << 30;

uInt chunk_of(std::size_t left) {
  return static_cast<uInt>(std::min(left, kChunk));
}

class DeflateStream {
 public:
  explicit DeflateStream(int level) {
    if (deflateInit2(&s_, level, Z_DEFLATED, kGzipWindowBits, kMemLevel, Z_DEFAULT_STRATEGY) !=
        Z_OK) {
      throw std::runtime_error("zlib: deflateInit2 failed");
    }
    header_.os = kGzipOsUnix;  // time 0, no name/comment/extra: as `gzip -n`
    if (deflateSetHeader(&s_, &header_) != Z_OK) {
      deflateEnd(&s_);
      throw std::runtime_error("zlib: deflateSetHeader failed");
    }
  }
  ~DeflateStream() { deflateEnd(&s_); }
  DeflateStream(const DeflateStream&) = delete;
  DeflateStream& operator=(const DeflateStream&) = delete;
  z_stream* get() { return &s_; }

 private:
  z_stream s_{};
  gz_header header_{};
};

class InflateStream {
 public:
  InflateStream() {
    if (inflateInit2(&s_, kGzipWindowBits) != Z_OK) throw DecodeError("zlib: inflateInit2 failed");
  }
  ~InflateStream() { inflateEnd(&s_); }
  InflateStream(const InflateStream&) = delete;
  InflateStream& operator=(const InflateStream&) = delete;
  z_stream* get() { return &s_; }

 private:
  z_stream s_{};
};

class ZlibCodec final : public TypedCodec<ZlibCodec> {
 public:
  ZlibCodec() {
    info_.name = "zlib";
    info_.version = std::string("zlib ") + zlibVersion();
    info_.device = Device::cpu;
    info_.role = Role::baseline;
    info_.description = "zlib deflate in a gzip member (header as gzip -n), the gzip -6 baseline";
    AxisSpec level;
    level.name = "level";
    level.help = "deflate level; 6 is gzip's default";
    level.default_value = 6;
    level.min = 1;
    level.max = 9;
    level.in_container = true;
    info_.axes = {level};
    // One thread's rate per byte at level 6, compressing or decompressing.
    info_.speed_model = [](const CallEstimate& e) { return e.bytes / (e.compress ? 30e6 : 300e6); };
  }

  // The level axis: the only one zlib has.
  struct Typed {
    int level = 6;
  };

  const CodecInfo& info() const override { return info_; }

  Typed typed(const Params& resolved) const {
    return {static_cast<int>(axis_value(resolved, "level"))};
  }

  std::uint64_t max_compressed_size(std::uint64_t input_size, const Typed& p) const {
    DeflateStream d(p.level);
    return deflateBound(d.get(), static_cast<uLong>(input_size));
  }

  Bytes compress(ByteSpan input, const Typed& p, RunStats* /*stats*/) const {
    DeflateStream d(p.level);
    z_stream* s = d.get();
    Bytes out(deflateBound(s, static_cast<uLong>(input.size())));
    std::size_t in_pos = 0, out_pos = 0;
    for (;;) {
      const std::size_t in_left = input.size() - in_pos;
      const uInt in_now = chunk_of(in_left);
      if (out_pos == out.size()) out.resize(out.size() + out.size() / 2 + 64);  // not expected
      s->next_in = const_cast<Bytef*>(input.data() + in_pos);
      s->avail_in = in_now;
      s->next_out = out.data() + out_pos;
      s->avail_out = chunk_of(out.size() - out_pos);
      const int flush = in_now == in_left ? Z_FINISH : Z_NO_FLUSH;
      const int rc = deflate(s, flush);
      in_pos += in_now - s->avail_in;
      out_pos = static_cast<std::size_t>(s->next_out - out.data());
      if (rc == Z_STREAM_END) break;
      if (rc != Z_OK && rc != Z_BUF_ERROR) {
        throw std::runtime_error(std::string("zlib: deflate failed: ") + (s->msg ? s->msg : ""));
      }
    }
    out.resize(out_pos);
    return out;
  }

  // No axis changes decoding (bind rejected unknown names).
  Bytes decompress(ByteSpan container, const Typed&, RunStats* /*stats*/) const {
    if (container.size() < kMinMember) {
      throw DecodeError("zlib: not a gzip member: " + std::to_string(container.size()) +
                        " bytes, the smallest is " + std::to_string(kMinMember));
    }
    // Output is bounded by what deflate can expand to at all and by the decode limit
    // (container.hpp); the trailer's size (mod 2^32) only sizes the first allocation.
    const std::uint64_t expand = container.size() * kMaxInflateRatio;
    const std::uint64_t limit = decode_limit_for(container.size());
    const std::uint64_t bound = std::min(expand, limit);
    const std::uint64_t isize = load_le<std::uint32_t>(container.data() + container.size() - 4);
    Bytes out(static_cast<std::size_t>(std::min(std::max<std::uint64_t>(isize, 1024), bound)));

    InflateStream inf;
    z_stream* s = inf.get();
    std::size_t in_pos = 0, out_pos = 0;
    for (;;) {
      if (out_pos == out.size()) {
        if (out.size() >= bound) {
          if (bound == limit)
            check_decode_limit("zlib", "decoded size", bound + 1, container.size());
          throw DecodeError("zlib: output exceeds deflate's largest expansion (" +
                            std::to_string(bound) + " bytes for a " +
                            std::to_string(container.size()) + "-byte member)");
        }
        out.resize(static_cast<std::size_t>(std::min<std::uint64_t>(bound, 2 * out.size())));
      }
      const uInt in_now = chunk_of(container.size() - in_pos);
      s->next_in = const_cast<Bytef*>(container.data() + in_pos);
      s->avail_in = in_now;
      s->next_out = out.data() + out_pos;
      s->avail_out = chunk_of(out.size() - out_pos);
      const int rc = inflate(s, Z_NO_FLUSH);
      const std::size_t consumed = in_now - s->avail_in;
      const std::size_t produced = static_cast<std::size_t>(s->next_out - (out.data() + out_pos));
      in_pos += consumed;
      out_pos += produced;
      if (rc == Z_STREAM_END) break;
      if (rc == Z_NEED_DICT || rc == Z_DATA_ERROR || rc == Z_STREAM_ERROR || rc == Z_MEM_ERROR) {
        throw DecodeError("zlib: invalid gzip stream: " +
                          (s->msg ? std::string(s->msg) : "error " + std::to_string(rc)));
      }
      if (in_pos == container.size() && produced == 0) {
        throw DecodeError("zlib: truncated gzip stream");
      }
    }
    if (in_pos != container.size()) {
      throw DecodeError("zlib: " + std::to_string(container.size() - in_pos) +
                        " bytes of trailing data after the gzip member");
    }
    out.resize(out_pos);
    return out;
  }

 private:
  CodecInfo info_;
};

}  // namespace

CodecPtr make_codec() {
  return std::make_unique<ZlibCodec>();
}

}  // namespace gcbench::zlib
