// The optional CPU peers: what is particular to them (zstd's multi-threaded frames, the size
// guard). Round trips, axis bounds and damaged streams: tests/registry_codecs_test.cpp, as for
// every registered codec.
#include <gtest/gtest.h>

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

TEST(PeersSizeGuard, ClaimsBeyondTheExpansionLimitAreRefused) {
  EXPECT_NO_THROW(peers::check_claimed_size(65536 * 10, 10, "x"));
  EXPECT_THROW(peers::check_claimed_size(65536 * 11, 10, "x"), DecodeError);
  EXPECT_THROW(peers::check_claimed_size(~0ull, ~0ull, "x"), DecodeError);
}

}  // namespace
}  // namespace gcbench
