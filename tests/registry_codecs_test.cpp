// Checks run over the registry, for every registered CPU codec that claims the property by its
// axes: an element_width axis (round trips, damaged containers and corpus files at every
// width), a threads axis that does not shape the bytes (the output and decoding are the same
// at every thread count). What is particular to one format stays in that codec's test file.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <utility>
#include <vector>

#include "corpora/corpora.hpp"
#include "gcbench/registry.hpp"
#include "support/codec_checks.hpp"
#include "support/inputs.hpp"

namespace gcbench {
namespace {

const AxisSpec* find_axis(const Codec& codec, const std::string& name) {
  const auto& axes = codec.info().axes;
  auto it =
      std::find_if(axes.begin(), axes.end(), [&](const AxisSpec& a) { return a.name == name; });
  return it == axes.end() ? nullptr : &*it;
}

bool has_element_width(const Codec& codec) {
  return find_axis(codec, "element_width") != nullptr;
}

bool has_speed_only_threads(const Codec& codec) {
  const AxisSpec* threads = find_axis(codec, "threads");
  return threads != nullptr && !threads->in_container;
}

// The registered CPU codecs that claim `property`.
template <typename Property>
std::vector<const Codec*> cpu_codecs_with(Property property) {
  std::vector<const Codec*> out;
  for (const Codec* c : registered_codecs()) {
    if (c->info().device == Device::cpu && property(*c)) out.push_back(c);
  }
  return out;
}

std::string test_name(const ::testing::TestParamInfo<const Codec*>& info) {
  std::string name = info.param->info().name;
  std::replace_if(
      name.begin(), name.end(), [](char ch) { return !std::isalnum(ch); }, '_');
  return name;
}

std::vector<std::int64_t> element_widths(const Codec& codec) {
  return find_axis(codec, "element_width")->allowed;
}

bool has_frame_size(const Codec& codec) {
  return find_axis(codec, "frame_size") != nullptr;
}

// Axis values beyond the element width that the corpus round trips also take.
std::vector<Params> corpus_variants(const Codec& codec) {
  if (has_frame_size(codec)) return {{{"element_width", 2}, {"frame_size", 100}}};
  return {};
}

std::vector<std::pair<std::string, Bytes>> edge_inputs() {
  Bytes long_run(4 * 70000 + 3, 0x42);  // a run of more than 2^16 elements at any width
  Bytes noise = testing::random_bytes(1000, 7);
  long_run.insert(long_run.end(), noise.begin(), noise.end());
  return {
      {"empty", {}},
      {"one byte", {0x9C}},
      {"7 bytes", testing::random_bytes(7, 1)},
      {"1001 bytes", testing::random_bytes(1001, 2)},
      {"all equal", Bytes(5003, 0x5A)},
      {"all bits set", Bytes(4099, 0xFF)},
      {"random", testing::random_bytes(20000, 3)},
      {"mixed widths", testing::mixed_widths(12002, 4)},
      {"runs", testing::byte_runs(30001, 40, 4)},
      {"long run", long_run},
  };
}

class ElementCodec : public ::testing::TestWithParam<const Codec*> {};

// With a threads axis, also on one thread (the plain sequential code).
TEST_P(ElementCodec, RoundTripsAtEveryWidth) {
  const Codec& codec = *GetParam();
  for (std::int64_t width : element_widths(codec)) {
    for (const auto& [name, data] : edge_inputs()) {
      SCOPED_TRACE(name + " width " + std::to_string(width));
      testing::expect_round_trip(codec, data, {{"element_width", width}});
      if (has_speed_only_threads(codec)) {
        testing::expect_round_trip(codec, data, {{"element_width", width}, {"threads", 1}});
      }
    }
  }
}

TEST_P(ElementCodec, RejectsDamagedContainers) {
  const Codec& codec = *GetParam();
  for (std::int64_t width : element_widths(codec)) {
    SCOPED_TRACE("width " + std::to_string(width));
    Params p = {{"element_width", width}};
    if (has_frame_size(codec)) p["frame_size"] = 3;  // several frames in a few bytes
    testing::expect_hostile_inputs_rejected(codec, testing::mixed_widths(23, 10), p);
    testing::expect_hostile_inputs_rejected(codec, testing::byte_runs(23, 5, 10), p);
    testing::expect_hostile_inputs_rejected(codec, Bytes{}, p);
  }
}

TEST_P(ElementCodec, RoundTripsCorpusFiles) {
  const Codec& codec = *GetParam();
  std::vector<Params> sets;
  for (std::int64_t width : element_widths(codec)) sets.push_back({{"element_width", width}});
  for (const Params& p : corpus_variants(codec)) sets.push_back(p);
  std::size_t files = 0;
  for (const char* corpus : {"calgary", "canterbury"}) {
    for (const auto& file : testing::corpus_files(corpus)) {
      SCOPED_TRACE(file.path.string());
      const Bytes data = corpora::read_file(file.path);
      for (const Params& p : sets) testing::expect_round_trip(codec, data, p);
      ++files;
    }
  }
  if (files == 0) GTEST_SKIP() << "no Calgary or Canterbury file is available";
}

INSTANTIATE_TEST_SUITE_P(Registry, ElementCodec,
                         ::testing::ValuesIn(cpu_codecs_with(has_element_width)), test_name);

// The points a thread-count check covers: every element width, each at frame sizes that cut
// the input differently where the codec has frames.
std::vector<Params> thread_check_points(const Codec& codec) {
  if (!has_element_width(codec)) return {{}};
  std::vector<Params> points;
  for (std::int64_t width : element_widths(codec)) {
    if (!has_frame_size(codec)) {
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
  std::vector<Bytes> data = {testing::mixed_widths(30001, 6), testing::byte_runs(30001, 50, 5),
                             testing::random_bytes(9999, 8), Bytes(777, 0), Bytes(7777, 0)};
  for (std::size_t size : {0, 1, 2, 3, 5, 9, 33}) {
    data.push_back(testing::mixed_widths(size, 9));
    data.push_back(testing::byte_runs(size, 4, 9));
  }
  for (const Bytes& d : data) {
    for (Params p : thread_check_points(codec)) {
      SCOPED_TRACE("size " + std::to_string(d.size()) + " " + testing::describe(p));
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

INSTANTIATE_TEST_SUITE_P(Registry, ThreadedCodec,
                         ::testing::ValuesIn(cpu_codecs_with(has_speed_only_threads)), test_name);

}  // namespace
}  // namespace gcbench
