// GPU FL: containers byte-identical to the CPU reference, round trips, hostile containers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>

#include "codecs/common/cuda_check.hpp"
#include "codecs/fl/fl.hpp"
#include "codecs/fl/format.hpp"
#include "corpora/synthetic.hpp"
#include "gcbench/errors.hpp"
#include "support/codec_checks.hpp"
#include "support/inputs.hpp"

namespace gcbench {
namespace {

using testing::random_bytes;

// Elements of `width` bytes with values below 2^bits (plus a tail of `tail` random bytes).
Bytes small_values(std::size_t count, std::uint32_t width, std::uint32_t bits, std::size_t tail,
                   std::uint32_t seed) {
  std::mt19937 rng(seed);
  Bytes b(count * width + tail);
  std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
  for (std::size_t i = 0; i < count; ++i) {
    auto v = static_cast<std::uint32_t>(rng() & mask);
    for (std::uint32_t k = 0; k < width; ++k)
      b[i * width + k] = static_cast<std::uint8_t>(v >> 8 * k);
  }
  for (std::size_t i = count * width; i < b.size(); ++i) b[i] = static_cast<std::uint8_t>(rng());
  return b;
}

class FlGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!cuda::available()) GTEST_SKIP() << "no CUDA device: the GPU FL tests need one";
    gpu_ = fl::make_gpu_codec();
    cpu_ = fl::make_cpu_codec();
  }

  // The GPU container equals the CPU one byte for byte, and both round-trip.
  void expect_identical(ByteSpan input, std::uint32_t width, std::uint32_t frame_size,
                        const std::string& what) {
    SCOPED_TRACE(what + " width " + std::to_string(width) + " frame " + std::to_string(frame_size) +
                 " size " + std::to_string(input.size()));
    Params p{{"element_width", width}, {"frame_size", frame_size}};
    RunStats stats;
    Bytes g = gpu_->compress(input, p, &stats);
    Bytes c = cpu_->compress(input, p);
    ASSERT_EQ(g.size(), c.size());
    auto diff = std::mismatch(g.begin(), g.end(), c.begin());
    ASSERT_TRUE(diff.first == g.end()) << "first difference at byte " << (diff.first - g.begin());
    // Event-timed phases: the container and its CRC are always written on the device.
    EXPECT_GT(stats.kernel_s, 0);
    EXPECT_GT(stats.transfer_s, 0);
    Bytes back = gpu_->decompress(c, {}, &stats);
    ASSERT_EQ(back.size(), input.size());
    EXPECT_TRUE(std::equal(back.begin(), back.end(), input.begin()));
    EXPECT_GT(stats.kernel_s, 0);
  }

  CodecPtr gpu_, cpu_;
};

TEST(FlGpuInfo, DescribesTheCodec) {
  CodecPtr codec = fl::make_gpu_codec();
  EXPECT_EQ(codec->info().name, "fl");
  EXPECT_EQ(codec->info().device, Device::gpu);
  ASSERT_EQ(codec->info().axes.size(), 2u);
  EXPECT_EQ(codec->info().axes[0].name, "element_width");
  EXPECT_EQ(codec->info().axes[1].name, "frame_size");
}

TEST(FlGpuInfo, WithoutADeviceSaysSo) {
  if (cuda::available()) GTEST_SKIP() << "a CUDA device is present; this checks its absence";
  CodecPtr codec = fl::make_gpu_codec();
  Bytes input = random_bytes(100, 1);
  EXPECT_THROW(codec->compress(input, {}), DeviceUnavailable);
  Bytes packed = fl::make_cpu_codec()->compress(input, {});
  EXPECT_THROW(codec->decompress(packed, {}), DeviceUnavailable);
}

TEST_F(FlGpu, EdgeCases) {
  for (std::uint32_t width : {1u, 2u, 4u}) {
    for (std::uint32_t frame : {1u, 3u, 32u, 1000u, 1024u, 5000u}) {
      expect_identical({}, width, frame, "empty");
      expect_identical(random_bytes(1, 2), width, frame, "one byte");
      expect_identical(random_bytes(width, 3), width, frame, "one element");
      expect_identical(random_bytes(width + width - 1, 4), width, frame, "element and tail");
      expect_identical(random_bytes(12345 * width + width / 2, 5), width, frame, "random");
      expect_identical(Bytes(7777 * width, 0), width, frame, "all zero");
      expect_identical(Bytes(7777 * width + 1, 0xFF), width, frame, "max-bit values");
      expect_identical(small_values(40000, width, 5, 0, 6), width, frame, "5-bit values");
      expect_identical(small_values(33333, width, 8 * width - 1, width - 1, 7), width, frame,
                       "values one bit short of the width");
    }
  }
}

TEST_F(FlGpu, MixedWidthsPerFrame) {
  // Frames of every bit width side by side, so that frames start mid-word.
  for (std::uint32_t width : {1u, 2u, 4u}) {
    Bytes input;
    for (std::uint32_t bits = 1; bits <= 8 * width; ++bits) {
      Bytes part = small_values(777, width, bits, 0, bits);
      input.insert(input.end(), part.begin(), part.end());
    }
    for (std::uint32_t frame : {7u, 777u, 100000u}) {
      expect_identical(input, width, frame, "mixed widths");
    }
  }
}

TEST_F(FlGpu, SyntheticSmallInts) {
  synthetic::Spec spec;
  spec.kind = synthetic::Kind::small_ints;
  spec.size_bytes = (3 << 20) + 3;
  spec.element_width = 4;
  spec.value_bits = 10;
  expect_identical(synthetic::generate(spec), 4, 1024, "synthetic small ints");
}

TEST_F(FlGpu, Corpora) {
  std::size_t files = 0;
  for (const char* corpus : {"calgary", "canterbury", "silesia"}) {
    for (const auto& f : testing::corpus_files(corpus)) {
      Bytes data = corpora::read_file(f.path);
      for (std::uint32_t width : {1u, 2u, 4u}) {
        expect_identical(data, width, fl::kDefaultFrameSize,
                         std::string(corpus) + "/" + f.entry.name);
      }
      expect_identical(data, 2, 1000, std::string(corpus) + "/" + f.entry.name);
      ++files;
    }
  }
  if (files == 0) GTEST_SKIP() << "no corpus file available (see the [ corpus ] lines)";
  std::printf("[ corpus ] %zu files checked\n", files);
}

TEST_F(FlGpu, HostileContainersRejected) {
  for (std::uint32_t width : {1u, 4u}) {
    Bytes input = small_values(40, width, 6, width - 1, 11);
    testing::expect_hostile_inputs_rejected(*gpu_, input,
                                            {{"element_width", width}, {"frame_size", 16}});
  }
}

TEST_F(FlGpu, LargerThanOneGiB) {
  synthetic::Spec spec;
  spec.kind = synthetic::Kind::small_ints;
  spec.size_bytes = (std::uint64_t{1} << 30) + 4096 + 3;
  spec.element_width = 4;
  spec.value_bits = 12;
  expect_identical(synthetic::generate(spec), 4, fl::kDefaultFrameSize, "over 1 GiB");
}

}  // namespace
}  // namespace gcbench
