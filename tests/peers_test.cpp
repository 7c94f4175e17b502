// The optional CPU peers: each present one round-trips and rejects damaged streams.
#include <gtest/gtest.h>

#include "baselines/peers/peers.hpp"
#include "corpora/synthetic.hpp"
#include "gcbench/registry.hpp"
#include "support/codec_checks.hpp"

namespace gcbench {
namespace {

// The CPU peers this build has, from the registry (the one table of optional libraries).
std::vector<const Codec*> present_peers() {
  std::vector<const Codec*> peers;
  for (const Codec* c : registered_codecs()) {
    if (c->info().role == Role::peer && c->info().device == Device::cpu) peers.push_back(c);
  }
  return peers;
}

class PeersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    peers_ = present_peers();
    if (peers_.empty()) GTEST_SKIP() << "no CPU peer library was found at configure time";
  }
  std::vector<const Codec*> peers_;
};

TEST_F(PeersTest, RoundTripAtEveryDeclaredLevelBound) {
  Bytes text = synthetic::generate({.kind = synthetic::Kind::runs, .size_bytes = 300000});
  for (const auto& peer : peers_) {
    const AxisSpec& level = peer->info().axes.at(0);
    for (std::int64_t l : {level.min, level.default_value, level.max}) {
      SCOPED_TRACE(peer->info().name + " level " + std::to_string(l));
      Bytes packed = testing::expect_round_trip(*peer, text, {{"level", l}});
      EXPECT_LT(packed.size(), text.size() / 2);
    }
  }
}

TEST_F(PeersTest, EdgeSizes) {
  for (const auto& peer : peers_) {
    for (std::size_t n : {0, 1, 2, 65536, 65537}) {
      SCOPED_TRACE(peer->info().name + " size " + std::to_string(n));
      testing::expect_round_trip(
          *peer, synthetic::generate({.kind = synthetic::Kind::random_bytes, .size_bytes = n}));
    }
  }
}

TEST_F(PeersTest, HostileStreamsRejected) {
  Bytes small = synthetic::generate({.kind = synthetic::Kind::runs, .size_bytes = 300, .seed = 7});
  for (const auto& peer : peers_) testing::expect_hostile_inputs_rejected(*peer, small);
}

TEST_F(PeersTest, GarbageRejectedWithoutHugeAllocation) {
  Bytes garbage(64, 0xFF);
  for (const auto& peer : peers_) {
    EXPECT_THROW(peer->decompress(garbage, {}), DecodeError) << peer->info().name;
  }
}

#if GCBENCH_HAVE_ZSTD
TEST(ZstdPeer, MultiThreadedFramesRoundTrip) {
  CodecPtr zstd = peers::make_zstd_codec();
  Bytes data = synthetic::generate({.kind = synthetic::Kind::runs, .size_bytes = 3 << 20});
  Bytes single = testing::expect_round_trip(*zstd, data, {{"threads", 1}});
  Bytes multi = testing::expect_round_trip(*zstd, data, {{"threads", 4}});
  EXPECT_LT(multi.size(), data.size() / 2);
  EXPECT_LT(single.size(), data.size() / 2);
}
#endif

TEST(PeersSizeGuard, ClaimsBeyondTheExpansionLimitAreRefused) {
  EXPECT_NO_THROW(peers::check_claimed_size(65536 * 10, 10, "x"));
  EXPECT_THROW(peers::check_claimed_size(65536 * 11, 10, "x"), DecodeError);
  EXPECT_THROW(peers::check_claimed_size(~0ull, ~0ull, "x"), DecodeError);
}

}  // namespace
}  // namespace gcbench
