// The all-core variants of libdeflate and lz4 (threads != 1): independent 1 MiB chunks in
// standard multi-member gzip / LZ4 frames, bytes independent of the thread count, and hostile
// streams rejected.
#include <gtest/gtest.h>

#include <string>

#include "baselines/peers/peers.hpp"
#include "corpora/synthetic.hpp"
#include "gcbench/optional_libraries.hpp"
#include "gcbench/registry.hpp"
#include "support/codec_checks.hpp"

// The tests that call a library directly need its headers: they alone stay behind the macro
// that the library's row of the optional-library table defines where it was found.
#if GCBENCH_HAVE_LIBDEFLATE
#include <libdeflate.h>
#include <zlib.h>
#endif
#if GCBENCH_HAVE_LZ4
#include <lz4frame.h>
#endif

namespace gcbench {
namespace {

using peers::kChunkSize;

// Those of libdeflate and lz4 this build has (the optional-library table), from the registry.
std::vector<const Codec*> chunking_peers() {
  std::vector<const Codec*> peers;
  for (const OptionalLibrary& library : {optional_libraries::libdeflate, optional_libraries::lz4}) {
    if (library.available) peers.push_back(find_codec(std::string(library.name), Device::cpu));
  }
  return peers;
}

Bytes append(Bytes a, const Bytes& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// ~3.5 MiB: random bytes, English text and runs, so that chunks differ in ratio and speed.
Bytes mixed() {
  Bytes data = synthetic::generate({.kind = synthetic::Kind::random_bytes, .size_bytes = 1 << 20});
  const std::string sentence = "The quick brown fox jumps over the lazy dog, then naps. ";
  while (data.size() < (5u << 20) / 2) data.insert(data.end(), sentence.begin(), sentence.end());
  return append(
      data, synthetic::generate({.kind = synthetic::Kind::runs, .size_bytes = 1 << 20, .seed = 3}));
}

// A few KiB spread over three chunks, for the byte-by-byte hostile tests.
Bytes three_chunks() {
  return synthetic::generate({.kind = synthetic::Kind::runs,
                              .size_bytes = 2 * kChunkSize + 3000,
                              .mean_run = 4096,
                              .seed = 5});
}

Params threads(std::int64_t t) {
  return {{"threads", t}};
}

class ChunkedPeersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    peers_ = chunking_peers();
    if (peers_.empty()) {
      GTEST_SKIP() << "libdeflate: " << optional_libraries::libdeflate.missing_reason
                   << "; lz4: " << optional_libraries::lz4.missing_reason;
    }
  }
  std::vector<const Codec*> peers_;
};

TEST_F(ChunkedPeersTest, RoundTripAtEveryThreadCount) {
  auto random = [](std::size_t n) {
    return synthetic::generate({.kind = synthetic::Kind::random_bytes, .size_bytes = n});
  };
  const std::vector<Bytes> inputs = {random(0), random(100), random(kChunkSize),
                                     random(kChunkSize + 1), mixed()};
  for (const auto& peer : peers_) {
    for (const Bytes& data : inputs) {
      for (std::int64_t t : {1, 0, 2}) {
        SCOPED_TRACE(peer->info().name + " size " + std::to_string(data.size()) + " threads " +
                     std::to_string(t));
        Bytes packed = testing::expect_round_trip(*peer, data, threads(t));
        EXPECT_TRUE(peer->decompress(packed, {}) == data) << "decoding on one thread";
      }
    }
  }
}

TEST_F(ChunkedPeersTest, ChunkedBytesDependOnTheInputOnly) {
  const Bytes data = mixed();
  for (const auto& peer : peers_) {
    SCOPED_TRACE(peer->info().name);
    const Bytes two = peer->compress(data, threads(2));
    EXPECT_TRUE(peer->compress(data, threads(0)) == two);
    EXPECT_TRUE(peer->compress(data, threads(3)) == two);
    EXPECT_FALSE(peer->compress(data, threads(1)) == two);
  }
}

TEST_F(ChunkedPeersTest, HostileOneChunkStreamsRejected) {
  Bytes small = synthetic::generate({.kind = synthetic::Kind::runs, .size_bytes = 300, .seed = 7});
  for (const auto& peer : peers_) testing::expect_hostile_inputs_rejected(*peer, small, threads(2));
}

TEST_F(ChunkedPeersTest, EveryTruncationRejected) {
  const Bytes data = three_chunks();
  for (const auto& peer : peers_) {
    const Bytes good = peer->compress(data, threads(2));
    EXPECT_LT(good.size(), 64u << 10) << peer->info().name;
    for (std::size_t len = 0; len < good.size(); ++len) {
      EXPECT_THROW(peer->decompress(ByteSpan(good.data(), len), threads(2)), DecodeError)
          << peer->info().name << ": truncation to " << len << " bytes accepted";
    }
  }
}

// Each byte of [begin, end) flipped (^ 0xFF and ^ 0x01) must be rejected (by the tests of
// libdeflate's and lz4's own formats, built where those libraries are).
[[maybe_unused]] void expect_flips_rejected(const Codec& codec, const Bytes& good,
                                            std::size_t begin, std::size_t end,
                                            const std::string& what) {
  for (std::size_t i = begin; i < end; ++i) {
    for (std::uint8_t mask : {std::uint8_t{0xFF}, std::uint8_t{0x01}}) {
      Bytes bad = good;
      bad[i] ^= mask;
      EXPECT_THROW(codec.decompress(bad, threads(2)), DecodeError)
          << what << ": byte " << i << " ^ " << int{mask} << " accepted";
    }
  }
}

template <typename T>
Bytes with(Bytes bytes, std::size_t at, T value) {
  store_le<T>(bytes.data() + at, value);
  return bytes;
}

#if GCBENCH_HAVE_LIBDEFLATE
// Member layout: 16 fixed header bytes, member size (u32), original size (u64), deflate data,
// CRC-32, ISIZE.
constexpr std::size_t kGzipHeader = 28;

// Inflates every member with zlib, as `gzip -d` does; returns the members' concatenation.
Bytes zlib_gunzip(ByteSpan gz, int& members) {
  z_stream z{};
  EXPECT_EQ(inflateInit2(&z, 16 + MAX_WBITS), Z_OK);
  Bytes out;
  std::uint8_t buffer[1 << 16];
  z.next_in = const_cast<Bytef*>(gz.data());
  z.avail_in = static_cast<uInt>(gz.size());
  members = 0;
  while (z.avail_in != 0) {
    z.next_out = buffer;
    z.avail_out = sizeof buffer;
    int rc = inflate(&z, Z_NO_FLUSH);
    out.insert(out.end(), buffer, z.next_out);
    if (rc == Z_STREAM_END) {
      ++members;
      inflateReset(&z);
    } else if (rc != Z_OK) {
      ADD_FAILURE() << "zlib: " << rc;
      break;
    }
  }
  inflateEnd(&z);
  return out;
}

TEST(LibdeflateChunked, OneThreadWritesLibdeflatesSingleMember) {
  const Bytes data = mixed();
  CodecPtr codec = peers::make_libdeflate_codec();
  libdeflate_compressor* c = libdeflate_alloc_compressor(6);
  Bytes direct(libdeflate_gzip_compress_bound(c, data.size()));
  direct.resize(
      libdeflate_gzip_compress(c, data.data(), data.size(), direct.data(), direct.size()));
  libdeflate_free_compressor(c);
  EXPECT_TRUE(codec->compress(data, threads(1)) == direct);
  EXPECT_TRUE(codec->compress(data, {}) == direct);
  int members = 0;
  EXPECT_TRUE(zlib_gunzip(direct, members) == data);
  EXPECT_EQ(members, 1);
}

TEST(LibdeflateChunked, IsStandardMultiMemberGzip) {
  CodecPtr codec = peers::make_libdeflate_codec();
  for (const Bytes& data : {Bytes{}, mixed()}) {
    int members = 0;
    EXPECT_TRUE(zlib_gunzip(codec->compress(data, threads(0)), members) == data);
    EXPECT_EQ(members, static_cast<int>(peers::chunk_count(data.size())));
  }
}

TEST(LibdeflateChunked, DamagedHeadersAndSizesRejected) {
  CodecPtr codec = peers::make_libdeflate_codec();
  const Bytes good = codec->compress(three_chunks(), threads(2));
  std::vector<std::size_t> starts;
  for (std::size_t at = 0; at < good.size(); at += load_le<std::uint32_t>(good.data() + at + 16)) {
    starts.push_back(at);
  }
  ASSERT_EQ(starts.size(), 3u);
  for (std::size_t i = 0; i < starts.size(); ++i) {
    std::size_t end = i + 1 < starts.size() ? starts[i + 1] : good.size();
    expect_flips_rejected(*codec, good, starts[i], starts[i] + kGzipHeader, "member header");
    expect_flips_rejected(*codec, good, end - 8, end, "member trailer");
  }
  const std::uint32_t first = static_cast<std::uint32_t>(starts[1]);
  for (std::uint32_t size :
       {0u, first - 1, first + 1, static_cast<std::uint32_t>(good.size() + 1), 0xFFFFFFFFu}) {
    EXPECT_THROW(codec->decompress(with(good, 16, size), {}), DecodeError) << "size " << size;
  }
  for (std::uint64_t total : {std::uint64_t{0}, std::uint64_t{1} << 62, ~std::uint64_t{0}}) {
    EXPECT_THROW(codec->decompress(with(good, 20, total), {}), DecodeError) << "total " << total;
  }
  // Every member must agree on the original size.
  const std::uint64_t shorter = 2 * kChunkSize;
  EXPECT_THROW(codec->decompress(with(good, starts[2] + 20, shorter), {}), DecodeError);
  // A member too many: the first one again at the end.
  Bytes extra = append(good, Bytes(good.begin(), good.begin() + first));
  EXPECT_THROW(codec->decompress(extra, {}), DecodeError);
}
#endif

#if GCBENCH_HAVE_LZ4
// Index layout: magic, its size, original size (u64), frame count (u32), frame sizes (u32).
constexpr std::size_t kLz4Index = 20;

// Decodes with LZ4F_decompress alone, frame after frame, as the lz4 program does; the
// library itself passes over skippable frames.
Bytes lz4f_decode_all(ByteSpan in) {
  LZ4F_dctx* ctx = nullptr;
  EXPECT_FALSE(LZ4F_isError(LZ4F_createDecompressionContext(&ctx, LZ4F_VERSION)));
  Bytes out;
  std::uint8_t buffer[1 << 16];
  std::size_t pos = 0;
  while (pos < in.size()) {
    std::size_t src = in.size() - pos, dst = sizeof buffer;
    std::size_t rc = LZ4F_decompress(ctx, buffer, &dst, in.data() + pos, &src, nullptr);
    if (LZ4F_isError(rc) || (src == 0 && dst == 0)) {
      ADD_FAILURE() << "lz4: " << (LZ4F_isError(rc) ? LZ4F_getErrorName(rc) : "no progress");
      break;
    }
    pos += src;
    out.insert(out.end(), buffer, buffer + dst);
  }
  LZ4F_freeDecompressionContext(ctx);
  return out;
}

TEST(Lz4Chunked, OneThreadWritesOneFrame) {
  const Bytes data = mixed();
  CodecPtr codec = peers::make_lz4_codec();
  LZ4F_preferences_t p{};
  p.frameInfo.contentSize = data.size();
  p.frameInfo.blockSizeID = LZ4F_max4MB;
  p.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled;
  Bytes direct(LZ4F_compressFrameBound(data.size(), &p));
  direct.resize(LZ4F_compressFrame(direct.data(), direct.size(), data.data(), data.size(), &p));
  EXPECT_TRUE(codec->compress(data, threads(1)) == direct);
  EXPECT_TRUE(codec->compress(data, {}) == direct);
}

TEST(Lz4Chunked, IsStandardLz4Frames) {
  // lz4 (fast, level 0) and lz4hc (HC, level 9): the same frames, each as lz4 decodes them.
  for (const auto& [codec, level] : {std::pair{peers::make_lz4_codec(), std::int64_t{0}},
                                     std::pair{peers::make_lz4hc_codec(), std::int64_t{9}}}) {
    for (const Bytes& data : {Bytes{}, mixed()}) {
      Bytes packed = codec->compress(data, {{"threads", 0}, {"level", level}});
      EXPECT_EQ(load_le<std::uint32_t>(packed.data()), 0x184D2A50u);  // skippable
      EXPECT_TRUE(lz4f_decode_all(packed) == data) << "level " << level;
    }
  }
}

TEST(Lz4Chunked, DamagedIndexFramesAndSizesRejected) {
  CodecPtr codec = peers::make_lz4_codec();
  const Bytes good = codec->compress(three_chunks(), threads(2));
  const std::uint32_t count = load_le<std::uint32_t>(good.data() + 16);
  ASSERT_EQ(count, 3u);
  std::size_t at = kLz4Index + 4 * count;
  expect_flips_rejected(*codec, good, 0, at, "index");
  for (std::uint32_t i = 0; i < count; ++i) {
    std::size_t end = at + load_le<std::uint32_t>(good.data() + kLz4Index + 4 * i);
    // Magic, FLG, BD, content size (8), header checksum; the content checksum at the end.
    expect_flips_rejected(*codec, good, at, at + 15, "frame header");
    expect_flips_rejected(*codec, good, end - 4, end, "content checksum");
    at = end;
  }
  const std::uint32_t first = load_le<std::uint32_t>(good.data() + kLz4Index);
  for (std::uint32_t size : {0u, static_cast<std::uint32_t>(good.size()), 0xFFFFFFFFu}) {
    EXPECT_THROW(codec->decompress(with(good, kLz4Index, size), {}), DecodeError);
  }
  // Frame sizes that still sum to the rest, but overlap.
  Bytes shifted = with(good, kLz4Index, first + 1);
  shifted = with(shifted, kLz4Index + 4, load_le<std::uint32_t>(good.data() + kLz4Index + 4) - 1);
  EXPECT_THROW(codec->decompress(shifted, {}), DecodeError);
  EXPECT_THROW(codec->decompress(with(good, 4, 0xFFFFFFFFu), {}), DecodeError);
  EXPECT_THROW(codec->decompress(with(good, 8, ~std::uint64_t{0}), {}), DecodeError);
  EXPECT_THROW(codec->decompress(with(good, 8, std::uint64_t{2} * kChunkSize), {}), DecodeError);
  EXPECT_THROW(codec->decompress(with(good, 16, 0xFFFFFFFFu), {}), DecodeError);
}
#endif

}  // namespace
}  // namespace gcbench
