// nvCOMP peers through the device API (include/gcbench/device_codec.hpp): round trips on edge
// sizes and the mirrored corpora, device-API containers equal to the host API's, the container
// layout, the pipelined path, and damaged containers rejected with DecodeError (the host plan
// validates the header and the chunk table, the device each chunk's CRC-32 before nvCOMP's
// decoders see it; a crash would end this binary).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <random>
#include <string>

#include "baselines/nvcomp/nvcomp_format.hpp"
#include "src/cuda/cuda_check.hpp"
#include "src/cuda/device_buffer.hpp"
#include "corpora/synthetic.hpp"
#include "gcbench/container.hpp"
#include "gcbench/device_codec.hpp"
#include "gcbench/errors.hpp"
#include "gcbench/optional_libraries.hpp"
#include "gcbench/registry.hpp"
#include "gcbench/stream.hpp"
#include "src/gpu/pipeline.hpp"
#include "support/codec_checks.hpp"

namespace gcbench {
namespace {

using u8 = std::uint8_t;
using u64 = std::uint64_t;

std::vector<const Codec*> nvcomp_codecs() {
  std::vector<const Codec*> found;
  for (const auto& c : registry()) {
    if (c->info().name.rfind("nvcomp-", 0) == 0) found.push_back(c.get());
  }
  return found;
}

Bytes random_bytes(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  Bytes b(n);
  for (auto& x : b) x = static_cast<u8>(rng());
  return b;
}

template <typename T>
T load_le(const u8* p) {
  u64 v = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i) v |= u64{p[i]} << (8 * i);
  return static_cast<T>(v);
}

// Compresses through the device API on buffers this test owns; the output and temporary
// buffers are filled with a pattern first, so that bytes the codec (or nvCOMP) leaves
// unwritten show up as differences from the host API's container, made in fresh memory.
Bytes device_compress(const DeviceCodec& codec, ByteSpan input, const Params& p) {
  const BoundDeviceCodecPtr d = codec.bind(p);
  const u64 bound = d->max_compressed_size(input.size());
  cuda::DeviceBuffer<u8> in(input.size()), out(bound);
  cuda::DeviceBuffer<u8> temp(d->compress_temp_bytes(input.size()));
  cuda::DeviceBuffer<u64> size(1);
  cuda::Stream s;
  GCB_CUDA(cudaMemcpyAsync(in.data(), input.data(), input.size(), cudaMemcpyHostToDevice, s.get()));
  GCB_CUDA(cudaMemsetAsync(out.data(), 0xA5, out.bytes(), s.get()));
  GCB_CUDA(cudaMemsetAsync(temp.data(), 0x5A, temp.bytes(), s.get()));
  d->compress_async({in.data(), input.size(), temp.data(), temp.bytes(), out.data(), size.data()},
                    s.get());
  u64 n = 0;
  GCB_CUDA(cudaMemcpyAsync(&n, size.data(), sizeof n, cudaMemcpyDeviceToHost, s.get()));
  s.sync();
  EXPECT_LE(n, bound);
  Bytes c(std::min(n, bound));
  GCB_CUDA(cudaMemcpy(c.data(), out.data(), c.size(), cudaMemcpyDeviceToHost));
  return c;
}

// Plans on the host and decompresses `on_device` (the planned container unless given) through
// the device API; the status's error turned into DecodeError as the host wrapper does.
Bytes device_decompress(const DeviceCodec& codec, ByteSpan container, const Params& p,
                        ByteSpan on_device = {}) {
  if (on_device.empty()) on_device = container;
  const BoundDeviceCodecPtr d = codec.bind(p);
  const DecodePlan plan = d->plan_decompress(container);
  cuda::DeviceBuffer<u8> in(std::max(container.size(), on_device.size()));
  cuda::DeviceBuffer<u8> out(plan.original_size), temp(plan.temp_bytes);
  cuda::DeviceBuffer<DeviceStatus> status(1);
  cuda::Stream s;
  GCB_CUDA(cudaMemcpyAsync(in.data(), on_device.data(), on_device.size(), cudaMemcpyHostToDevice,
                           s.get()));
  d->decompress_async(plan, {in.data(), temp.data(), temp.bytes(), out.data(), status.data()},
                      s.get());
  DeviceStatus st;
  GCB_CUDA(cudaMemcpyAsync(&st, status.data(), sizeof st, cudaMemcpyDeviceToHost, s.get()));
  s.sync();
  if (st.error != kDeviceOk) throw DecodeError(codec.describe(st));
  EXPECT_EQ(st.size, plan.original_size);
  Bytes decoded(plan.original_size);
  GCB_CUDA(cudaMemcpy(decoded.data(), out.data(), decoded.size(), cudaMemcpyDeviceToHost));
  return decoded;
}

class NvcompTest : public ::testing::Test {
 protected:
  void SetUp() override {
    codecs_ = nvcomp_codecs();
    if (codecs_.empty()) GTEST_SKIP() << optional_libraries::nvcomp.missing_reason;
    if (!cuda::available()) GTEST_SKIP() << "no CUDA device";
  }

  // Device API round trip, equal to the host API's container, and the host API's round trip.
  static void expect_device_round_trip(const Codec& c, ByteSpan data, const Params& given = {}) {
    const DeviceCodec* d = c.device_codec();
    ASSERT_NE(d, nullptr) << c.info().name << " has no device API";
    const Params p = resolve_params(c.info().axes, given);
    const Bytes container = device_compress(*d, data, p);
    // Cascaded's containers vary from call to call (RepeatedCompressions): the host API's
    // must then decode to the input, as this one must below.
    const Bytes host_container = c.compress(data, p);
    if (c.info().reproducible) {
      EXPECT_EQ(container, host_container) << "device API and host API containers differ";
    } else {
      const Bytes back = c.decompress(host_container, p);
      EXPECT_TRUE(back.size() == data.size() && std::equal(back.begin(), back.end(), data.begin()))
          << "host API container round trip";
    }
    const Bytes decoded = device_decompress(*d, container, p);
    ASSERT_EQ(decoded.size(), data.size());
    EXPECT_TRUE(std::equal(decoded.begin(), decoded.end(), data.begin())) << "device round trip";
    const Bytes host = c.decompress(container, p);
    EXPECT_TRUE(host.size() == data.size() && std::equal(host.begin(), host.end(), data.begin()))
        << "host API round trip";
  }

  std::vector<const Codec*> codecs_;
};

TEST_F(NvcompTest, EveryPeerHasTheDeviceApi) {
  for (const Codec* c : codecs_) {
    EXPECT_NE(c->device_codec(), nullptr) << c->info().name;
    EXPECT_EQ(c->info().version.rfind("3/", 0), 0u) << c->info().version;
  }
}

TEST_F(NvcompTest, DeviceApiRoundTripsEdgeSizes) {
  for (const Codec* c : codecs_) {
    for (u64 n : {0, 1, 7, 4095, 4096, 4097, 65536, 65537, 3 * 65536 + 5, 1000003}) {
      const Bytes runs =
          synthetic::generate({.kind = synthetic::Kind::runs, .size_bytes = n, .seed = n + 1});
      const Bytes noise = random_bytes(n, static_cast<unsigned>(n));  // near the size bound
      for (std::int64_t chunk : {4096, 65536}) {
        SCOPED_TRACE(c->info().name + " n=" + std::to_string(n) +
                     " chunk=" + std::to_string(chunk));
        expect_device_round_trip(*c, runs, {{"chunk_size", chunk}});
        expect_device_round_trip(*c, noise, {{"chunk_size", chunk}});
      }
    }
  }
}

TEST_F(NvcompTest, DeviceApiRoundTripsCalgaryAndCanterbury) {
  std::size_t files = 0;
  for (const char* corpus : {"calgary", "canterbury"}) {
    for (const auto& file : testing::corpus_files(corpus)) {
      const Bytes data = corpora::read_file(file.path);
      for (const Codec* c : codecs_) {
        SCOPED_TRACE(c->info().name + " " + file.entry.name);
        expect_device_round_trip(*c, data);
      }
      ++files;
    }
  }
  if (files == 0) GTEST_SKIP() << "no corpus file available (see the [ corpus ] lines)";
}

// The same input compressed again and again gives one container, except for a codec that says
// its containers vary (CodecInfo::reproducible: Cascaded, seen on Calgary's pic whatever the
// stream, the legacy default one included); every distinct container decodes to the input.
TEST_F(NvcompTest, RepeatedCompressionsGiveOneContainerUnlessTheyVary) {
  Bytes data;
  for (const auto& file : testing::corpus_files("calgary")) {
    if (file.entry.name == "pic") data = corpora::read_file(file.path);
  }
  if (data.empty())
    data = synthetic::generate({.kind = synthetic::Kind::runs, .size_bytes = 513216});
  for (const Codec* c : codecs_) {
    const bool cascaded = c->info().name == "nvcomp-cascaded";
    EXPECT_EQ(c->info().reproducible, !cascaded) << c->info().name;
    const bool typed = std::any_of(c->info().axes.begin(), c->info().axes.end(),
                                   [](const AxisSpec& a) { return a.name == "element_width"; });
    for (std::int64_t width : {1, 2}) {
      const Params p =
          resolve_params(c->info().axes, typed ? Params{{"element_width", width}} : Params{});
      std::vector<Bytes> seen;
      for (int k = 0; k < 12; ++k) {
        Bytes b = device_compress(*c->device_codec(), data, p);
        if (std::find(seen.begin(), seen.end(), b) == seen.end()) seen.push_back(std::move(b));
      }
      for (const Bytes& b : seen) {
        EXPECT_TRUE(device_decompress(*c->device_codec(), b, p) == data)
            << c->info().name << ": a container does not round-trip";
      }
      if (c->info().reproducible) {
        EXPECT_EQ(seen.size(), 1u) << c->info().name;
      }
      std::cout << "[   NOTE   ] " << c->info().name << " width " << width << ": " << seen.size()
                << " distinct containers in 12 compressions\n";
      if (!cascaded) break;
    }
  }
}

// Version 3: fixed fields, a size and a CRC per chunk, zeros up to the first chunk, chunks
// 16-byte aligned and zero-padded.
TEST_F(NvcompTest, ContainerLayout) {
  const Bytes data = synthetic::generate({.kind = synthetic::Kind::runs, .size_bytes = 300001});
  for (const Codec* c : codecs_) {
    SCOPED_TRACE(c->info().name);
    const Bytes container = c->compress(data, {{"chunk_size", 65536}});
    const OpenedContainer opened = open_container(container, nvcomp::format::kContainerFormat);
    const u8* p = opened.payload.data();
    EXPECT_EQ(p[1], 0);
    EXPECT_EQ(load_le<std::uint32_t>(p + 4), 65536u);
    const u64 n = load_le<u64>(p + 8);
    ASSERT_EQ(n, 5u);
    const auto padded = [](u64 bytes) { return (bytes + 15) / 16 * 16; };
    u64 at = padded(16 + 8 * n);
    for (u64 k = 16 + 8 * n; k < at; ++k) EXPECT_EQ(p[k], 0) << k;
    for (u64 i = 0; i < n; ++i) {
      const u64 size = load_le<std::uint32_t>(p + 16 + 4 * i);
      const std::uint32_t crc = load_le<std::uint32_t>(p + 16 + 4 * n + 4 * i);
      EXPECT_EQ((kContainerHeaderSize + at) % 16, 0u);
      EXPECT_EQ(crc, crc32_of(ByteSpan(p + at, size))) << "chunk " << i;
      for (u64 k = at + size; k < padded(at + size); ++k) EXPECT_EQ(p[k], 0) << k;
      at = padded(at + size);
    }
    EXPECT_EQ(at, opened.payload.size());
  }
}

TEST_F(NvcompTest, ChunkSizeNotAMultipleOfSixteenIsAParamError) {
  for (const Codec* c : codecs_) {
    EXPECT_THROW(c->compress(Bytes(10000, 1), {{"chunk_size", 4100}}), ParamError);
    EXPECT_THROW(c->compress(Bytes(10000, 1), {{"chunk_size", 4104}}), ParamError);
  }
}

// Cascaded's element_width: nvCOMP reads integers of that width, so a column of small 32-bit
// values compresses far better as width 4 than as bytes; every width round-trips, and an input
// of partial elements is a ParamError, not a launch nvCOMP may crash on.
TEST_F(NvcompTest, CascadedReadsElementsOfTheGivenWidth) {
  const Codec* cascaded = find_codec("nvcomp-cascaded", Device::gpu);
  ASSERT_NE(cascaded, nullptr);
  for (std::uint32_t width : {1u, 2u, 4u}) {
    SCOPED_TRACE("element_width " + std::to_string(width));
    const Bytes data = synthetic::generate(
        {.kind = synthetic::Kind::small_ints, .size_bytes = 1 << 20, .element_width = width});
    expect_device_round_trip(*cascaded, data, {{"element_width", width}});
  }
  const Bytes w4 = synthetic::generate(
      {.kind = synthetic::Kind::small_ints, .size_bytes = 1 << 20, .element_width = 4});
  EXPECT_LT(2 * cascaded->compress(w4, {{"element_width", 4}}).size(),
            cascaded->compress(w4, {}).size());
  // Not whole elements: compressed as bytes, and it still round-trips.
  expect_device_round_trip(*cascaded, random_bytes(10002, 3), {{"element_width", 4}});
}

// The pipelined path over the device API: buffers reused from chunk to chunk, every chunk's
// container equal to the host API's container of its bytes, and the stream round-trips.
TEST_F(NvcompTest, PipelineChunksEqualTheHostApi) {
  const Bytes input = random_bytes((3 << 20) + 5, 9);
  Bytes mixed = synthetic::generate({.kind = synthetic::Kind::runs, .size_bytes = input.size()});
  for (std::size_t i = 0; i < mixed.size(); i += 2) mixed[i] = input[i];  // half noise
  for (const Codec* c : codecs_) {
    SCOPED_TRACE(c->info().name);
    const Params p = resolve_params(c->info().axes, {});
    gpu::PipelineOptions o;
    o.depth = 3;
    o.chunk_bytes = 256 << 10;
    const BoundDeviceCodecPtr dev = c->device_codec()->bind(p);
    gpu::Pipeline pipeline(*dev, o);
    const Bytes stream = pipeline.compress(mixed);
    EXPECT_EQ(testing::expect_chunks_equal(stream, mixed,
                                           [&](ByteSpan chunk) { return c->compress(chunk, p); }),
              13u);
    EXPECT_EQ(pipeline.decompress(stream), mixed);
  }
}

// What the pipeline's memory cap has to hold per chunk (printed): nvCOMP's own temporary
// storage dominates for deflate and zstd.
TEST_F(NvcompTest, TemporaryStorageIsReported) {
  for (const Codec* c : codecs_) {
    const Params p = resolve_params(c->info().axes, {});
    const BoundDeviceCodecPtr d = c->device_codec()->bind(p);
    for (u64 n : {u64{65536}, u64{1} << 20}) {
      const std::size_t temp = d->compress_temp_bytes(n);
      const DecodePlan plan = d->plan_decompress(c->compress(Bytes(n, 7), p));
      std::printf("[ temp ] %s %llu bytes: compress %zu, decompress %zu\n", c->info().name.c_str(),
                  static_cast<unsigned long long>(n), temp, plan.temp_bytes);
      EXPECT_GT(temp, n);  // the slots alone hold the input's chunks
    }
  }
}

TEST_F(NvcompTest, DamagedContainersRejected) {
  const Bytes data =
      synthetic::generate({.kind = synthetic::Kind::runs, .size_bytes = 200, .seed = 3});
  for (const Codec* c : codecs_) testing::expect_hostile_inputs_rejected(*c, data);
}

// Flipped bytes all over a container of several chunks: DecodeError from the host plan or the
// device's status (the device API) and from the host API, never a fault.
TEST_F(NvcompTest, DamagedMultiChunkContainersRejected) {
  const Bytes data = synthetic::generate({.kind = synthetic::Kind::runs, .size_bytes = 200000});
  for (const Codec* c : codecs_) {
    SCOPED_TRACE(c->info().name);
    const Params p = resolve_params(c->info().axes, {{"chunk_size", 16384}});
    const Bytes good = c->compress(data, p);
    std::mt19937 rng(7);
    for (int k = 0; k < 40; ++k) {
      Bytes bad = good;
      const std::size_t at = kContainerHeaderSize + rng() % (good.size() - kContainerHeaderSize);
      bad[at] ^= static_cast<u8>(1 + rng() % 255);
      SCOPED_TRACE("byte " + std::to_string(at));
      EXPECT_THROW(device_decompress(*c->device_codec(), bad, p), DecodeError);
      testing::expect_rejected_or_exact(*c, bad, data, "host API");
    }
  }
}

// A flipped byte in a chunk's compressed data or in its zero padding passes the host plan (it
// reads no chunk data); the device finds it before nvCOMP's decoder reads the chunk, reports the
// lowest damaged chunk, and the CUDA context stays usable: the intact container decodes after.
TEST_F(NvcompTest, DamagedChunkDataIsReportedByTheDevice) {
  const Bytes data = synthetic::generate({.kind = synthetic::Kind::runs, .size_bytes = 200000});
  for (const Codec* c : codecs_) {
    SCOPED_TRACE(c->info().name);
    const DeviceCodec& d = *c->device_codec();
    const Params p = resolve_params(c->info().axes, {{"chunk_size", 16384}});
    const Bytes good = device_compress(d, data, p);
    const u8* payload = good.data() + kContainerHeaderSize;
    const u64 n = load_le<u64>(payload + 8);
    ASSERT_GE(n, 5u);
    // Each chunk's compressed size and where it starts in the container.
    std::vector<u64> sizes(n), starts(n);
    u64 at = kContainerHeaderSize + nvcomp::format::data_offset(n);
    for (u64 i = 0; i < n; ++i) {
      sizes[i] = load_le<std::uint32_t>(payload + nvcomp::format::kSizesOffset + 4 * i);
      starts[i] = at;
      at += nvcomp::format::padded(sizes[i]);
    }
    ASSERT_EQ(at, good.size());
    const auto expect_chunk_reported = [&](const Bytes& bad, u64 chunk, const std::string& what) {
      SCOPED_TRACE(what);
      EXPECT_NO_THROW(d.bind(p)->plan_decompress(bad)) << "the host plan reads no chunk data";
      const std::string want = "chunk " + std::to_string(chunk) + " damaged";
      try {
        device_decompress(d, bad, p);
        ADD_FAILURE() << "accepted";
      } catch (const DecodeError& e) {
        EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
      }
      try {
        c->decompress(bad, p);
        ADD_FAILURE() << "host API accepted";
      } catch (const DecodeError& e) {
        EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
      }
      GCB_CUDA(cudaDeviceSynchronize());
      EXPECT_EQ(device_decompress(d, good, p), data) << "the context after the damaged chunk";
    };
    Bytes bad = good;
    bad[starts[3] + sizes[3] / 2] ^= 0x40;
    expect_chunk_reported(bad, 3, "a byte in the middle of chunk 3");
    bad[starts[1]] ^= 0x01;  // and chunk 1's first byte: the lowest damaged chunk is reported
    expect_chunk_reported(bad, 1, "chunks 1 and 3");
    for (u64 i = 0; i < n; ++i) {
      if (sizes[i] % 16 == 0) continue;
      Bytes padding = good;
      padding[starts[i] + sizes[i]] = 0x80;
      expect_chunk_reported(padding, i, "the padding after chunk " + std::to_string(i));
      break;
    }
  }
}

// The plan is made on the host; a different container on the device is reported as an error
// status (a DecodeError). Both containers here are valid and of one layout (runs of one byte
// value each), so nvCOMP decodes only streams it wrote.
TEST_F(NvcompTest, ContainerOtherThanThePlannedOneIsReported) {
  const Bytes a(100000, 'a'), b(100000, 'b');
  for (const Codec* c : codecs_) {
    SCOPED_TRACE(c->info().name);
    const DeviceCodec& d = *c->device_codec();
    const Params p = resolve_params(c->info().axes, {{"chunk_size", 8192}});
    const Bytes ca = device_compress(d, a, p), cb = device_compress(d, b, p);
    EXPECT_THROW(device_decompress(d, ca, p, cb), DecodeError);
    // The planned header over the other payload: the output's CRC-32 reports it.
    ASSERT_EQ(ca.size(), cb.size());
    Bytes mixed = cb;
    std::copy_n(ca.begin(), kContainerHeaderSize, mixed.begin());
    EXPECT_THROW(device_decompress(d, ca, p, mixed), DecodeError);
  }
}

}  // namespace
}  // namespace gcbench
