// The checks every registered GPU codec gets (tests/support/codec_suites.hpp: round trips,
// damaged containers, parameters outside the axes), and for those with a CPU reference
// (CodecInfo::cpu_reference) containers equal to the reference's, byte for byte, on edge inputs
// and the mirrored corpora. Without a device these skip, saying so, and the codecs must say
// DeviceUnavailable instead of failing otherwise.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "src/cuda/cuda_check.hpp"
#include "support/codec_suites.hpp"

namespace gcbench::testing {
namespace {

INSTANTIATE_TEST_SUITE_P(Gpu, RegisteredCodec, ::testing::ValuesIn(registered_on(Device::gpu)),
                         codec_test_name);

class WithoutADevice : public ::testing::TestWithParam<const Codec*> {};

TEST_P(WithoutADevice, CodecSaysSo) {
  if (cuda::available()) GTEST_SKIP() << "a CUDA device is present; this checks its absence";
  const Codec& codec = *GetParam();
  const Bytes input = random_bytes(100, 1);
  EXPECT_THROW(codec.compress(input, {}), DeviceUnavailable);
  if (const Codec* cpu = find_codec(codec.info().cpu_reference, Device::cpu)) {
    EXPECT_THROW(codec.decompress(cpu->compress(input, {}), {}), DeviceUnavailable);
  }
}

INSTANTIATE_TEST_SUITE_P(Gpu, WithoutADevice, ::testing::ValuesIn(registered_on(Device::gpu)),
                         codec_test_name);

// A GPU codec of a family that has a CPU codec names it as its reference (or the checks below
// would pass it over), and a named reference is registered. Runs without a device.
TEST(CpuReference, NamedWhereTheFamilyHasACpuCodec) {
  for (const Codec* gpu : registered_on(Device::gpu)) {
    const CodecInfo& info = gpu->info();
    if (find_codec(info.name, Device::cpu) != nullptr) {
      EXPECT_EQ(info.cpu_reference, info.name) << info.name;
    }
    if (!info.cpu_reference.empty()) {
      EXPECT_NE(find_codec(info.cpu_reference, Device::cpu), nullptr) << info.name;
    }
  }
}

class MatchesCpuReference : public RegisteredCodec {
 protected:
  const Codec& reference() const { return *find_codec(codec().info().cpu_reference, Device::cpu); }

  // The GPU container equals the reference's at `point`, and the GPU decodes it.
  void expect_identical(ByteSpan input, const Params& point) {
    const Bytes want = reference().compress(input, format_params_for(reference(), point));
    const Bytes got = codec().compress(input, point);
    ASSERT_EQ(got.size(), want.size());
    const auto diff = std::mismatch(got.begin(), got.end(), want.begin());
    ASSERT_TRUE(diff.first == got.end())
        << "first difference at byte " << (diff.first - got.begin());
    const Bytes back = codec().decompress(want, point);
    ASSERT_EQ(back.size(), input.size());
    EXPECT_TRUE(std::equal(back.begin(), back.end(), input.begin()));
  }
};

TEST_P(MatchesCpuReference, OnEdgeInputs) {
  for (const Params& point : format_points(codec())) {
    for (const auto& [name, data] : edge_inputs()) {
      SCOPED_TRACE(name + " " + describe(point));
      expect_identical(data, point);
    }
  }
}

TEST_P(MatchesCpuReference, OnCorpusFiles) {
  std::size_t files = 0;
  for (const char* corpus : {"calgary", "canterbury", "silesia"}) {
    for (const auto& f : corpus_files(corpus)) {
      const Bytes data = corpora::read_file(f.path);
      for (const Params& point : format_points(codec())) {
        SCOPED_TRACE(std::string(corpus) + "/" + f.entry.name + " " + describe(point));
        expect_identical(data, point);
      }
      ++files;
    }
  }
  if (files == 0) GTEST_SKIP() << "no corpus file available (see the [ corpus ] lines)";
  std::printf("[ corpus ] %zu files checked\n", files);
}

INSTANTIATE_TEST_SUITE_P(Gpu, MatchesCpuReference,
                         ::testing::ValuesIn(registered_with(Device::gpu,
                                                             [](const Codec& c) {
                                                               return find_codec(
                                                                          c.info().cpu_reference,
                                                                          Device::cpu) != nullptr;
                                                             })),
                         codec_test_name);

}  // namespace
}  // namespace gcbench::testing
