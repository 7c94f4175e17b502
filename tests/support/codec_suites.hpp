#pragma once
// The checks every registered codec gets, as GoogleTest value-parameterized suites over the
// registry: round trips (empty, one byte, sizes that are no multiple of the element width, the
// mirrored corpora), damaged containers (truncations, bit flips, a wrong magic, garbage: a
// DecodeError, never a crash) and parameters outside the declared axes. A test binary includes
// this once and instantiates the suites with its codecs (the CPU ones in tests/, the GPU ones in
// tests/gpu/); GPU codecs skip, saying why, where no device can run them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "corpora/corpora.hpp"
#include "gcbench/errors.hpp"
#include "gcbench/registry.hpp"
#include "support/codec_checks.hpp"
#include "support/inputs.hpp"

namespace gcbench::testing {

inline const AxisSpec* find_axis(const Codec& codec, const std::string& name) {
  const auto& axes = codec.info().axes;
  auto it =
      std::find_if(axes.begin(), axes.end(), [&](const AxisSpec& a) { return a.name == name; });
  return it == axes.end() ? nullptr : &*it;
}

// The registered codecs on `device` that claim `property` (a predicate on the codec).
template <typename Property>
std::vector<const Codec*> registered_with(Device device, Property property) {
  std::vector<const Codec*> out;
  for (const Codec* c : registered_codecs()) {
    if (c->info().device == device && property(*c)) out.push_back(c);
  }
  return out;
}

inline std::vector<const Codec*> registered_on(Device device) {
  return registered_with(device, [](const Codec&) { return true; });
}

// The codec's name as a test name ("nvcomp-lz4" -> "nvcomp_lz4").
inline std::string codec_test_name(const ::testing::TestParamInfo<const Codec*>& info) {
  std::string name = info.param->info().name;
  std::replace_if(
      name.begin(), name.end(), [](char ch) { return !std::isalnum(ch); }, '_');
  return name;
}

// The points of the format axes the checks cover: the defaults, every element width where the
// codec has that axis, and a small frame where it has frames (frames cut the input otherwise).
inline std::vector<Params> format_points(const Codec& codec) {
  const AxisSpec* width = find_axis(codec, "element_width");
  if (width == nullptr) return {{}};
  std::vector<Params> points;
  for (std::int64_t w : width->allowed) points.push_back({{"element_width", w}});
  if (find_axis(codec, "frame_size") != nullptr) {
    points.push_back({{"element_width", 2}, {"frame_size", 100}});
  }
  return points;
}

// The parameters `codec` takes of a point made for a codec with the same format axes (a GPU
// codec's point, for its CPU reference).
inline Params format_params_for(const Codec& codec, const Params& point) {
  Params p;
  for (const auto& [name, value] : point) {
    if (find_axis(codec, name) != nullptr) p[name] = value;
  }
  return p;
}

class RegisteredCodec : public ::testing::TestWithParam<const Codec*> {
 protected:
  void SetUp() override {
    if (GetParam()->info().device != Device::gpu) return;
    try {
      GetParam()->compress({}, {});
    } catch (const DeviceUnavailable& e) {
      GTEST_SKIP() << e.what();
    }
  }
  const Codec& codec() const { return *GetParam(); }
};

// With a speed-only threads axis, also on one thread (the plain sequential code).
TEST_P(RegisteredCodec, RoundTripsEdgeInputs) {
  const AxisSpec* threads = find_axis(codec(), "threads");
  const bool sequential_too = threads != nullptr && !threads->in_container;
  for (Params p : format_points(codec())) {
    for (const auto& [name, data] : edge_inputs()) {
      SCOPED_TRACE(name + " " + describe(p));
      expect_round_trip(codec(), data, p);
      if (sequential_too) {
        p["threads"] = 1;
        expect_round_trip(codec(), data, p);
        p.erase("threads");
      }
    }
  }
}

TEST_P(RegisteredCodec, RoundTripsCorpusFiles) {
  std::size_t files = 0;
  for (const char* corpus : {"calgary", "canterbury"}) {
    for (const auto& file : corpus_files(corpus)) {
      SCOPED_TRACE(file.path.string());
      const Bytes data = corpora::read_file(file.path);
      for (const Params& p : format_points(codec())) expect_round_trip(codec(), data, p);
      ++files;
    }
  }
  if (files == 0) GTEST_SKIP() << "no Calgary or Canterbury file is available";
}

// Every truncation and single-byte flip of a few small containers.
TEST_P(RegisteredCodec, RejectsDamagedContainers) {
  for (Params p : format_points(codec())) {
    SCOPED_TRACE(describe(p));
    if (find_axis(codec(), "frame_size") != nullptr) p["frame_size"] = 3;  // frames in few bytes
    expect_hostile_inputs_rejected(codec(), mixed_widths(23, 10), p);
    expect_hostile_inputs_rejected(codec(), byte_runs(23, 5, 10), p);
    expect_hostile_inputs_rejected(codec(), Bytes{}, p);
  }
}

TEST_P(RegisteredCodec, RejectsAWrongMagicAndGarbage) {
  const Bytes input = byte_runs(1000, 9, 3);
  Bytes container = codec().compress(input, {});
  ASSERT_GE(container.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) container[i] ^= 0xFF;
  EXPECT_THROW(codec().decompress(container, {}), DecodeError) << "magic inverted";
  for (std::uint8_t fill : {0x00, 0xFF}) {
    EXPECT_THROW(codec().decompress(Bytes(64, fill), {}), DecodeError) << "64 bytes of " << +fill;
  }
}

// Each axis just outside its range (or its allowed values), and an axis the codec lacks:
// bind() refuses them before any call, naming the axis and what it allows.
TEST_P(RegisteredCodec, RejectsParametersOutsideItsAxes) {
  for (const AxisSpec& axis : codec().info().axes) {
    std::vector<std::int64_t> outside = {axis.min - 1, axis.max + 1};
    if (!axis.allowed.empty()) {  // the gaps between allowed values too (element_width=3)
      outside.clear();
      const auto [low, high] = std::minmax_element(axis.allowed.begin(), axis.allowed.end());
      for (std::int64_t v = *low - 1; v <= *high + 1; ++v) {
        if (std::find(axis.allowed.begin(), axis.allowed.end(), v) == axis.allowed.end()) {
          outside.push_back(v);
        }
      }
    }
    for (std::int64_t v : outside) {
      try {
        codec().bind({{axis.name, v}});
        ADD_FAILURE() << axis.name << "=" << v << " bound";
      } catch (const ParamError& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find(axis.name), std::string::npos) << message;
        EXPECT_NE(message.find(axis.valid_values()), std::string::npos) << message;
      }
    }
  }
  EXPECT_THROW(codec().bind({{"no_such_axis", 1}}), ParamError);
}

}  // namespace gcbench::testing
