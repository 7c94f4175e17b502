// The device API of every GPU codec that has one (include/gcbench/device_codec.hpp), and the
// pipelined end-to-end path above it (src/gpu/pipeline.hpp): round trips on edge cases and the
// mirrored corpora, containers equal to the CPU reference's, chunked streams through a memory
// cap, a device container that differs from its plan, and plans held to the decode limit.
#include <gtest/gtest.h>

#include <iostream>
#include <random>
#include <string>

#include "src/cuda/cuda_check.hpp"
#include "src/cuda/device_buffer.hpp"
#include "corpora/corpora.hpp"
#include "gcbench/container.hpp"
#include "gcbench/device_codec.hpp"
#include "gcbench/errors.hpp"
#include "gcbench/registry.hpp"
#include "gcbench/stream.hpp"
#include "src/gpu/pipeline.hpp"
#include "support/codec_checks.hpp"

namespace gcbench {
namespace {

struct Pair {
  const Codec* gpu;
  const Codec* cpu;
  Params params;  // resolved for the GPU codec
};

// Every device-API codec with its CPU reference, at its default parameters, plus the
// element widths and decoders that change the device path.
std::vector<Pair> pairs() {
  std::vector<Pair> out;
  for (const CodecPtr& c : registry()) {
    if (c->device_codec() == nullptr) continue;
    const Codec* cpu = find_codec(c->info().cpu_reference, Device::cpu);
    if (cpu == nullptr) cpu = c.get();  // no CPU reference (the nvCOMP peers): their host API
    std::vector<Params> variants{{}};
    for (const AxisSpec& a : c->info().axes) {
      if (a.name == "element_width")
        variants = {{{"element_width", 1}}, {{"element_width", 2}}, {{"element_width", 4}}};
    }
    if (c->info().name == "rle") variants.push_back({{"element_width", 4}, {"decode", 1}});
    if (c->info().name == "lz77") {
      variants.push_back({{"design", 2}});
      variants.push_back({{"design", 1}, {"decode_mode", 1}});
    }
    for (const Params& v : variants)
      out.push_back({c.get(), cpu, resolve_params(c->info().axes, v)});
  }
  return out;
}

Params cpu_params(const Pair& p) {
  Params q;
  for (const AxisSpec& a : p.cpu->info().axes) {
    auto it = p.params.find(a.name);
    if (a.in_container && it != p.params.end()) q[a.name] = it->second;
  }
  return q;
}

std::string label(const Pair& p) {
  std::string s = p.gpu->info().name;
  for (const auto& [k, v] : p.params) s += " " + k + "=" + std::to_string(v);
  return s;
}

Bytes random_bytes(std::size_t n, unsigned seed, int alphabet = 256) {
  std::mt19937 rng(seed);
  Bytes b(n);
  for (auto& x : b) x = static_cast<std::uint8_t>(rng() % alphabet);
  return b;
}

// The pair's device codec bound to its parameters.
BoundDeviceCodecPtr bind_device(const Pair& p) {
  return p.gpu->device_codec()->bind(p.params);
}

// What the buffers of a device call hold before it: the temporary storage, the output, and
// the 4 KiB after the input.
struct Fill {
  int temp = 0, output = 0, after_input = 0;
};

// Compresses through the device API on buffers this test owns, filled as `fill` says.
Bytes device_compress(const BoundDeviceCodec& d, ByteSpan input, Fill fill = {}) {
  constexpr std::size_t kSlack = 4096;
  cuda::DeviceBuffer<std::uint8_t> in(input.size() + kSlack);
  cuda::DeviceBuffer<std::uint8_t> out(d.max_compressed_size(input.size()));
  cuda::DeviceBuffer<std::uint8_t> temp(d.compress_temp_bytes(input.size()));
  cuda::DeviceBuffer<std::uint64_t> size(1);
  cuda::Stream s;  // non-blocking: the copy goes in its order, not the default stream's
  GCB_CUDA(cudaMemsetAsync(in.data(), fill.after_input, in.bytes(), s.get()));
  GCB_CUDA(cudaMemsetAsync(out.data(), fill.output, out.bytes(), s.get()));
  GCB_CUDA(cudaMemsetAsync(temp.data(), fill.temp, temp.bytes(), s.get()));
  GCB_CUDA(cudaMemcpyAsync(in.data(), input.data(), input.size(), cudaMemcpyHostToDevice, s.get()));
  d.compress_async({in.data(), input.size(), temp.data(), temp.bytes(), out.data(), size.data()},
                   s.get());
  std::uint64_t n = 0;
  GCB_CUDA(cudaMemcpyAsync(&n, size.data(), 8, cudaMemcpyDeviceToHost, s.get()));
  s.sync();
  EXPECT_LE(n, out.size());
  Bytes c(n);
  GCB_CUDA(cudaMemcpy(c.data(), out.data(), n, cudaMemcpyDeviceToHost));
  return c;
}

// The device API's container `got` against `want` (the CPU reference's or the host API's):
// equal, or for a codec whose containers vary (CodecInfo::reproducible) both decoding to the
// input.
::testing::AssertionResult same_container(const Pair& p, const Bytes& got, const Bytes& want,
                                          const Bytes& input) {
  if (got == want) return ::testing::AssertionSuccess();
  if (p.gpu->info().reproducible) return ::testing::AssertionFailure() << "containers differ";
  if (p.gpu->decompress(got, p.params) != input)
    return ::testing::AssertionFailure() << "a varied container does not decode to the input";
  if (p.gpu->decompress(want, p.params) != input)
    return ::testing::AssertionFailure() << "the reference container does not decode to the input";
  return ::testing::AssertionSuccess();
}

class DeviceApi : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!cuda::available()) GTEST_SKIP() << "no CUDA device: the device API tests need one";
  }
};

TEST_F(DeviceApi, EdgeCasesMatchTheCpuAndRoundTrip) {
  const Bytes cases[] = {{},
                         random_bytes(1, 1),
                         random_bytes(7, 2, 3),
                         random_bytes(4099, 3, 5),
                         random_bytes(70001, 4, 2)};
  for (const Pair& p : pairs()) {
    SCOPED_TRACE(label(p));
    const BoundDeviceCodecPtr dev = bind_device(p);
    for (const Bytes& input : cases) {
      SCOPED_TRACE(std::to_string(input.size()) + " bytes");
      const Bytes c = device_compress(*dev, input);
      EXPECT_TRUE(same_container(p, c, p.cpu->compress(input, cpu_params(p)), input));
      EXPECT_EQ(p.gpu->decompress(c, p.params), input);
    }
  }
}

TEST_F(DeviceApi, MirroredCorporaMatchTheCpu) {
  std::size_t files = 0;
  for (const char* corpus : {"calgary", "canterbury"}) {
    for (const auto& f : testing::corpus_files(corpus)) {
      const Bytes data = corpora::read_file(f.path);
      for (const Pair& p : pairs()) {
        SCOPED_TRACE(label(p) + " on " + f.entry.name);
        const Bytes c = device_compress(*bind_device(p), data);
        ASSERT_TRUE(same_container(p, c, p.cpu->compress(data, cpu_params(p)), data));
        ASSERT_EQ(p.gpu->decompress(c, p.params), data);
      }
      ++files;
    }
  }
  if (files == 0) GTEST_SKIP() << "no corpus file available (see the [ corpus ] lines)";
}

// A container depends on its input alone, not on what the temporary storage, the output buffer
// or the bytes after the input held before the call. (nvCOMP Cascaded's vary whatever the
// buffers held: tests/gpu/nvcomp_gpu_test.cpp, RepeatedCompressions.)
TEST_F(DeviceApi, ContainersDependOnTheInputAlone) {
  std::vector<std::pair<std::string, Bytes>> inputs{{"random 70001", random_bytes(70001, 4, 2)},
                                                    {"random 4099", random_bytes(4099, 3, 5)}};
  for (const char* corpus : {"calgary", "canterbury"}) {
    for (const auto& f : testing::corpus_files(corpus)) {
      if (f.entry.name == "pic" || f.entry.name == "ptt5" || f.entry.name == "paper1")
        inputs.emplace_back(f.entry.name, corpora::read_file(f.path));
    }
  }
  for (const Pair& p : pairs()) {
    const BoundDeviceCodecPtr dev = bind_device(p);
    for (const auto& [name, input] : inputs) {
      SCOPED_TRACE(label(p) + " on " + name);
      const Bytes zeroed = device_compress(*dev, input);
      auto same = [&](Fill fill) {
        return same_container(p, device_compress(*dev, input, fill), zeroed, input);
      };
      EXPECT_TRUE(same({.temp = 0xA5})) << "temporary storage";
      EXPECT_TRUE(same({.output = 0xA5})) << "output buffer";
      EXPECT_TRUE(same({.after_input = 0xA5})) << "after the input";
      EXPECT_TRUE(same({0xFF, 0xFF, 0xFF})) << "all three";
    }
  }
}

// A memory cap far below the input: chunks shrink, every chunk is the CPU reference's
// container of its bytes, and the stream decodes to the input from pageable and pinned memory.
TEST_F(DeviceApi, PipelineStreamsThroughAMemoryCap) {
  const Bytes input = random_bytes((3 << 20) + 5, 9, 4);
  for (const Pair& p : pairs()) {
    SCOPED_TRACE(label(p));
    gpu::PipelineOptions o;
    o.depth = 3;
    o.gpu_memory_limit = 4 << 20;
    const BoundDeviceCodecPtr dev = bind_device(p);
    if (dev->compress_temp_bytes(64 << 10) * o.depth > o.gpu_memory_limit) {
      std::cout << "[   NOTE   ] " << label(p)
                << ": one 64 KiB chunk's temp storage exceeds the cap / depth; not run under it\n";
      continue;
    }
    gpu::Pipeline pipeline(*dev, o);
    EXPECT_LT(pipeline.chunk_bytes(), input.size());
    const Bytes stream = pipeline.compress(input);
    EXPECT_LE(pipeline.device_bytes(), o.gpu_memory_limit);
    EXPECT_GT(
        testing::expect_chunks_equal(
            stream, input, [&](ByteSpan chunk) { return p.cpu->compress(chunk, cpu_params(p)); }),
        2u);
    EXPECT_EQ(pipeline.decompress(stream), input);
    cuda::PinnedBuffer pinned_in(stream.size()), pinned_out(input.size());
    std::copy(stream.begin(), stream.end(), pinned_in.data());
    pipeline.decompress(ByteSpan(pinned_in.data(), stream.size()),
                        std::span<std::uint8_t>(pinned_out.data(), input.size()));
    EXPECT_TRUE(std::equal(input.begin(), input.end(), pinned_out.data()));
  }
}

TEST_F(DeviceApi, DamagedStreamChunkIsADecodeError) {
  const Bytes input = random_bytes(1 << 20, 10, 3);
  for (const Pair& p : pairs()) {
    SCOPED_TRACE(label(p));
    gpu::PipelineOptions o;
    o.chunk_bytes = 256 << 10;
    const BoundDeviceCodecPtr dev = bind_device(p);
    gpu::Pipeline pipeline(*dev, o);
    Bytes stream = pipeline.compress(input);
    stream[stream.size() - 3] ^= 0x40;  // the last chunk's payload
    EXPECT_THROW(pipeline.decompress(stream), DecodeError);
  }
}

// The plan is made on the host; a different container on the device is reported, not decoded.
TEST_F(DeviceApi, ContainerOtherThanThePlannedOneIsReported) {
  const Bytes a = random_bytes(5000, 11, 4), b = random_bytes(5000, 12, 4);
  for (const Pair& p : pairs()) {
    SCOPED_TRACE(label(p));
    const BoundDeviceCodecPtr dev = bind_device(p);
    const BoundDeviceCodec& d = *dev;
    const Bytes ca = device_compress(d, a), cb = device_compress(d, b);
    const DecodePlan plan = d.plan_decompress(ca);
    cuda::DeviceBuffer<std::uint8_t> in(std::max(ca.size(), cb.size())), out(plan.original_size);
    cuda::DeviceBuffer<std::uint8_t> temp(plan.temp_bytes);
    cuda::DeviceBuffer<DeviceStatus> status(1);
    cuda::Stream s;
    GCB_CUDA(cudaMemcpyAsync(in.data(), cb.data(), std::min(cb.size(), ca.size()),
                             cudaMemcpyHostToDevice, s.get()));
    d.decompress_async(plan, {in.data(), temp.data(), temp.bytes(), out.data(), status.data()},
                       s.get());
    DeviceStatus st;
    GCB_CUDA(cudaMemcpyAsync(&st, status.data(), sizeof st, cudaMemcpyDeviceToHost, s.get()));
    s.sync();
    EXPECT_NE(st.error, kDeviceOk);
  }
}

// Device memory that cannot be had is std::bad_alloc (a decoder's DecodeError), not a CUDA
// error; the device stays usable.
TEST_F(DeviceApi, OutOfDeviceMemoryIsBadAlloc) {
  EXPECT_THROW(cuda::DeviceBuffer<std::uint8_t>(std::size_t{1} << 52), std::bad_alloc);
  EXPECT_NO_THROW(cuda::DeviceBuffer<std::uint8_t>(1 << 20));
  try {
    decode_guarded("test",
                   [] { return cuda::DeviceBuffer<std::uint8_t>(std::size_t{1} << 52).size(); });
    ADD_FAILURE() << "4 PiB of device memory";
  } catch (const DecodeError& e) {
    EXPECT_NE(std::string(e.what()).find("allocation failed"), std::string::npos) << e.what();
  }
}

// A plan sizes the caller's output buffer, so the container's claimed size is held to the decode
// limit before any buffer exists.
TEST_F(DeviceApi, PlansBeyondTheDecodeLimitAreDecodeErrors) {
  const Bytes zeros(1 << 20, 0);
  for (const char* name : {"fl", "rle", "lz77"}) {
    SCOPED_TRACE(name);
    const Codec* gpu = find_codec(name, Device::gpu);
    ASSERT_NE(gpu, nullptr);
    const BoundDeviceCodecPtr d = gpu->device_codec()->bind({});
    const Bytes container = find_codec(name, Device::cpu)->compress(zeros, {});
    ASSERT_LT(2 * container.size(), zeros.size());  // the claim exceeds the limit below
    EXPECT_EQ(d->plan_decompress(container).original_size, zeros.size());
    const ScopedDecodeLimit tight({.absolute = kMaxOriginalSize, .floor = 0, .ratio = 2});
    try {
      d->plan_decompress(container);
      ADD_FAILURE() << "a plan beyond the decode limit";
    } catch (const DecodeError& e) {
      EXPECT_NE(std::string(e.what()).find("exceeds the decode limit"), std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace gcbench
