// GPU FL: containers byte-identical to the CPU reference at every frame size, with timed phases
// (what every GPU codec shares, corpora and damaged containers included:
// tests/gpu/registry_gpu_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>

#include "codecs/fl/fl.hpp"
#include "codecs/fl/format.hpp"
#include "corpora/synthetic.hpp"
#include "gcbench/device_codec.hpp"
#include "gcbench/errors.hpp"
#include "support/device_decode.hpp"
#include "support/gpu_test.hpp"
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

class FlGpu : public testing::GpuTest {
 protected:
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

  CodecPtr gpu_ = fl::make_gpu_codec();
  CodecPtr cpu_ = fl::make_cpu_codec();
};

TEST(FlGpuInfo, DescribesTheCodec) {
  CodecPtr codec = fl::make_gpu_codec();
  EXPECT_EQ(codec->info().name, "fl");
  EXPECT_EQ(codec->info().device, Device::gpu);
  ASSERT_EQ(codec->info().axes.size(), 2u);
  EXPECT_EQ(codec->info().axes[0].name, "element_width");
  EXPECT_EQ(codec->info().axes[1].name, "frame_size");
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

// Frames of random widths (1..8*width bits), so that tiles and frames start at every bit offset.
Bytes random_width_frames(std::size_t count, std::uint32_t width, std::uint32_t frame_size,
                          std::size_t tail, std::uint32_t seed) {
  std::mt19937 rng(seed);
  Bytes b(count * width + tail);
  std::uint64_t mask = 0;
  for (std::size_t i = 0; i < count; ++i) {
    if (i % frame_size == 0) mask = (std::uint64_t{1} << (1 + rng() % (8 * width))) - 1;
    auto v = static_cast<std::uint32_t>(rng() & mask);
    for (std::uint32_t k = 0; k < width; ++k)
      b[i * width + k] = static_cast<std::uint8_t>(v >> 8 * k);
  }
  for (std::size_t i = count * width; i < b.size(); ++i) b[i] = static_cast<std::uint8_t>(rng());
  return b;
}

TEST_F(FlGpu, OnePassTilesAtEveryOffset) {
  // Frame sizes that divide a 16 KiB tile and are multiples of 32 elements and of a thread's
  // 64 bytes take the one-pass encoder (each tile continuing the previous tile's last word);
  // 16, and 32 at width 1, take the three-pass one; 512, 1024 and 2048 are a warp's elements at
  // widths 4, 2 and 1. Element counts and tails put the word array at every byte alignment, and
  // the last tile is partial.
  for (std::uint32_t width : {1u, 2u, 4u}) {
    for (std::uint32_t frame : {16u, 32u, 64u, 256u, 512u, 1024u, 2048u, 4096u, 8192u}) {
      for (std::uint32_t extra = 0; extra < 4; ++extra) {
        Bytes input = random_width_frames(20 * 4096 + 37 + extra, width, frame, extra % width,
                                          width * 1000 + frame + extra);
        expect_identical(input, width, frame, "random-width frames");
        // Each frame's width set by one element, at a position that moves from frame to frame.
        Bytes one_wide = small_values(20 * 4096 + 37 + extra, width, 1, extra % width, extra);
        for (std::size_t f = 0; f * frame < one_wide.size() / width; ++f) {
          const std::size_t at = (f * frame + (f * 7 + extra) % frame) * width;
          if (at + width <= one_wide.size()) one_wide[at + width - 1] = 1 << (f % 8);
        }
        expect_identical(one_wide, width, frame, "one wide element per frame");
      }
    }
  }
}

// The device API takes a container wherever the caller put it: its word array at every byte
// alignment and in an allocation that ends with it, where the staged decoder's bulk copies
// (16-byte units) must not read past the array; element counts that fill whole tiles and
// leave a partial one, frame sizes that take the staged path (256, 1024; 68 at width 4, with
// up to 242 frames a tile) and ones that do not (1000 at width 1, 68 at widths 1 and 2).
TEST_F(FlGpu, ContainersAtAnyAlignment) {
  for (std::uint32_t width : {1u, 2u, 4u}) {
    for (std::uint32_t frame : {68u, 256u, 1000u, 1024u}) {
      for (std::size_t count : {std::size_t{65536}, std::size_t{65536 + 37}}) {
        const Bytes input = random_width_frames(count, width, frame, width - 1, width + frame);
        const Params p{{"element_width", width}, {"frame_size", frame}};
        const Bytes c = cpu_->compress(input, p);
        const BoundDeviceCodecPtr d = gpu_->device_codec()->bind(p);
        const DecodePlan plan = d->plan_decompress(c);
        for (std::size_t offset = 0; offset < 16; ++offset) {
          SCOPED_TRACE("width " + std::to_string(width) + " frame " + std::to_string(frame) +
                       " elements " + std::to_string(count) + " offset " + std::to_string(offset));
          const testing::DeviceDecode back = testing::decode_at_offset(*d, plan, c, offset);
          EXPECT_EQ(back.status.error, kDeviceOk);
          ASSERT_EQ(back.output.size(), input.size());
          EXPECT_TRUE(std::equal(back.output.begin(), back.output.end(), input.begin()));
        }
      }
    }
  }
}

// The staged decoder's blocks loop over tiles, each staging the next tile's words and the
// frames of the tile after: enough tiles of random-width frames (1024 of 64 KiB) that every
// block of a resident grid takes several, reusing its buffers and barrier phases.
TEST_F(FlGpu, StagedDecoderManyTilesPerBlock) {
  for (std::uint32_t width : {2u, 4u}) {
    const Bytes input =
        random_width_frames((std::size_t{64} << 20) / width + 5, width, 256, width - 1, width * 77);
    expect_identical(input, width, 256, "many tiles a block");
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
