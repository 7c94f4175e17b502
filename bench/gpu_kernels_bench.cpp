// Kernel throughput of the GPU FL and RLE paths on 1 GiB synthetic inputs already on the
// device, against a device-to-device cudaMemcpy of the same byte count (issue 3's targets).
// Times are CUDA-event kernel seconds (manual time); bytes are uncompressed input bytes. Every
// benchmark checks its device output once against the CPU reference before timing.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "codecs/common/cuda_check.hpp"
#include "codecs/common/device_buffer.hpp"
#include "codecs/fl/fl.hpp"
#include "codecs/fl/fl_gpu.hpp"
#include "codecs/fl/fl_payload.hpp"
#include "codecs/rle/rle_encode.hpp"
#include "codecs/rle/rle_gpu.hpp"
#include "codecs/rle/rle_payload.hpp"
#include "corpora/synthetic.hpp"
#include "gcbench/container.hpp"
#include "gcbench/params.hpp"

namespace gcbench {
namespace {

using u8 = std::uint8_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

constexpr u64 kBytes = u64{1} << 30;
constexpr u32 kWidth = 4;
constexpr u64 kElements = kBytes / kWidth;
constexpr u32 kFlValueBits = 10;  // values straddle 32-bit words

// One timed path: its median kernel time, for the closing table.
struct Result {
  std::string path;
  double median_s = 0;
};
std::vector<Result>& results() {
  static std::vector<Result> r;
  return r;
}

const Bytes& fl_input() {
  static const Bytes b = [] {
    synthetic::Spec s;
    s.kind = synthetic::Kind::small_ints;
    s.size_bytes = kBytes;
    s.element_width = kWidth;
    s.value_bits = kFlValueBits;
    return synthetic::generate(s);
  }();
  return b;
}

const Bytes& rle_input(int mean_run) {
  static std::map<int, Bytes> cache;
  auto it = cache.find(mean_run);
  if (it == cache.end()) {
    synthetic::Spec s;
    s.kind = synthetic::Kind::runs;
    s.size_bytes = kBytes;
    s.element_width = kWidth;
    s.mean_run = mean_run;
    it = cache.emplace(mean_run, synthetic::generate(s)).first;
  }
  return it->second;
}

// CPU reference payloads (the container's payload part).
const Bytes& fl_reference() {
  static const Bytes b = [] {
    Bytes c = fl::make_cpu_codec()->compress(fl_input(), {{"element_width", kWidth}});
    return Bytes(c.begin() + kContainerHeaderSize, c.end());
  }();
  return b;
}

const Bytes& rle_reference(int mean_run) {
  static std::map<int, Bytes> cache;
  auto it = cache.find(mean_run);
  if (it == cache.end()) {
    it = cache.emplace(mean_run, rle::encode_payload(rle_input(mean_run), kWidth, thread_count({})))
             .first;
  }
  return it->second;
}

cuda::DeviceBuffer<u8> upload(ByteSpan host) {
  cuda::DeviceBuffer<u8> d(host.size());
  GCB_CUDA(cudaMemcpy(d.data(), host.data(), host.size(), cudaMemcpyHostToDevice));
  return d;
}

Bytes download(const void* d, u64 bytes) {
  Bytes h(bytes);
  GCB_CUDA(cudaMemcpy(h.data(), d, bytes, cudaMemcpyDeviceToHost));
  return h;
}

bool equal_to(const void* d, ByteSpan want) {
  Bytes got = download(d, want.size());
  return std::equal(got.begin(), got.end(), want.begin());
}

// Runs `enqueue` once untimed, checks it with `verify`, then times it per iteration with events.
void timed(benchmark::State& state, const std::string& path, cudaStream_t s,
           const std::function<void()>& enqueue, const std::function<bool()>& verify) {
  enqueue();
  GCB_CUDA(cudaStreamSynchronize(s));
  if (!verify()) {
    state.SkipWithError((path + ": device output differs from the CPU reference").c_str());
    return;
  }
  cuda::Event begin, end;
  std::vector<double> times;
  for (auto _ : state) {
    begin.record(s);
    enqueue();
    end.record(s);
    double t = cuda::elapsed_s(begin, end);
    state.SetIterationTime(t);
    times.push_back(t);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * kBytes));
  std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
  // Google Benchmark calls a benchmark more than once while it sizes the iteration count; the
  // last call, the longest, is the one reported.
  auto& r = results();
  auto it = std::find_if(r.begin(), r.end(), [&](const Result& x) { return x.path == path; });
  if (it == r.end()) it = r.insert(r.end(), Result{path, 0});
  it->median_s = times[times.size() / 2];
}

void bm_copy(benchmark::State& state) {
  cuda::Stream s;
  auto src = upload(fl_input());
  cuda::DeviceBuffer<u8> dst(kBytes);
  timed(
      state, "copy d2d", s.get(),
      [&] {
        GCB_CUDA(
            cudaMemcpyAsync(dst.data(), src.data(), kBytes, cudaMemcpyDeviceToDevice, s.get()));
      },
      [&] { return equal_to(dst.data(), fl_input()); });
}

void bm_fl_compress(benchmark::State& state) {
  cuda::Stream s;
  auto in = upload(fl_input());
  fl::gpu::Encoder enc(kElements, kWidth, fl::kDefaultFrameSize);
  timed(
      state, "fl compress", s.get(), [&] { enc.encode(in.data(), s.get()); },
      [&] {
        fl::ParsedPayload p = fl::parse_payload(fl_reference(), kBytes);
        u64 total = 0;
        GCB_CUDA(cudaMemcpy(&total, enc.total_bits(), sizeof total, cudaMemcpyDeviceToHost));
        return total == p.layout.total_bits && equal_to(enc.bits(), p.bits) &&
               equal_to(enc.words(), p.words);
      });
}

void bm_fl_decompress(benchmark::State& state) {
  cuda::Stream s;
  fl::ParsedPayload p = fl::parse_payload(fl_reference(), kBytes);
  fl::gpu::Decoder dec(kElements, kWidth, p.layout.frame_size, p.layout.word_count);
  GCB_CUDA(cudaMemcpy(dec.bits(), p.bits.data(), p.bits.size(), cudaMemcpyHostToDevice));
  GCB_CUDA(cudaMemcpy(dec.words(), p.words.data(), p.words.size(), cudaMemcpyHostToDevice));
  cuda::DeviceBuffer<u8> out(kBytes);
  timed(
      state, "fl decompress", s.get(), [&] { dec.decode(out.data(), s.get()); },
      [&] { return equal_to(out.data(), fl_input()); });
}

// Device runs equal the CPU payload's counts and values.
bool runs_match(int mean_run, u64 runs, const u32* d_counts, const u8* d_values) {
  rle::ParsedPayload p = rle::parse_payload(rle_reference(mean_run), kBytes);
  return runs == p.layout.run_count && equal_to(d_counts, p.counts) && equal_to(d_values, p.values);
}

void bm_rle_compress(benchmark::State& state, int mean_run) {
  cuda::Stream s;
  auto in = upload(rle_input(mean_run));
  rle::gpu::Encoder enc(kElements, kWidth);
  timed(
      state, "rle compress, runs " + std::to_string(mean_run), s.get(),
      [&] { enc.encode(in.data(), s.get()); },
      [&] {
        u64 runs = 0;
        GCB_CUDA(cudaMemcpy(&runs, enc.run_count(), sizeof runs, cudaMemcpyDeviceToHost));
        return runs_match(mean_run, runs, enc.counts(), enc.values());
      });
}

void bm_rle_cub_compress(benchmark::State& state, int mean_run) {
  cuda::Stream s;
  auto in = upload(rle_input(mean_run));
  rle::gpu::CubEncoder enc(kElements, kWidth);
  timed(
      state, "rle-cub compress, runs " + std::to_string(mean_run), s.get(),
      [&] { enc.encode(in.data(), s.get()); },
      [&] {
        u32 runs = 0;
        GCB_CUDA(cudaMemcpy(&runs, enc.chunk_runs(), sizeof runs, cudaMemcpyDeviceToHost));
        return enc.chunk_count() == 1 && runs_match(mean_run, runs, enc.counts(), enc.values());
      });
}

void bm_rle_decompress(benchmark::State& state, int mean_run, rle::gpu::DecodeVariant v) {
  cuda::Stream s;
  rle::ParsedPayload p = rle::parse_payload(rle_reference(mean_run), kBytes);
  rle::gpu::Decoder dec(kElements, kWidth, p.layout.run_count, v);
  GCB_CUDA(cudaMemcpy(dec.counts(), p.counts.data(), p.counts.size(), cudaMemcpyHostToDevice));
  GCB_CUDA(cudaMemcpy(dec.values(), p.values.data(), p.values.size(), cudaMemcpyHostToDevice));
  cuda::DeviceBuffer<u8> out(kBytes);
  const char* name = v == rle::gpu::DecodeVariant::scan ? "scan" : "flood";
  timed(
      state, std::string("rle decompress ") + name + ", runs " + std::to_string(mean_run), s.get(),
      [&] { dec.decode(out.data(), s.get()); },
      [&] {
        u64 total = 0;
        GCB_CUDA(cudaMemcpy(&total, dec.total(), sizeof total, cudaMemcpyDeviceToHost));
        return total == kElements && equal_to(out.data(), rle_input(mean_run));
      });
}

void register_all() {
  auto reg = [](const std::string& name, auto fn) {
    benchmark::RegisterBenchmark(name.c_str(), fn)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond)
        ->MinTime(0.5);
  };
  reg("copy_d2d", bm_copy);
  reg("fl_compress", bm_fl_compress);
  reg("fl_decompress", bm_fl_decompress);
  for (int mean : {8, 64}) {
    std::string m = "/mean_run:" + std::to_string(mean);
    reg("rle_compress" + m, [mean](benchmark::State& s) { bm_rle_compress(s, mean); });
    reg("rle_cub_compress" + m, [mean](benchmark::State& s) { bm_rle_cub_compress(s, mean); });
    reg("rle_decompress_scan" + m,
        [mean](benchmark::State& s) { bm_rle_decompress(s, mean, rle::gpu::DecodeVariant::scan); });
    reg("rle_decompress_flood" + m, [mean](benchmark::State& s) {
      bm_rle_decompress(s, mean, rle::gpu::DecodeVariant::flood);
    });
  }
}

void print_table() {
  const auto& r = results();
  auto copy =
      std::find_if(r.begin(), r.end(), [](const Result& x) { return x.path == "copy d2d"; });
  if (copy == r.end()) return;
  std::printf("\n%-32s %10s %10s\n", "path (1 GiB input, median)", "GB/s", "% of copy");
  for (const Result& x : r) {
    std::printf("%-32s %10.1f %9.1f%%\n", x.path.c_str(), kBytes / x.median_s * 1e-9,
                100.0 * copy->median_s / x.median_s);
  }
}

}  // namespace
}  // namespace gcbench

int main(int argc, char** argv) {
  if (!gcbench::cuda::available()) {
    std::fprintf(stderr, "gcbench-gpu-kernels: no CUDA device, nothing to measure\n");
    return 1;
  }
  gcbench::register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  gcbench::print_table();
  return 0;
}
