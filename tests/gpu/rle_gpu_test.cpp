// GPU RLE (rle and the rle-cub baseline): containers byte-identical to the CPU reference,
// both decode variants, run splitting, chunk seams, counts only the device can check (what
// every GPU codec shares, damaged containers included: tests/gpu/registry_gpu_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>

#include "src/cuda/cuda_check.hpp"
#include "src/cuda/device_buffer.hpp"
#include "codecs/common/host_codec.hpp"
#include "codecs/rle/format.hpp"
#include "codecs/rle/rle.hpp"
#include "codecs/rle/rle_encode.hpp"
#include "codecs/rle/rle_gpu.hpp"
#include "codecs/rle/rle_payload.hpp"
#include "corpora/synthetic.hpp"
#include "gcbench/container.hpp"
#include "gcbench/device_codec.hpp"
#include "gcbench/errors.hpp"
#include "support/codec_checks.hpp"
#include "support/device_decode.hpp"
#include "support/gpu_test.hpp"
#include "support/inputs.hpp"

namespace gcbench {
namespace {

using rle::gpu::DecodeVariant;
constexpr DecodeVariant kVariants[] = {DecodeVariant::scan, DecodeVariant::flood};

using testing::random_bytes;

// Runs of random length in [1, max_run] over `values` distinct values (0 included), so that
// zero-valued runs sit next to others and equal neighbours are rare but possible.
Bytes runs_of(std::size_t count, std::uint32_t width, std::uint32_t max_run, std::uint32_t values,
              std::size_t tail, std::uint32_t seed) {
  std::mt19937 rng(seed);
  Bytes b;
  b.reserve(count * width + tail);
  std::size_t done = 0;
  while (done < count) {
    std::uint32_t v = rng() % values;
    if (v == values - 1) v = 0xFFFFFFFFu;  // max-bit values too
    std::size_t len = std::min<std::size_t>(1 + rng() % max_run, count - done);
    for (std::size_t i = 0; i < len; ++i) {
      for (std::uint32_t k = 0; k < width; ++k) b.push_back(static_cast<std::uint8_t>(v >> 8 * k));
    }
    done += len;
  }
  for (std::size_t i = 0; i < tail; ++i) b.push_back(static_cast<std::uint8_t>(rng()));
  return b;
}

class RleGpu : public testing::GpuTest {
 protected:
  static void expect_same(ByteSpan got, ByteSpan want, const std::string& what) {
    ASSERT_EQ(got.size(), want.size()) << what;
    auto diff = std::mismatch(got.begin(), got.end(), want.begin());
    EXPECT_TRUE(diff.first == got.end())
        << what << ": first difference at byte " << (diff.first - got.begin());
  }

  // rle and rle-cub containers equal the CPU one; both decode variants give the input back.
  void expect_identical(ByteSpan input, std::uint32_t width, const std::string& what) {
    SCOPED_TRACE(what + " width " + std::to_string(width) + " size " +
                 std::to_string(input.size()));
    Params p{{"element_width", width}};
    Bytes c = cpu_->compress(input, p);
    RunStats stats;
    expect_same(gpu_->compress(input, p, &stats), c, "rle container");
    // Event-timed phases: the container and its CRC are always written on the device.
    EXPECT_GT(stats.kernel_s, 0);
    EXPECT_GT(stats.transfer_s, 0);
    expect_same(cub_->compress(input, p), c, "rle-cub container");
    for (DecodeVariant v : kVariants) {
      Bytes back = gpu_->decompress(c, {{"decode", static_cast<int>(v)}}, &stats);
      expect_same(back, input, v == DecodeVariant::scan ? "scan decode" : "flood decode");
    }
  }

  CodecPtr gpu_ = rle::make_gpu_codec();
  CodecPtr cub_ = rle::make_cub_gpu_codec();
  CodecPtr cpu_ = rle::make_cpu_codec();
};

TEST(RleGpuInfo, DescribesTheCodecs) {
  CodecPtr gpu = rle::make_gpu_codec();
  CodecPtr cub = rle::make_cub_gpu_codec();
  EXPECT_EQ(gpu->info().name, "rle");
  EXPECT_EQ(cub->info().name, "rle-cub");
  for (const Codec* c : {gpu.get(), cub.get()}) {
    EXPECT_EQ(c->info().device, Device::gpu);
    ASSERT_EQ(c->info().axes.size(), 2u);
    EXPECT_EQ(c->info().axes[0].name, "element_width");
    const AxisSpec& decode = c->info().axes[1];
    EXPECT_EQ(decode.name, "decode");
    EXPECT_FALSE(decode.in_container);
    EXPECT_EQ(decode.parse("scan"), 0);
    EXPECT_EQ(decode.parse("flood"), 1);
  }
}

TEST_F(RleGpu, EdgeCases) {
  for (std::uint32_t width : {1u, 2u, 4u}) {
    expect_identical({}, width, "empty");
    expect_identical(random_bytes(1, 2), width, "one byte");
    expect_identical(random_bytes(width, 3), width, "one element");
    expect_identical(random_bytes(2 * width + width - 1, 4), width, "two elements and tail");
    expect_identical(random_bytes(54321 * width + width / 2, 5), width, "random");
    expect_identical(Bytes(100003 * width, 0), width, "one run of zeros");
    expect_identical(Bytes(70001 * width + width - 1, 0xFF), width, "one run of max values");
    expect_identical(runs_of(200000, width, 16, 3, 0, 6), width, "short runs, few values");
    expect_identical(runs_of(300000, width, 9000, 5, width / 2, 7), width,
                     "runs across many tiles");
    expect_identical(runs_of(4097, width, 1, 2, 0, 8), width, "single-element runs");
  }
}

TEST_F(RleGpu, SyntheticRuns) {
  for (double mean : {8.0, 64.0}) {
    synthetic::Spec spec;
    spec.kind = synthetic::Kind::runs;
    spec.size_bytes = (4 << 20) + 1;
    spec.element_width = 4;
    spec.mean_run = mean;
    expect_identical(synthetic::generate(spec), 4, "synthetic runs");
  }
}

// Runs over the count limit are split as format.hpp says; the limit is lowered so that small
// inputs reach it (the CPU encoder takes the same parameter; a limit of the element count
// splits nothing, which takes the encoders' in-place path). Both device encoders split on the
// device, and both decoders read the split runs back.
TEST_F(RleGpu, LongRunsSplitLikeTheCpu) {
  using rle::gpu::EncoderKind;
  for (std::uint32_t width : {1u, 2u, 4u}) {
    for (std::uint64_t limit : {1u, 3u, 1000u, 4096u, 50000u}) {
      SCOPED_TRACE("width " + std::to_string(width) + " limit " + std::to_string(limit));
      Bytes input = runs_of(50000, width, 12000, 4, 1, 9);
      Bytes want =
          wrap_container(rle::kContainerFormat, input, rle::encode_payload(input, width, 1, limit));
      for (EncoderKind kind : {EncoderKind::fused, EncoderKind::cub}) {
        CodecPtr codec = gpu::make_host_codec(rle::gpu::make_device_codec(kind, limit));
        SCOPED_TRACE(codec->info().name);
        expect_same(codec->compress(input, {{"element_width", width}}), want, "container");
        for (DecodeVariant v : kVariants) {
          expect_same(codec->decompress(want, {{"decode", static_cast<int>(v)}}), input, "decoded");
        }
      }
    }
  }
}

// CUB's encoder takes an int item count; rle-cub says so instead of miscounting.
TEST_F(RleGpu, CubRefusesMoreThanItsItemCount) {
  auto codec = rle::gpu::make_device_codec(rle::gpu::EncoderKind::cub);
  const BoundDeviceCodecPtr bound = codec->bind({{"element_width", 1}});
  EXPECT_THROW(bound->compress_temp_bytes(rle::gpu::kMaxCubItems + 1), ParamError);
  EXPECT_NO_THROW(bound->compress_temp_bytes(1 << 20));
}

// rle-cub's reference primitive: CUB's run-length encoder alone finds the input's runs (checked
// against the host input), and the check says so when they are not the input's.
TEST_F(RleGpu, CubReferencePrimitiveFindsTheInputsRuns) {
  auto codec = rle::gpu::make_device_codec(rle::gpu::EncoderKind::cub);
  EXPECT_EQ(codec->info().reference_primitive, "cub::DeviceRunLengthEncode::Encode");
  EXPECT_TRUE(rle::gpu::make_device_codec(rle::gpu::EncoderKind::fused)
                  ->info()
                  .reference_primitive.empty());
  for (std::uint32_t width : {1u, 2u, 4u}) {
    SCOPED_TRACE("width " + std::to_string(width));
    const Bytes input = runs_of(300000, width, 15, 7, 3, width);
    const BoundDeviceCodecPtr bound = codec->bind({{"element_width", width}});
    cuda::DeviceBuffer<std::uint8_t> in(input.size()),
        out(bound->max_compressed_size(input.size()));
    cuda::DeviceBuffer<std::uint8_t> temp(bound->compress_temp_bytes(input.size()));
    cuda::DeviceBuffer<std::uint64_t> size(1);
    GCB_CUDA(cudaMemcpy(in.data(), input.data(), input.size(), cudaMemcpyHostToDevice));
    const CompressBuffers buffers{in.data(),    input.size(), temp.data(),
                                  temp.bytes(), out.data(),   size.data()};
    bound->primitive_async(buffers, nullptr);
    EXPECT_EQ(bound->check_primitive(buffers, input, nullptr), std::nullopt);
    Bytes other = input;
    other[input.size() / 2] ^= 0x40;
    const auto wrong = bound->check_primitive(buffers, other, nullptr);
    ASSERT_TRUE(wrong.has_value());
    EXPECT_NE(wrong->find("run "), std::string::npos) << *wrong;
  }
  const BoundDeviceCodecPtr fused =
      rle::gpu::make_device_codec(rle::gpu::EncoderKind::fused)->bind({{"element_width", 1}});
  EXPECT_THROW(fused->primitive_async({}, nullptr), std::logic_error);
}

TEST_F(RleGpu, Corpora) {
  std::size_t files = 0;
  for (const char* corpus : {"calgary", "canterbury", "silesia"}) {
    for (const auto& f : testing::corpus_files(corpus)) {
      Bytes data = corpora::read_file(f.path);
      for (std::uint32_t width : {1u, 2u, 4u}) {
        expect_identical(data, width, std::string(corpus) + "/" + f.entry.name);
      }
      ++files;
    }
  }
  if (files == 0) GTEST_SKIP() << "no corpus file available (see the [ corpus ] lines)";
  std::printf("[ corpus ] %zu files checked\n", files);
}

// Counts that the header cannot see (zero, or not adding up) are caught on the device by both
// variants, before anything is written back: in a few runs, and in the middle of 40000 (where
// the counts' scan reads them as whole 16-byte vectors).
TEST_F(RleGpu, BadCountsRejectedByBothVariants) {
  for (const Bytes& input : {runs_of(5000, 4, 40, 5, 0, 12), runs_of(200000, 4, 8, 5, 0, 13)}) {
    SCOPED_TRACE("size " + std::to_string(input.size()));
    Bytes payload = rle::encode_payload(input, 4, 1);
    rle::ParsedPayload parsed = rle::parse_payload(payload, input.size());
    const std::size_t counts_at = parsed.counts.data() - payload.data();
    const std::size_t middle = counts_at + 4 * (parsed.layout.run_count / 2);
    const std::size_t last = counts_at + 4 * (parsed.layout.run_count - 1);
    auto with_count = [&](std::size_t at, std::uint32_t count) {
      Bytes bad = payload;
      store_le<std::uint32_t>(bad.data() + at, count);
      return wrap_container(rle::kContainerFormat, input, bad);
    };
    const std::uint32_t first = load_le<std::uint32_t>(payload.data() + counts_at);
    const std::uint32_t mid = load_le<std::uint32_t>(payload.data() + middle);
    const Bytes cases[] = {
        with_count(counts_at, 0),                          // zero count
        with_count(counts_at, first + 1),                  // one element too many
        with_count(last, 0xFFFFFFFFu),                     // far too many
        with_count(counts_at, first > 1 ? first - 1 : 0),  // too few
        with_count(middle, 0),                             // zero count among many
        with_count(middle, mid + 1),
        with_count(middle, 0xFFFFFFFFu),
    };
    for (const Bytes& bad : cases) {
      for (DecodeVariant v : kVariants) {
        EXPECT_THROW(gpu_->decompress(bad, {{"decode", static_cast<int>(v)}}), DecodeError);
      }
    }
  }
}

// The device API takes a container wherever the caller put it, so its counts and values may
// lie at any alignment: both decoders at every offset within 16 bytes, each in an allocation
// that ends with the container (memcheck sees any read past it).
TEST_F(RleGpu, ContainersAtAnyAlignment) {
  const auto codec = rle::gpu::make_device_codec(rle::gpu::EncoderKind::fused);
  for (std::uint32_t width : {1u, 4u}) {
    const Bytes input = runs_of(120000, width, 12, 7, width / 2, 14);
    const Bytes c = cpu_->compress(input, {{"element_width", width}});
    for (DecodeVariant v : kVariants) {
      const BoundDeviceCodecPtr d =
          codec->bind({{"element_width", width}, {"decode", static_cast<int>(v)}});
      const DecodePlan plan = d->plan_decompress(c);
      for (std::size_t offset = 0; offset < 16; ++offset) {
        SCOPED_TRACE("width " + std::to_string(width) + " offset " + std::to_string(offset) +
                     (v == DecodeVariant::scan ? " scan" : " flood"));
        const testing::DeviceDecode back = testing::decode_at_offset(*d, plan, c, offset);
        EXPECT_EQ(back.status.error, kDeviceOk);
        expect_same(back.output, input, "decoded");
      }
    }
  }
}

TEST_F(RleGpu, LargerThanOneGiB) {
  // Width 1: over 2^30 elements, one CUB call, and a long run in the middle.
  synthetic::Spec spec;
  spec.kind = synthetic::Kind::runs;
  spec.size_bytes = (std::uint64_t{1} << 30) + 4099;
  spec.element_width = 1;
  spec.mean_run = 64;
  Bytes input = synthetic::generate(spec);
  std::fill(input.begin() + (1 << 30) - 100, input.begin() + (1 << 30) + 100, std::uint8_t{7});
  expect_identical(input, 1, "over 1 GiB");
}

}  // namespace
}  // namespace gcbench
