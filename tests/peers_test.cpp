// The optional CPU peers: what is particular to them (zstd's multi-threaded frames, the decode
// into a caller's buffer, the size guard). Round trips, axis bounds and damaged streams:
// tests/registry_codecs_test.cpp, as for every registered codec.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "baselines/peers/peers.hpp"
#include "corpora/synthetic.hpp"
#include "gcbench/optional_libraries.hpp"
#include "gcbench/registry.hpp"
#include "support/codec_checks.hpp"

namespace gcbench {
namespace {

TEST(ZstdPeer, MultiThreadedFramesRoundTrip) {
  if (!optional_libraries::zstd.available) GTEST_SKIP() << optional_libraries::zstd.missing_reason;
  const Codec& zstd = *find_codec("zstd", Device::cpu);
  Bytes data = synthetic::generate({.kind = synthetic::Kind::runs, .size_bytes = 3 << 20});
  Bytes single = testing::expect_round_trip(zstd, data, {{"threads", 1}});
  Bytes multi = testing::expect_round_trip(zstd, data, {{"threads", 4}});
  EXPECT_LT(multi.size(), data.size() / 2);
  EXPECT_LT(single.size(), data.size() / 2);
}

// The peers decode into the caller's buffer (BoundCodec::decompress_into), one stream and
// chunked, with what decompress() gives; a buffer of another size and a damaged stream are
// DecodeErrors, and the thread's kept context decodes again after one. Codecs without their
// own say so (the driver then times decompress()).
TEST(Peers, DecodeIntoTheCallersBuffer) {
  const Bytes data = synthetic::generate({.kind = synthetic::Kind::runs, .size_bytes = 3 << 20});
  int checked = 0;
  for (const Codec* codec : registered_codecs()) {
    const bool peer = codec->info().role == Role::peer && codec->info().device == Device::cpu;
    for (const std::int64_t threads : {1, 4}) {
      if (!peer && threads != 1) continue;
      SCOPED_TRACE(codec->info().name + " threads " + std::to_string(threads));
      const Params params = peer ? Params{{"threads", threads}} : Params{};
      const BoundCodecPtr bound = codec->bind(params);
      if (!peer) {
        // gcbench's own CPU codecs return their output (a plugin's decodes into gcbench's).
        const std::string& name = codec->info().name;
        if (name == "fl" || name == "rle" || name == "lz77" || name == "zlib") {
          EXPECT_FALSE(bound->decodes_into());
        }
        continue;
      }
      EXPECT_TRUE(bound->decodes_into());
      const Bytes container = bound->compress(data);
      Bytes out(data.size(), 0xA5);
      bound->decompress_into(container, out);
      EXPECT_EQ(out, data);
      Bytes short_out(data.size() - 1);
      EXPECT_THROW(bound->decompress_into(container, short_out), DecodeError);
      Bytes damaged = container;
      damaged[damaged.size() / 2] ^= 0x5A;
      damaged.resize(damaged.size() - 3);
      EXPECT_THROW(bound->decompress_into(damaged, out), DecodeError);
      std::fill(out.begin(), out.end(), 0);
      bound->decompress_into(container, out);
      EXPECT_EQ(out, data);
      ++checked;
    }
  }
  if (checked == 0) GTEST_SKIP() << "no CPU peer was built (libdeflate, zstd, lz4)";
}

// The peers compress into the caller's buffer (BoundCodec::compress_into) the bytes compress()
// returns, one stream and chunked, again after a call at another level (the thread's kept
// context carries nothing over); gcbench's own codecs take the default, which copies.
TEST(Peers, CompressIntoTheCallersBuffer) {
  const Bytes data = synthetic::generate({.kind = synthetic::Kind::runs, .size_bytes = 3 << 20});
  auto compressed_into = [&](const BoundCodec& bound) {
    Bytes room(bound.max_compressed_size(data.size()), 0xA5);
    room.resize(bound.compress_into(data, room));
    return room;
  };
  int checked = 0;
  for (const Codec* codec : registered_codecs()) {
    const CodecInfo& info = codec->info();
    if (info.device != Device::cpu) continue;
    if (info.role != Role::peer) {
      if (info.name == "fl" || info.name == "rle" || info.name == "lz77") {
        const BoundCodecPtr bound = codec->bind({});
        EXPECT_FALSE(bound->compresses_into()) << info.name;
        EXPECT_EQ(compressed_into(*bound), bound->compress(data)) << info.name;
      }
      continue;
    }
    // Another level than the default, where the codec has one (lz4's is 0 alone).
    const AxisSpec& level =
        *std::find_if(info.axes.begin(), info.axes.end(),
                      [](const AxisSpec& a) { return a.name == "level"; });
    const std::int64_t other_level = level.min != level.default_value ? level.min : level.max;
    for (const std::int64_t threads : {1, 4}) {
      SCOPED_TRACE(info.name + " threads " + std::to_string(threads));
      const BoundCodecPtr bound = codec->bind({{"threads", threads}});
      const BoundCodecPtr other = codec->bind({{"threads", threads}, {"level", other_level}});
      EXPECT_TRUE(bound->compresses_into());
      const Bytes expected = bound->compress(data);
      EXPECT_EQ(compressed_into(*bound), expected);
      EXPECT_EQ(compressed_into(*other), other->compress(data));
      EXPECT_EQ(compressed_into(*bound), expected);
      ++checked;
    }
  }
  if (checked == 0) GTEST_SKIP() << "no CPU peer was built (libdeflate, zstd, lz4)";
}

TEST(PeersSizeGuard, ClaimsBeyondTheExpansionLimitAreRefused) {
  EXPECT_NO_THROW(peers::check_claimed_size(65536 * 10, 10, "x"));
  EXPECT_THROW(peers::check_claimed_size(65536 * 11, 10, "x"), DecodeError);
  EXPECT_THROW(peers::check_claimed_size(~0ull, ~0ull, "x"), DecodeError);
}

}  // namespace
}  // namespace gcbench
