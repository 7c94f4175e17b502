// The checks every registered CPU codec gets (tests/support/codec_suites.hpp: round trips,
// damaged containers, parameters outside the axes), and those for the codecs that claim a
// property by their axes: every axis at its bounds, a threads axis that does not shape the bytes
// (the output and decoding are the same at every thread count). What is particular to one
// format stays in that codec's test file; the GPU codecs' instantiation is tests/gpu/.
#include <gtest/gtest.h>

#include <numeric>
#include <string>
#include <vector>

#include "corpora/synthetic.hpp"
#include "support/codec_suites.hpp"

namespace gcbench::testing {
namespace {

INSTANTIATE_TEST_SUITE_P(Cpu, RegisteredCodec, ::testing::ValuesIn(registered_on(Device::cpu)),
                         codec_test_name);

// An axis's bounds and default, or each of its allowed or named values.
std::vector<std::int64_t> bound_values(const AxisSpec& axis) {
  if (!axis.allowed.empty()) return axis.allowed;
  if (!axis.names.empty()) {
    std::vector<std::int64_t> all(axis.names.size());
    std::iota(all.begin(), all.end(), 0);
    return all;
  }
  return {axis.min, axis.default_value, axis.max};
}

class AxisBounds : public ::testing::TestWithParam<const Codec*> {};

// One axis at a time at its bounds, the others at their defaults; general-purpose peers also
// compress runs to less than half at each.
TEST_P(AxisBounds, RoundTripsAtEachAxisBound) {
  const Codec& codec = *GetParam();
  const Bytes runs = synthetic::generate({.kind = synthetic::Kind::runs, .size_bytes = 300000});
  for (const AxisSpec& axis : codec.info().axes) {
    for (std::int64_t v : bound_values(axis)) {
      SCOPED_TRACE(axis.name + "=" + axis.format(v));
      const Bytes packed = expect_round_trip(codec, runs, {{axis.name, v}});
      if (codec.info().role == Role::peer) {
        EXPECT_LT(packed.size(), runs.size() / 2);
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Cpu, AxisBounds,
                         ::testing::ValuesIn(registered_with(
                             Device::cpu, [](const Codec& c) { return !c.info().axes.empty(); })),
                         codec_test_name);

bool has_speed_only_threads(const Codec& codec) {
  const AxisSpec* threads = find_axis(codec, "threads");
  return threads != nullptr && !threads->in_container;
}

// The points a thread-count check covers: every element width, each at frame sizes that cut
// the input differently where the codec has frames.
std::vector<Params> thread_check_points(const Codec& codec) {
  const AxisSpec* element_width = find_axis(codec, "element_width");
  if (element_width == nullptr) return {{}};
  std::vector<Params> points;
  for (std::int64_t width : element_width->allowed) {
    if (find_axis(codec, "frame_size") == nullptr) {
      points.push_back({{"element_width", width}});
      continue;
    }
    for (std::int64_t frame_size : {1, 3, 1000}) {
      points.push_back({{"element_width", width}, {"frame_size", frame_size}});
    }
  }
  return points;
}

class ThreadedCodec : public ::testing::TestWithParam<const Codec*> {};

TEST_P(ThreadedCodec, ThreadCountDoesNotChangeTheBytes) {
  const Codec& codec = *GetParam();
  std::vector<Bytes> data = {mixed_widths(30001, 6), byte_runs(30001, 50, 5), random_bytes(9999, 8),
                             Bytes(777, 0), Bytes(7777, 0)};
  for (std::size_t size : {0, 1, 2, 3, 5, 9, 33}) {
    data.push_back(mixed_widths(size, 9));
    data.push_back(byte_runs(size, 4, 9));
  }
  for (const Bytes& d : data) {
    for (Params p : thread_check_points(codec)) {
      SCOPED_TRACE("size " + std::to_string(d.size()) + " " + describe(p));
      p["threads"] = 1;
      const Bytes sequential = codec.compress(d, p);
      for (std::int64_t threads : {2, 3, 8}) {
        p["threads"] = threads;
        EXPECT_EQ(codec.compress(d, p), sequential) << threads << " threads";
        EXPECT_EQ(codec.decompress(sequential, {{"threads", threads}}), d) << threads << " threads";
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Cpu, ThreadedCodec,
                         ::testing::ValuesIn(registered_with(Device::cpu, has_speed_only_threads)),
                         codec_test_name);

}  // namespace
}  // namespace gcbench::testing
