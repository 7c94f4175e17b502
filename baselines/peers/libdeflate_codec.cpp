#include <libdeflate.h>

#include <algorithm>
#include <array>
#include <memory>

#include "baselines/peers/peers.hpp"
#include "gcbench/errors.hpp"
#include "gcbench/typed_codec.hpp"

namespace gcbench::peers {
namespace {

// All-core variant: a multi-member gzip file (gzip -d concatenates the members), one member
// per chunk. As in BGZF, each member's header carries an extra subfield (ours: "GC", 12 bytes)
// with the member's own size (u32 LE), so that a decoder finds every member without inflating
// the ones before it, and with the whole file's original size (u64 LE), so that a file cut at
// a member boundary is told from a shorter input.
constexpr std::array<std::uint8_t, 16> kMemberHeader = {
    0x1f, 0x8b, 8,  4,   // ID1 ID2, CM = deflate, FLG = FEXTRA
    0,    0,    0,  0,   // MTIME: none
    0,    0xff,          // XFL, OS = unknown (as libdeflate writes)
    16,   0,             // XLEN
    'G',  'C',  12, 0};  // SI1 SI2, LEN of the subfield: member size, original size
constexpr std::size_t kHeaderSize = kMemberHeader.size() + 12;
constexpr std::size_t kTrailerSize = 8;  // CRC-32, ISIZE

struct FreeCompressor {
  void operator()(libdeflate_compressor* c) const { libdeflate_free_compressor(c); }
};
struct FreeDecompressor {
  void operator()(libdeflate_decompressor* d) const { libdeflate_free_decompressor(d); }
};
using Compressor = std::unique_ptr<libdeflate_compressor, FreeCompressor>;
using Decompressor = std::unique_ptr<libdeflate_decompressor, FreeDecompressor>;

constexpr std::int64_t kMaxLevel = 12;

Compressor make_compressor(std::int64_t level) {
  Compressor c(libdeflate_alloc_compressor(static_cast<int>(level)));
  if (!c) throw std::bad_alloc();
  return c;
}

// The calling thread's compressor for `level` (1..kMaxLevel), kept across calls as libdeflate's
// own benchmark keeps one: allocating one costs more than compressing a small file.
libdeflate_compressor* thread_compressor(std::int64_t level) {
  thread_local std::array<Compressor, kMaxLevel + 1> compressors;
  Compressor& c = compressors.at(static_cast<std::size_t>(level));
  if (!c) c = make_compressor(level);
  return c.get();
}

// The calling thread's decompressor, kept across calls as libdeflate's own benchmark keeps one.
libdeflate_decompressor* thread_decompressor() {
  thread_local const Decompressor d(libdeflate_alloc_decompressor());
  if (!d) throw std::bad_alloc();
  return d.get();
}

std::size_t write_member(ByteSpan chunk, std::uint64_t total, std::span<std::uint8_t> room,
                         std::int64_t level) {
  std::size_t n = libdeflate_deflate_compress(thread_compressor(level), chunk.data(), chunk.size(),
                                              room.data() + kHeaderSize,
                                              room.size() - kHeaderSize - kTrailerSize);
  if (n == 0) throw std::runtime_error("libdeflate: output exceeded its own bound");
  std::uint8_t* p = std::copy(kMemberHeader.begin(), kMemberHeader.end(), room.data());
  const std::size_t size = kHeaderSize + n + kTrailerSize;
  store_le<std::uint32_t>(p, static_cast<std::uint32_t>(size));
  store_le<std::uint64_t>(p + 4, total);
  p += 12 + n;
  store_le<std::uint32_t>(p, libdeflate_crc32(0, chunk.data(), chunk.size()));
  store_le<std::uint32_t>(p + 4, static_cast<std::uint32_t>(chunk.size()));
  return size;
}

void read_member(ByteSpan member, std::span<std::uint8_t> out) {
  const std::uint8_t* trailer = member.data() + member.size() - kTrailerSize;
  if (load_le<std::uint32_t>(trailer + 4) != out.size()) {
    throw DecodeError("gzip member's ISIZE differs from its chunk's size");
  }
  ByteSpan deflate = member.subspan(kHeaderSize, member.size() - kHeaderSize - kTrailerSize);
  std::size_t used = 0;
  auto result =
      libdeflate_deflate_decompress_ex(thread_decompressor(), deflate.data(), deflate.size(),
                                       out.data(), out.size(), &used, nullptr);
  if (result != LIBDEFLATE_SUCCESS) throw DecodeError("libdeflate: invalid deflate data");
  if (used != deflate.size()) throw DecodeError("bytes between deflate data and gzip trailer");
  if (libdeflate_crc32(0, out.data(), out.size()) != load_le<std::uint32_t>(trailer)) {
    throw DecodeError("gzip member fails its CRC-32");
  }
}

// The members of a chunked stream, found by the sizes in their headers; each header must be
// exactly ours, and all must agree on the original size, which fixes the member count.
struct Members {
  std::uint64_t total = 0;
  std::vector<ByteSpan> members;
};

bool is_member_sequence(ByteSpan in) {
  return in.size() >= 4 && std::equal(in.begin(), in.begin() + 4, kMemberHeader.begin());
}

Members find_members(ByteSpan in) {
  ByteReader r(in);
  Members found;
  while (r.remaining() != 0) {
    const std::size_t begin = r.position();
    ByteSpan header = r.take(kHeaderSize, "gzip member header");
    if (!std::equal(kMemberHeader.begin(), kMemberHeader.end(), header.begin())) {
      throw DecodeError("gzip member header is not a gcbench chunk's");
    }
    const std::uint32_t size = load_le<std::uint32_t>(header.data() + kMemberHeader.size());
    const std::uint64_t claimed = load_le<std::uint64_t>(header.data() + kMemberHeader.size() + 4);
    if (found.members.empty()) {
      check_claimed_size(claimed, in.size(), "gzip");
      found.total = claimed;
    }
    if (claimed != found.total) throw DecodeError("gzip members disagree on the original size");
    if (found.members.size() == chunk_count(found.total)) {
      throw DecodeError("more gzip members than chunks");
    }
    if (size < kHeaderSize + kTrailerSize) throw DecodeError("gzip member size too small");
    r.take(size - kHeaderSize, "gzip member");
    found.members.push_back(in.subspan(begin, size));
  }
  return found;
}

// One member's original size: the gzip trailer's ISIZE (mod 2^32: inputs of 4 GiB or more
// are refused).
std::uint64_t member_size(ByteSpan in) {
  if (in.size() < 18) throw DecodeError("gzip stream shorter than its header and trailer");
  return load_le<std::uint32_t>(in.data() + in.size() - 4);
}

class LibdeflateCodec final : public TypedCodec<LibdeflateCodec> {
 public:
  using Typed = PeerParams;

  const CodecInfo& info() const override { return info_; }

  PeerParams typed(const Params& resolved) const { return peer_params(resolved); }

  std::uint64_t max_compressed_size(std::uint64_t n, const PeerParams& p) const {
    libdeflate_compressor* c = thread_compressor(p.level);
    if (p.single_stream) return libdeflate_gzip_compress_bound(c, n);
    return chunked_bound(n, 0, member_bound(c));
  }

  Bytes compress(ByteSpan input, const PeerParams& p, RunStats* stats) const {
    return encode_to_bytes(max_compressed_size(input.size(), p), [&](std::span<std::uint8_t> room) {
      return compress_into(input, room, p, stats);
    });
  }

  std::size_t compress_into(ByteSpan input, std::span<std::uint8_t> room, const PeerParams& p,
                            RunStats*) const {
    const std::int64_t level = p.level;
    libdeflate_compressor* c = thread_compressor(level);
    if (!p.single_stream) {
      return compress_chunks(input, room, p.threads, 0, member_bound(c),
                             [&](ByteSpan chunk, std::span<std::uint8_t> member_room) {
                               return write_member(chunk, input.size(), member_room, level);
                             })
          .size;
    }
    std::size_t n =
        libdeflate_gzip_compress(c, input.data(), input.size(), room.data(), room.size());
    if (n == 0) throw std::runtime_error("libdeflate: output exceeded its own bound");
    return n;
  }

  Bytes decompress(ByteSpan in, const PeerParams& p, RunStats* stats) const {
    const std::uint64_t size = is_member_sequence(in) ? find_members(in).total : member_size(in);
    return decode_to_bytes(size, in.size(), "gzip", [&](std::span<std::uint8_t> out) {
      decompress_into(in, out, p, stats);
    });
  }

  void decompress_into(ByteSpan in, std::span<std::uint8_t> out, const PeerParams& p,
                       RunStats*) const {
    if (is_member_sequence(in)) {
      const Members found = find_members(in);
      check_output_size(found.total, out.size(), "gzip");
      decompress_chunks(found.members, out, p.threads, read_member);
      return;
    }
    check_output_size(member_size(in), out.size(), "gzip");
    std::size_t in_used = 0;
    auto result = libdeflate_gzip_decompress_ex(thread_decompressor(), in.data(), in.size(),
                                                out.data(), out.size(), &in_used, nullptr);
    if (result != LIBDEFLATE_SUCCESS) throw DecodeError("libdeflate: invalid gzip stream");
    if (in_used != in.size()) throw DecodeError("trailing bytes after the gzip member");
  }

 private:
  static ChunkBound member_bound(libdeflate_compressor* c) {
    return [c](std::uint64_t size) {
      return kHeaderSize + libdeflate_deflate_compress_bound(c, size) + kTrailerSize;
    };
  }

  CodecInfo info_ = peer_info(
      "libdeflate", LIBDEFLATE_VERSION_STRING, "libdeflate gzip (whole-buffer deflate)",
      {level_axis(6, 1, kMaxLevel, "compression level"),
       peer_threads_axis("1 = one gzip member; else one member per 1 MiB chunk, compressed on "
                         "this many threads (0 = all cores)")});
};

}  // namespace

CodecPtr make_libdeflate_codec() {
  return std::make_unique<LibdeflateCodec>();
}

}  // namespace gcbench::peers
