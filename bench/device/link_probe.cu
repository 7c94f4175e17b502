// How much of the PCIe link a decompression call can use with no codec at all (issue 65's target,
// a share of pinned host-to-device bandwidth counting original bytes). All host memory
// pinned, GPU times by CUDA events, median and min of --reps after a warm-up: 1) H2D and D2H
// alone over the original size, in one copy and in chunks; 2) both directions at once; 3) the
// order of src/gpu/pipeline.cpp's decompress (uploads on `up`, each chunk's codec call on its
// slot's stream, downloads on `down`, slot reuse ordered by the slot's events) with a one-word
// kernel as the codec, chunks of 4-32 MiB and depths 2, 4, 8: the call's GB/s of original
// bytes and its % of H2D alone; 4) the same with a device copy of each chunk as the codec; 5) the
// pipeline of 3) at depth 4 with the input as the driver's pinned end-to-end path has it, malloc'ed
// and registered (cudaHostRegister), for what registration costs; 6) both directions at once as
// in 2) while a kernel of dependent random reads (as jump decoding's resolve passes make) keeps
// every SM busy, over a table that fits the L2 and one that does not: do a codec's memory
// requests slow the copy engines?
// From the repository root:
//   nvcc -std=c++20 -O3 -arch=sm_90 -I. -Iinclude bench/device/link_probe.cu -o /tmp/link &&
//   /tmp/link [--original BYTES] [--compressed-fraction F] [--reps N]
// (defaults 90400000, Silesia as one input; 0.42; 10), or the `probes` recipe's step `link`.
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "src/cuda/cuda_check.hpp"
#include "src/cuda/device_buffer.hpp"  // Stream, Event, PinnedBuffer: header-only, no library

namespace {

using u8 = std::uint8_t;
using u64 = std::uint64_t;
using gcbench::cuda::Event;
using gcbench::cuda::PinnedBuffer;
using gcbench::cuda::Stream;
using Clock = std::chrono::steady_clock;

constexpr u64 kMiB = u64{1} << 20;
constexpr int kThreads = 256;
constexpr double kTarget = 0.8;  // issue 65's share of pinned H2D
constexpr const char* kUsage =
    "usage: link_probe [--original BYTES] [--compressed-fraction F] [--reps N]";

struct Args {
  u64 original = 90400000;  // Silesia as one input
  double fraction = 0.42;   // compressed / original
  int reps = 10;
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; i += 2) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) throw std::invalid_argument(flag + " needs a value; " + kUsage);
    const char* value = argv[i + 1];
    if (flag == "--original") {
      a.original = std::strtoull(value, nullptr, 10);
    } else if (flag == "--compressed-fraction") {
      a.fraction = std::strtod(value, nullptr);
    } else if (flag == "--reps") {
      a.reps = std::atoi(value);
    } else {
      throw std::invalid_argument("unknown argument " + flag + "; " + kUsage);
    }
  }
  if (a.original < 16 || !(a.fraction > 0 && a.fraction <= 1) || a.reps < 1) {
    throw std::invalid_argument(std::string("want BYTES >= 16, 0 < F <= 1, N >= 1; ") + kUsage);
  }
  return a;
}

// Device bytes (not gcbench::cuda::DeviceBuffer, whose accounting needs the library), written
// once so that no timed copy lands on pages the device has not backed yet.
struct CudaFree {
  void operator()(u8* p) const { cudaFree(p); }
};
using DeviceBytes = std::unique_ptr<u8, CudaFree>;

DeviceBytes device_bytes(u64 n) {
  u8* p = nullptr;
  GCB_CUDA(cudaMalloc(&p, n));
  DeviceBytes owned(p);
  GCB_CUDA(cudaMemset(p, 0x5A, n));
  return owned;
}

// Section 3's codec: one word written, so the call keeps its place in the slot's order.
__global__ void touch_kernel(unsigned* out) {
  *out = 1;
}

// Section 4's codec: the chunk's original bytes read from `in` and written to `out`, a decoder's
// memory traffic (16-byte vectors; a tail under 16 bytes is left, which no timing sees).
__global__ void copy_kernel(const uint4* __restrict__ in, uint4* __restrict__ out, u64 vectors) {
  for (u64 i = u64{blockIdx.x} * kThreads + threadIdx.x; i < vectors;
       i += u64{gridDim.x} * kThreads)
    out[i] = in[i];
}

// Section 6's load: each thread follows `steps` dependent reads through `next` (a random cycle),
// so the SMs keep as many reads in flight as they hold threads.
__global__ void chase_kernel(const unsigned* __restrict__ next, unsigned steps, unsigned* sink) {
  unsigned i = blockIdx.x * kThreads + threadIdx.x;
  for (unsigned s = 0; s < steps; ++s) i = next[i];
  if (i == ~0u) *sink = i;  // never: keeps the reads
}

struct Times {
  double median_ms, min_ms;
};

// `run` once to warm up, then `reps` times: one row of times (ms) per timed run.
template <typename Run>
auto repeat(int reps, Run run) {
  run();
  std::vector<decltype(run())> rows;
  for (int r = 0; r < reps; ++r) rows.push_back(run());
  return rows;
}

template <typename Row>
Times summarize(const std::vector<Row>& rows, std::size_t column) {
  std::vector<double> ms;
  for (const Row& row : rows) ms.push_back(row[column]);
  std::sort(ms.begin(), ms.end());
  return {ms[ms.size() / 2], ms.front()};
}

double gbps(u64 bytes, double ms) {
  return bytes / ms / 1e6;
}

double elapsed_ms(const Event& begin, const Event& end) {
  return gcbench::cuda::elapsed_s(begin, end) * 1e3;
}

// `bytes` in one copy (chunk 0) or in one copy per `chunk` bytes, back to back on `s`.
void copy_chunks(u8* dst, const u8* src, u64 bytes, u64 chunk, cudaMemcpyKind kind,
                 cudaStream_t s) {
  if (chunk == 0) chunk = bytes;
  for (u64 at = 0; at < bytes; at += chunk)
    GCB_CUDA(cudaMemcpyAsync(dst + at, src + at, std::min(chunk, bytes - at), kind, s));
}

void print_rate(const char* what, u64 bytes, Times t) {
  std::printf("%-24s median %8.3f ms %6.2f GB/s | min %8.3f ms %6.2f GB/s\n", what, t.median_ms,
              gbps(bytes, t.median_ms), t.min_ms, gbps(bytes, t.min_ms));
}

// Section 1; returns H2D alone's median rate over the whole original size, the reference.
double one_direction(u64 original, u8* host, u8* device, int reps) {
  std::printf("== 1) one direction alone, %" PRIu64 " bytes (median and min of %d)\n", original,
              reps);
  Stream s;
  Event begin, end;
  double reference = 0;
  for (const u64 chunk : {u64{0}, 4 * kMiB, 8 * kMiB, 16 * kMiB, 32 * kMiB}) {
    const u64 count = chunk == 0 ? 1 : (original + chunk - 1) / chunk;
    for (const cudaMemcpyKind kind : {cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost}) {
      const bool up = kind == cudaMemcpyHostToDevice;
      const auto rows = repeat(reps, [&] {
        begin.record(s.get());
        copy_chunks(up ? device : host, up ? host : device, original, chunk, kind, s.get());
        end.record(s.get());
        return std::array{elapsed_ms(begin, end)};
      });
      const Times t = summarize(rows, 0);
      char what[64];
      std::snprintf(what, sizeof what, "%s %s x %" PRIu64, up ? "H2D" : "D2H",
                    chunk == 0 ? "whole" : (std::to_string(chunk / kMiB) + " MiB").c_str(), count);
      print_rate(what, original, t);
      if (up && chunk == 0) reference = gbps(original, t.median_ms);
    }
  }
  return reference;
}

// H2D of `up_bytes` and D2H of `down_bytes` queued behind one start event on two streams.
struct BothWays {
  BothWays(u64 up, u64 down, u8* h_in, u8* h_out, u8* d_in, u8* d_out)
      : up_bytes(up),
        down_bytes(down),
        host_in(h_in),
        host_out(h_out),
        dev_in(d_in),
        dev_out(d_out) {}

  u64 up_bytes, down_bytes;
  u8 *host_in, *host_out, *dev_in, *dev_out;
  Stream a, b;
  Event start, up_end, down_end;

  void queue() {
    start.record(a.get());
    GCB_CUDA(cudaStreamWaitEvent(b.get(), start.get(), 0));
    GCB_CUDA(cudaMemcpyAsync(dev_in, host_in, up_bytes, cudaMemcpyHostToDevice, a.get()));
    up_end.record(a.get());
    GCB_CUDA(cudaMemcpyAsync(host_out, dev_out, down_bytes, cudaMemcpyDeviceToHost, b.get()));
    down_end.record(b.get());
  }
  // Once both are done: each direction's time (ms) from the start.
  std::array<double, 2> times() const {
    return {elapsed_ms(start, up_end), elapsed_ms(start, down_end)};
  }
};

// Section 2: both directions at once; each one's time from their start, and the call's (the
// later end).
void both_directions(u64 up_bytes, u64 down_bytes, u8* host_in, u8* host_out, u8* dev_in,
                     u8* dev_out, int reps, double reference) {
  BothWays io(up_bytes, down_bytes, host_in, host_out, dev_in, dev_out);
  const auto rows = repeat(reps, [&] {
    io.queue();
    const auto [up, down] = io.times();
    return std::array{up, down, std::max(up, down)};
  });
  std::printf("H2D %" PRIu64 " B + D2H %" PRIu64 " B at once:\n", up_bytes, down_bytes);
  print_rate("  H2D while D2H runs", up_bytes, summarize(rows, 0));
  print_rate("  D2H while H2D runs", down_bytes, summarize(rows, 1));
  const Times call = summarize(rows, 2);
  std::printf(
      "  call: median %8.3f ms, min %8.3f ms; D2H bytes / median call: %5.1f%% of H2D alone\n",
      call.median_ms, call.min_ms, 100 * gbps(down_bytes, call.median_ms) / reference);
}

// A chunk's compressed bytes: the fraction of its original bytes.
u64 compressed(u64 n, double fraction) {
  return std::max<u64>(1, std::llround(n * fraction));
}

enum class Codec { kTouch, kCopy };

// One chunk in flight, as pipeline.cpp's Slot: its stream, buffers and the events (never timed)
// that order its reuse.
struct Slot {
  Stream stream;
  Event uploaded{cudaEventDisableTiming}, computed{cudaEventDisableTiming},
      downloaded{cudaEventDisableTiming};
  DeviceBytes in, out;  // a chunk each: the copy codec reads a whole chunk from `in`
};

void wait(const Stream& s, const Event& e) {
  GCB_CUDA(cudaStreamWaitEvent(s.get(), e.get(), 0));
}

// Pipeline::decompress with both sides pinned and no codec: every chunk issued at once, the
// slots' reuse ordered on the GPU. Streams and slots live across calls, as a gcbench Pipeline's
// do across the harness's timed calls (a slot's events, once recorded, stay the last chunk's).
class BarePipeline {
 public:
  BarePipeline(const Args& args, u64 chunk, int depth, Codec codec, int grid)
      : args_(args), chunk_(chunk), slots_(depth), codec_(codec), grid_(grid) {
    for (Slot& s : slots_) {
      s.in = device_bytes(chunk);
      s.out = device_bytes(chunk);
    }
  }

  // One call from `packed` (the chunks' compressed bytes one after another, as a stream's
  // containers lie) into `output`: {GPU ms (first upload to last download), wall ms}.
  std::array<double, 2> call(const u8* packed, u8* output) {
    const Clock::time_point t0 = Clock::now();
    start_.record(up_.get());
    for (u64 i = 0, at = 0; at < args_.original; ++i, at += chunk_) {
      const u64 n = std::min(chunk_, args_.original - at), p = compressed(n, args_.fraction);
      issue(slots_[i % slots_.size()], packed, p, output + at, n);
      packed += p;
    }
    end_.record(down_.get());  // the last download follows every chunk's work
    for (Slot& s : slots_) s.stream.sync();
    up_.sync();
    down_.sync();
    const double wall = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    return {elapsed_ms(start_, end_), wall};
  }

 private:
  // A chunk of `p` compressed and `n` original bytes, as Pipeline::decompress issues it.
  void issue(Slot& s, const u8* src, u64 p, u8* dst, u64 n) {
    // Still the slot's previous chunk's events (none before its first use).
    wait(up_, s.computed);
    GCB_CUDA(cudaMemcpyAsync(s.in.get(), src, p, cudaMemcpyHostToDevice, up_.get()));
    s.uploaded.record(up_.get());
    wait(s.stream, s.uploaded);
    wait(s.stream, s.downloaded);
    decode(s, n);
    s.computed.record(s.stream.get());
    wait(down_, s.computed);
    GCB_CUDA(cudaMemcpyAsync(dst, s.out.get(), n, cudaMemcpyDeviceToHost, down_.get()));
    s.downloaded.record(down_.get());
  }

  void decode(Slot& s, u64 n) {
    if (codec_ == Codec::kTouch) {
      touch_kernel<<<1, 1, 0, s.stream.get()>>>(reinterpret_cast<unsigned*>(s.out.get()));
    } else {
      copy_kernel<<<grid_, kThreads, 0, s.stream.get()>>>(
          reinterpret_cast<const uint4*>(s.in.get()), reinterpret_cast<uint4*>(s.out.get()),
          n / 16);
    }
    GCB_CUDA_LAUNCHED();
  }

  const Args args_;
  const u64 chunk_;
  std::vector<Slot> slots_;
  Stream up_, down_;
  Codec codec_;
  int grid_;
  Event start_, end_;
};

void table_header() {
  std::printf(
      "| codec | chunk MiB | chunks | depth | GPU ms median | GPU ms min | wall ms median | GB/s "
      "(GPU median) | %% of H2D (GPU) | %% of H2D (wall) | wall <= 80%% bound |\n"
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
}

// One line of a table: the % counts original bytes, as issue 65 does.
void pipeline_row(const Args& args, u64 mib, int depth, Codec codec, int grid, const u8* packed,
                  u8* output, double reference) {
  const u64 n = args.original;
  const double bound_ms = n / (kTarget * reference) / 1e6;
  const u64 count = (n + mib * kMiB - 1) / (mib * kMiB);
  BarePipeline p(args, mib * kMiB, depth, codec, grid);
  const auto rows = repeat(args.reps, [&] { return p.call(packed, output); });
  const Times g = summarize(rows, 0), w = summarize(rows, 1);
  const double rate = gbps(n, g.median_ms);
  std::printf("| %s | %" PRIu64 " | %" PRIu64
              " | %d | %.3f | %.3f | %.3f | %.2f | %.1f | %.1f | %s |\n",
              codec == Codec::kTouch ? "none (1 word)" : "D2D copy", mib, count, depth, g.median_ms,
              g.min_ms, w.median_ms, rate, 100 * rate / reference,
              100 * gbps(n, w.median_ms) / reference, w.median_ms <= bound_ms ? "yes" : "no");
}

// Sections 3 and 4: a line per codec, chunk size and depth.
void pipelines(const Args& args, const u8* packed, u8* output, int grid, double reference) {
  std::printf(
      "== 3) and 4) the pipeline's order, no codec (median and min of %d): %" PRIu64
      " bytes, compressed fraction %.3f; H2D alone %.2f GB/s (whole, median): 80%% is a call "
      "<= %.3f ms\n",
      args.reps, args.original, args.fraction, reference,
      args.original / (kTarget * reference) / 1e6);
  table_header();
  for (const Codec codec : {Codec::kTouch, Codec::kCopy}) {
    for (const u64 mib : {4, 8, 16, 32}) {
      for (const int depth : {2, 4, 8}) {
        pipeline_row(args, mib, depth, codec, grid, packed, output, reference);
      }
    }
  }
}

// Section 5: the input malloc'ed and registered, as the driver registers the stream it decodes.
void registered_pipelines(const Args& args, u8* output, int grid, double reference) {
  const u64 n = args.original;
  const std::unique_ptr<u8[]> packed(new u8[n]);
  std::memset(packed.get(), 0x5A, n);
  const gcbench::cuda::HostRegistration registered(packed.get(), n);
  std::printf("== 5) as 3), the input malloc'ed and registered (cudaHostRegister)\n");
  table_header();
  for (const u64 mib : {4, 8, 16, 32}) {
    pipeline_row(args, mib, 4, Codec::kTouch, grid, packed.get(), output, reference);
  }
}

// Section 6: section 2's transfers queued behind one start event, with chase_kernel started on
// a third stream just before and running past both.
constexpr double kChaseMs = 4;  // about twice the transfers at once
void transfers_beside_reads(u64 up_bytes, u64 down_bytes, u8* host_in, u8* host_out, u8* dev_in,
                            u8* dev_out, int grid, int reps) {
  BothWays io(up_bytes, down_bytes, host_in, host_out, dev_in, dev_out);
  Stream k;
  Event k_begin, k_end;
  DeviceBytes sink = device_bytes(sizeof(unsigned));
  std::printf("== 6) as 2), H2D %" PRIu64 " B + D2H %" PRIu64
              " B, beside a kernel of dependent random reads (median and min of %d)\n",
              up_bytes, down_bytes, reps);
  for (const u64 table_mib : {16, 256}) {
    const u64 entries = table_mib * kMiB / sizeof(unsigned);
    // A random cycle over the table (Sattolo's shuffle), so no thread's chain stops early.
    std::vector<unsigned> next(entries);
    for (u64 i = 0; i < entries; ++i) next[i] = static_cast<unsigned>(i);
    u64 rng = 0x9E3779B97F4A7C15ull;
    for (u64 i = entries - 1; i > 0; --i) {
      rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
      std::swap(next[i], next[rng % i]);
    }
    DeviceBytes table = device_bytes(entries * sizeof(unsigned));
    GCB_CUDA(
        cudaMemcpy(table.get(), next.data(), entries * sizeof(unsigned), cudaMemcpyHostToDevice));
    const auto* chain = reinterpret_cast<const unsigned*>(table.get());
    auto* out = reinterpret_cast<unsigned*>(sink.get());
    auto chase = [&](unsigned steps) {
      k_begin.record(k.get());
      chase_kernel<<<grid, kThreads, 0, k.get()>>>(chain, steps, out);
      GCB_CUDA_LAUNCHED();
      k_end.record(k.get());
    };
    // Steps for a kernel of kChaseMs, from a short run's time.
    constexpr unsigned kTrialSteps = 64;
    chase(kTrialSteps);
    const auto steps = static_cast<unsigned>(
        std::max<double>(kTrialSteps, kTrialSteps * kChaseMs / elapsed_ms(k_begin, k_end)));
    const auto rows = repeat(reps, [&] {
      chase(steps);
      io.queue();
      k.sync();
      const auto [up, down] = io.times();
      // The transfers count only if the kernel outlasted them.
      const double kernel_left = elapsed_ms(io.start, k_end) - std::max(up, down);
      return std::array{up, down, kernel_left};
    });
    std::printf("table %" PRIu64
                " MiB, %d blocks of %d threads, %u reads each; kernel ran on "
                "%.3f ms (median) after the later transfer:\n",
                table_mib, grid, kThreads, steps, summarize(rows, 2).median_ms);
    print_rate("  H2D beside the reads", up_bytes, summarize(rows, 0));
    print_rate("  D2H beside the reads", down_bytes, summarize(rows, 1));
  }
}

void run(const Args& args) {
  int device = 0, sms = 0;
  GCB_CUDA(cudaGetDevice(&device));
  GCB_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  cudaDeviceProp prop;
  GCB_CUDA(cudaGetDeviceProperties(&prop, device));
  std::printf("%s, %d SMs, PCI %04x:%02x:%02x; pinned host memory, GB/s = 1e9 bytes/s\n", prop.name,
              sms, prop.pciDomainID, prop.pciBusID, prop.pciDeviceID);
  const u64 n = args.original;
  const u64 packed = compressed(n, args.fraction);
  PinnedBuffer host_in(n), host_out(n);
  std::memset(host_in.data(), 0x5A, n);
  std::memset(host_out.data(), 0xA5, n);
  const DeviceBytes dev_a = device_bytes(n), dev_b = device_bytes(n);
  const double reference = one_direction(n, host_in.data(), dev_a.get(), args.reps);
  std::printf("== 2) both directions at once (median and min of %d)\n", args.reps);
  both_directions(packed, n, host_in.data(), host_out.data(), dev_a.get(), dev_b.get(), args.reps,
                  reference);
  both_directions(n, n, host_in.data(), host_out.data(), dev_a.get(), dev_b.get(), args.reps,
                  reference);
  // The copy codec's grid: 4 blocks an SM, floor_probe's smallest, enough for a plain copy.
  pipelines(args, host_in.data(), host_out.data(), sms * 4, reference);
  registered_pipelines(args, host_out.data(), sms * 4, reference);
  // Eight blocks of kThreads an SM: every thread slot resident, as resolve_kernel's grid is.
  transfers_beside_reads(packed, n, host_in.data(), host_out.data(), dev_a.get(), dev_b.get(),
                         sms * 8, args.reps);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    run(parse(argc, argv));
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "link_probe: %s\n", e.what());
    return dynamic_cast<const std::invalid_argument*>(&e) ? 2 : 1;
  }
}
