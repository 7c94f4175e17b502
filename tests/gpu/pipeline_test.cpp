// The pipelined end-to-end path (src/gpu/pipeline.hpp) itself: every mix of pageable and
// pinned input and output, chunk counts and odd final chunks, outputs sized to the stream, a
// memory cap, empty input, damaged chunks reported by index, and exceptions thrown while
// chunks are in flight.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <string>

#include "src/cuda/device_buffer.hpp"
#include "gcbench/device_codec.hpp"
#include "gcbench/errors.hpp"
#include "gcbench/registry.hpp"
#include "gcbench/stream.hpp"
#include "src/gpu/pipeline.hpp"

namespace gcbench {
namespace {

using u8 = std::uint8_t;

// Runs of random length and value: compressible by both codecs, never trivially.
Bytes runs(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  Bytes b(n);
  for (std::size_t i = 0; i < n;) {
    const u8 value = static_cast<u8>(rng() % 16);
    for (std::size_t run = 1 + rng() % 24; run > 0 && i < n; --run) b[i++] = value;
  }
  return b;
}

// Host memory of either kind, as the pipeline meets it.
class HostBytes {
 public:
  HostBytes(std::size_t n, bool pinned) : size_(n) {
    if (pinned) {
      pinned_ = cuda::PinnedBuffer(n);
    } else {
      pageable_.resize(n);
    }
  }
  HostBytes(ByteSpan bytes, bool pinned) : HostBytes(bytes.size(), pinned) {
    std::copy(bytes.begin(), bytes.end(), span().begin());
  }
  std::span<u8> span() { return {pinned_.data() ? pinned_.data() : pageable_.data(), size_}; }

 private:
  cuda::PinnedBuffer pinned_;
  Bytes pageable_;
  std::size_t size_;
};

struct Kinds {
  bool pinned_in, pinned_out;
  std::string label() const {
    return std::string(pinned_in ? "pinned" : "pageable") + " -> " +
           (pinned_out ? "pinned" : "pageable");
  }
};
constexpr Kinds kAllKinds[] = {{false, false}, {false, true}, {true, false}, {true, true}};

// The GPU codec `name`'s device API bound to its default parameters.
BoundDeviceCodecPtr device_codec(const char* name) {
  return find_codec(name, Device::gpu)->device_codec()->bind({});
}

Bytes compress(gpu::Pipeline& p, ByteSpan input, Kinds k) {
  HostBytes in(input, k.pinned_in), out(p.max_stream_size(input.size()), k.pinned_out);
  const std::uint64_t n = p.compress(in.span(), out.span());
  return Bytes(out.span().begin(), out.span().begin() + n);
}

Bytes decompress(gpu::Pipeline& p, ByteSpan stream, Kinds k) {
  HostBytes in(stream, k.pinned_in), out(parse_stream(stream).original_size, k.pinned_out);
  p.decompress(in.span(), out.span());
  return Bytes(out.span().begin(), out.span().end());
}

// Where chunk i's container starts in `stream`.
std::size_t container_at(const Bytes& stream, std::size_t i) {
  return parse_stream(stream).containers[i].data() - stream.data();
}

class Pipeline : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!cuda::available()) GTEST_SKIP() << "no CUDA device: the pipeline tests need one";
  }
};

// Many small chunks of odd size through few slots, so that every slot is reused while
// others are in flight; the final chunk is shorter. Every mix of memory kinds writes the
// same stream and decodes it.
TEST_F(Pipeline, EveryMemoryKindRoundTripsManyChunks) {
  for (const char* name : {"fl", "rle"}) {
    const BoundDeviceCodecPtr d = device_codec(name);
    for (int depth : {1, 3}) {
      SCOPED_TRACE(std::string(name) + " depth " + std::to_string(depth));
      gpu::PipelineOptions o;
      o.chunk_bytes = (64 << 10) + 3;
      o.depth = depth;
      gpu::Pipeline p(*d, o);
      const Bytes input = runs(17 * o.chunk_bytes + 777, 1);
      const Bytes expected = compress(p, input, {false, false});
      EXPECT_EQ(parse_stream(expected).containers.size(), 18u);
      for (Kinds k : kAllKinds) {
        SCOPED_TRACE(k.label());
        EXPECT_EQ(compress(p, input, k), expected);
        EXPECT_EQ(decompress(p, expected, k), input);
      }
    }
  }
}

// An output that holds the stream but not its bound is enough (the driver times into one);
// one byte short is a std::length_error, with nothing written past the output's end.
TEST_F(Pipeline, OutputOfTheStreamsSizeIsEnough) {
  const BoundDeviceCodecPtr d = device_codec("rle");
  gpu::PipelineOptions o;
  o.chunk_bytes = (64 << 10) + 3;
  gpu::Pipeline p(*d, o);
  const Bytes input = runs(9 * o.chunk_bytes + 5, 2);
  const Bytes expected = compress(p, input, {false, false});
  ASSERT_LT(expected.size(), p.max_stream_size(input.size()));
  constexpr u8 kGuard = 0x5A;
  for (Kinds k : kAllKinds) {
    SCOPED_TRACE(k.label());
    HostBytes in(input, k.pinned_in), out(expected.size() + 1, k.pinned_out);
    const std::span<u8> exact = out.span().first(expected.size());
    out.span().back() = kGuard;
    ASSERT_EQ(p.compress(in.span(), exact), expected.size());
    EXPECT_TRUE(std::equal(expected.begin(), expected.end(), exact.begin()));
    const std::span<u8> short_by_one = out.span().first(expected.size() - 1);
    out.span()[expected.size() - 1] = kGuard;
    EXPECT_THROW(p.compress(in.span(), short_by_one), std::length_error);
    EXPECT_EQ(out.span()[expected.size() - 1], kGuard);
    EXPECT_EQ(out.span().back(), kGuard);
  }
}

TEST_F(Pipeline, InputLargerThanTheMemoryCap) {
  const BoundDeviceCodecPtr d = device_codec("rle");
  gpu::PipelineOptions o;
  o.depth = 2;
  o.gpu_memory_limit = 2 << 20;
  gpu::Pipeline p(*d, o);
  const Bytes input = runs((5 << 20) + 13, 2);
  for (Kinds k : kAllKinds) {
    SCOPED_TRACE(k.label());
    const Bytes stream = compress(p, input, k);
    EXPECT_LE(p.device_bytes(), o.gpu_memory_limit);
    EXPECT_GT(parse_stream(stream).containers.size(), 5u);
    EXPECT_EQ(decompress(p, stream, k), input);
  }
}

// A recorded call's timeline has every chunk, each chunk's marks in the order its stream runs
// them, each direction's copies in chunk order, and all of it within the call; the calls after
// record_timeline(nullptr) leave it as it was.
TEST_F(Pipeline, TimelineHasEveryChunkInStreamOrder) {
  const BoundDeviceCodecPtr d = device_codec("rle");
  gpu::PipelineOptions o;
  o.chunk_bytes = (64 << 10) + 3;
  o.depth = 3;
  gpu::Pipeline p(*d, o);
  const Bytes input = runs(7 * o.chunk_bytes + 9, 3);
  const Kinds pinned{true, true};
  const Bytes stream = compress(p, input, pinned);
  for (bool compressing : {true, false}) {
    SCOPED_TRACE(compressing ? "compress" : "decompress");
    gpu::PipelineTimeline t;
    p.record_timeline(&t);
    if (compressing) {
      EXPECT_EQ(compress(p, input, pinned), stream);
    } else {
      EXPECT_EQ(decompress(p, stream, pinned), input);
    }
    p.record_timeline(nullptr);
    ASSERT_EQ(t.chunks.size(), 8u);
    EXPECT_GE(t.setup_s, 0);
    for (std::size_t i = 0; i < t.chunks.size(); ++i) {
      SCOPED_TRACE("chunk " + std::to_string(i));
      const gpu::ChunkTimes& c = t.chunks[i];
      EXPECT_LE(t.setup_s, c.issue_begin);
      EXPECT_LE(c.issue_begin, c.issue_end);
      EXPECT_LE(c.issue_end, c.drained);
      EXPECT_LE(0, c.upload_begin);
      EXPECT_LE(c.upload_begin, c.upload_end);
      EXPECT_LE(c.upload_end, c.codec_end);
      EXPECT_LE(c.codec_end, c.download_begin);
      EXPECT_LE(c.download_begin, c.download_end);
      // The two clocks' zeros lie microseconds apart.
      EXPECT_LE(c.download_end, t.call_s + 1e-3);
      if (i > 0) {
        EXPECT_LE(t.chunks[i - 1].upload_end, c.upload_begin);
        EXPECT_LE(t.chunks[i - 1].download_end, c.download_begin);
      }
    }
    const gpu::PipelineTimeline before = t;
    decompress(p, stream, pinned);
    EXPECT_EQ(t.call_s, before.call_s);
  }
}

TEST_F(Pipeline, EmptyInput) {
  const BoundDeviceCodecPtr d = device_codec("fl");
  gpu::Pipeline p(*d, {});
  for (Kinds k : kAllKinds) {
    SCOPED_TRACE(k.label());
    const Bytes stream = compress(p, {}, k);
    EXPECT_EQ(stream, stream_header(0, p.chunk_bytes()));
    EXPECT_TRUE(decompress(p, stream, k).empty());
  }
}

// A damaged chunk is a DecodeError naming it, whether the host (its plan) or the device (its
// status) finds the damage, and the pipeline decodes the next stream as if nothing happened.
TEST_F(Pipeline, DamagedChunksAreReportedByIndex) {
  for (const char* name : {"fl", "rle"}) {
    const BoundDeviceCodecPtr d = device_codec(name);
    gpu::PipelineOptions o;
    o.chunk_bytes = 96 << 10;
    gpu::Pipeline p(*d, o);
    const Bytes input = runs(10 * o.chunk_bytes + 5, 3);
    const Bytes stream = p.compress(input);
    auto damaged = [&](std::initializer_list<std::size_t> chunks, bool magic) {
      Bytes bad = stream;
      for (std::size_t c : chunks) {
        const std::size_t offset = magic ? 0 : parse_stream(stream).containers[c].size() / 2;
        bad[container_at(stream, c) + offset] ^= 0xFF;
      }
      return bad;
    };
    const std::pair<Bytes, std::string> cases[] = {
        {damaged({2}, true), "chunk 2: "},      // the container's magic: its plan rejects it
        {damaged({6}, false), "chunk 6: "},     // its data: the device decoder's status
        {damaged({3, 6}, false), "chunk 3: "},  // the first damaged chunk is the one named
    };
    for (const auto& [bad, want] : cases) {
      for (Kinds k : kAllKinds) {
        SCOPED_TRACE(std::string(name) + " " + want + k.label());
        try {
          decompress(p, bad, k);
          ADD_FAILURE() << "no DecodeError";
        } catch (const DecodeError& e) {
          EXPECT_EQ(std::string(e.what()).rfind(want, 0), 0u) << e.what();
        }
        EXPECT_EQ(decompress(p, stream, k), input);
      }
    }
  }
}

// Forwards to a real bound codec, but its n-th compress or decompress call throws.
class FailingCodec final : public BoundDeviceCodec {
 public:
  FailingCodec(const BoundDeviceCodec& real, int fail_at) : real_(real), fail_at_(fail_at) {}
  const DeviceCodec& codec() const override { return real_.codec(); }
  std::uint64_t max_compressed_size(std::uint64_t n) const override {
    return real_.max_compressed_size(n);
  }
  std::size_t compress_temp_bytes(std::uint64_t n) const override {
    return real_.compress_temp_bytes(n);
  }
  void compress_async(const CompressBuffers& b, DeviceStream s) const override {
    maybe_fail();
    real_.compress_async(b, s);
  }
  DecodePlan plan_decompress(ByteSpan c) const override { return real_.plan_decompress(c); }
  void decompress_async(const DecodePlan& plan, const DecompressBuffers& b,
                        DeviceStream s) const override {
    maybe_fail();
    real_.decompress_async(plan, b, s);
  }
  void reset(int fail_at) {
    calls_ = 0;
    fail_at_ = fail_at;
  }

 private:
  void maybe_fail() const {
    if (calls_++ == fail_at_) throw std::runtime_error("launch failed");
  }
  const BoundDeviceCodec& real_;
  mutable int calls_ = 0;
  int fail_at_;
};

// The issuing side throws with chunks in flight on every slot: the error propagates, and the
// pipeline (its drain thread gone, its streams idle) works again afterwards.
TEST_F(Pipeline, ExceptionWhileChunksAreInFlight) {
  const BoundDeviceCodecPtr fl = device_codec("fl");
  FailingCodec failing(*fl, 5);
  gpu::PipelineOptions o;
  o.chunk_bytes = 64 << 10;
  gpu::Pipeline p(failing, o);
  const Bytes input = runs(12 * o.chunk_bytes, 4);
  for (Kinds k : kAllKinds) {
    SCOPED_TRACE(k.label());
    failing.reset(5);
    EXPECT_THROW(compress(p, input, k), std::runtime_error);
    failing.reset(-1);
    const Bytes stream = compress(p, input, k);
    failing.reset(7);
    EXPECT_THROW(decompress(p, stream, k), std::runtime_error);
    failing.reset(-1);
    EXPECT_EQ(decompress(p, stream, k), input);
  }
}

}  // namespace
}  // namespace gcbench
