#include "bench/driver/device_cells.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "bench/driver/device_compare.hpp"
#include "bench/driver/device_fit.hpp"
#include "bench/driver/execute.hpp"
#include "bench/driver/harness.hpp"
#include "bench/driver/l2_flush.hpp"
#include "bench/driver/pipeline_timeline.hpp"
#include "bench/driver/verify.hpp"
#include "codecs/common/crc32.cuh"
#include "gcbench/device_codec.hpp"
#include "gcbench/errors.hpp"
#include "gcbench/stream.hpp"
#include "src/cuda/device_buffer.hpp"
#include "src/cuda/device_memory.hpp"
#include "src/gpu/pipeline.hpp"
#include "src/results/counters.hpp"

namespace gcbench::driver {

using u8 = std::uint8_t;
using u64 = std::uint64_t;

struct DeviceCellState {
  cuda::Stream stream;
  cuda::Event start, stop;
  cuda::DeviceBuffer<u8> in, out, temp;
  cuda::DeviceBuffer<u64> size{1};
  cuda::DeviceBuffer<DeviceStatus> status{1};
  BoundDeviceCodecPtr codec;  // the cell's device codec, bound once at set-up
  DecodePlan plan;
  std::function<void()> call;  // one device API call, enqueued on `stream`
  double e2e_s = 0, e2e_pageable_s = 0;
  double e2e_timed_s = 0;  // this repetition's end-to-end runs, both paths (the harness share)
  // The verified pipeline stream: what the end-to-end compression must write, or decode.
  std::shared_ptr<const Bytes> e2e_stream;
  // The thesis's split of a call (T3): the copies in and out of the device call's buffers,
  // pinned, one after the other, no overlap.
  double transfer_s = 0;
  u64 kernel_calls = 0;
  // The container the cell compressed to, or decompressed from.
  u64 compressed_bytes = 0;
  std::vector<std::pair<std::string, double>> codec_counters;  // CodecInfo::container_counters
  // Every timed call's output is compared with the verified one through its CRC-32, taken on
  // the GPU after the call's stop event (outside the timed region); before the call, sentinels
  // are planted in it (output_guard.hpp), so that no call passes on an earlier call's bytes.
  // c.out holds out_capacity bytes for the codec and kGuardBytes guard bytes after them.
  u64 out_capacity = 0;
  Sentinels sentinels;
  std::array<u8, kGuardBytes> guard{};
  cuda::DeviceBuffer<u8> check_temp;
  cuda::DeviceBuffer<std::uint32_t> check_crc{1};
  u64 check_bytes = 0;  // of output: the verified size
  std::uint32_t verified_crc = 0;
  bool check_size = false;  // compression: the written size must match too
  // Compression by a codec whose containers vary from call to call (CodecInfo::reproducible):
  // a timed output other than the verified one is decoded on the device instead, outside the
  // timed region, and must give the input back; counted in varied_outputs.
  std::function<std::optional<std::string>()> decode_varied_output;
  u64 varied_outputs = 0;
  // The codec's reference primitive (CodecInfo::reference_primitive), checked at set-up: its
  // call on the compression buffers, and its mean time once measured.
  std::function<void()> primitive_call;
  std::optional<double> primitive_s;
  // Device memory (memory_device_bytes): the device call's operands (input, output capacity,
  // temp, size or status word) and what the codec allocated itself since it was bound, above
  // own_base, the codec bytes live before (src/cuda/device_memory.hpp).
  u64 operand_bytes = 0;
  u64 own_base = 0;
};

struct ResidentInput {
  std::size_t index = 0;  // into the run's inputs
  cuda::DeviceBuffer<u8> bytes;
  std::uint32_t crc = 0;  // of the bytes uploaded: a codec that writes into its input is caught
};

namespace {

using Clock = std::chrono::steady_clock;

// Median wall seconds of `fn`: runs until 0.2 s are spent (at least 1, at most 20), as Google
// Benchmark's own loop reports one iteration of a call longer than its min time. `timed_s`
// adds the seconds of every run.
double median(std::vector<double> times) {
  std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
  return times[times.size() / 2];
}

double median_wall_s(const std::function<void()>& fn, double& timed_s) {
  std::vector<double> times;
  double total = 0;
  while (times.empty() || (total < 0.2 && times.size() < 20)) {
    const auto t0 = Clock::now();
    fn();
    const double t = std::chrono::duration<double>(Clock::now() - t0).count();
    times.push_back(t);
    total += t;
  }
  timed_s += total;
  return median(std::move(times));
}

// Compression and decompression cells of one point and input share it (only their direction
// differs).
std::string stream_key(const CellSpec& cell) {
  std::string k = cell.codec->info().name + "/" + std::to_string(cell.input);
  for (const auto& [axis, value] : cell.params) k += "/" + axis + ":" + std::to_string(value);
  return k;
}

// --pipeline-timeline: after a path's timed calls (their output checked), one more call with a
// timeline, written out, its output checked by `check` as theirs was; nullopt without the flag.
template <typename Call, typename Check>
std::optional<std::string> timeline_call(const PipelineSettings& settings, const CellSpec& cell,
                                         const char* path, u64 input_bytes, gpu::Pipeline& pipeline,
                                         Call call, Check check) {
  if (!settings.timeline_dir) return std::nullopt;
  gpu::PipelineTimeline timeline;
  pipeline.record_timeline(&timeline);
  call();
  pipeline.record_timeline(nullptr);
  write_timeline(*settings.timeline_dir, cell.name, path, input_bytes, timeline);
  return check();
}

gpu::PipelineOptions pipeline_options(const PipelineSettings& s, const CodecInfo& info) {
  gpu::PipelineOptions o;
  if (s.chunk_bytes != 0) {
    o.chunk_bytes = s.chunk_bytes;
  } else if (info.pipeline_chunk_bytes != 0) {
    o.chunk_bytes = info.pipeline_chunk_bytes;
  }
  o.depth = s.depth;
  o.gpu_memory_limit = s.gpu_memory_limit;
  return o;
}

// nullopt when `need` bytes of buffers fit in the device memory free now; else the skipped
// reason (device_fit.hpp).
std::optional<std::string> device_memory_shortfall(u64 need) {
  std::size_t free = 0, total = 0;
  GCB_CUDA(cudaMemGetInfo(&free, &total));
  return device_shortfall(need, free);
}

void upload(cuda::DeviceBuffer<u8>& d, ByteSpan host, cudaStream_t s) {
  d.resize(host.size());
  GCB_CUDA(cudaMemcpyAsync(d.data(), host.data(), host.size(), cudaMemcpyHostToDevice, s));
  GCB_CUDA(cudaStreamSynchronize(s));
}

// What a cell reports of its container; the bytes themselves stay in the workspace's cache.
void note_container(DeviceCellState& c, const CodecInfo& info, ByteSpan container) {
  c.compressed_bytes = container.size();
  if (info.container_counters) c.codec_counters = info.container_counters(container);
}

// Pageable memory that only the bytes written make resident (no zero fill).
std::unique_ptr<u8[]> pageable_buffer(u64 bytes) {
  return std::make_unique_for_overwrite<u8[]>(std::max<u64>(bytes, 1));
}

// A path's output (its first run's and its last timed run's) compared with the verified one.
std::optional<std::string> check_timed_output(ByteSpan output, ByteSpan verified,
                                              const char* path) {
  return describe_difference(
      output, verified, std::string("timed end-to-end output (") + path + ")", "the verified one");
}

// c.out for `capacity` bytes of output and the guard after them, all of it kGuardByte.
void size_output(DeviceCellState& c, u64 capacity) {
  c.out_capacity = capacity;
  c.out.resize(capacity + kGuardBytes);
  GCB_CUDA(cudaMemsetAsync(c.out.data(), kGuardByte, c.out.bytes(), c.stream.get()));
}

// The CRC-32 of the output of the call just enqueued, (compression) the size it wrote, and
// whether the guard after the output's capacity is intact.
struct OutputCheck {
  std::uint32_t crc = 0;
  u64 size = 0;
  bool guard_intact = true;
};

OutputCheck output_crc(DeviceCellState& c) {
  const cudaStream_t s = c.stream.get();
  cuda::crc32_async(c.out.data(), c.check_bytes, c.check_temp.data(), c.check_temp.bytes(),
                    {c.check_crc.data()}, s);
  OutputCheck found{0, c.check_bytes, true};
  GCB_CUDA(
      cudaMemcpyAsync(&found.crc, c.check_crc.data(), sizeof found.crc, cudaMemcpyDeviceToHost, s));
  if (c.check_size) {
    GCB_CUDA(
        cudaMemcpyAsync(&found.size, c.size.data(), sizeof found.size, cudaMemcpyDeviceToHost, s));
  }
  GCB_CUDA(cudaMemcpyAsync(c.guard.data(), c.out.data() + c.out_capacity, kGuardBytes,
                           cudaMemcpyDeviceToHost, s));
  GCB_CUDA(cudaStreamSynchronize(s));
  found.guard_intact =
      std::all_of(c.guard.begin(), c.guard.end(), [](u8 b) { return b == kGuardByte; });
  return found;
}

// Called once the verified output of the device call is in c.out.
void arm_output_check(DeviceCellState& c, u64 output_bytes, bool check_size) {
  c.check_bytes = output_bytes;
  c.check_size = check_size;
  c.check_temp.resize(cuda::crc32_temp_bytes(output_bytes));
  c.verified_crc = output_crc(c).crc;
}

std::optional<std::string> check_iteration(DeviceCellState& c, u64 iteration) {
  const auto [crc, size, guard_intact] = output_crc(c);
  if (!guard_intact) {
    return fmt::format("timed call {} wrote past its output buffer of {} bytes", iteration,
                       c.out_capacity);
  }
  if ((size != c.check_bytes || crc != c.verified_crc) && c.decode_varied_output) {
    ++c.varied_outputs;
    return c.decode_varied_output();
  }
  if (size != c.check_bytes) {
    return fmt::format("timed call {} wrote {} bytes, the verified one {}", iteration, size,
                       c.check_bytes);
  }
  if (crc != c.verified_crc) {
    return fmt::format(
        "timed call {}: output differs from the verified one (CRC-32 {:08x}, "
        "verified {:08x})",
        iteration, crc, c.verified_crc);
  }
  return std::nullopt;
}

// Median seconds (CUDA events) of a pinned host-to-device copy of `in` bytes to `device_in`
// followed by a device-to-host copy of `out` bytes from c.out: the transfers a call of the
// device API needs, without the pipeline's overlap.
double time_transfers(DeviceCellState& c, const u8* pinned_in, u64 in, void* device_in,
                      u8* pinned_out, u64 out) {
  const cudaStream_t s = c.stream.get();
  std::vector<double> times;
  for (int run = 0; run < 5; ++run) {
    c.start.record(s);
    GCB_CUDA(cudaMemcpyAsync(device_in, pinned_in, in, cudaMemcpyHostToDevice, s));
    GCB_CUDA(cudaMemcpyAsync(pinned_out, c.out.data(), out, cudaMemcpyDeviceToHost, s));
    c.stop.record(s);
    times.push_back(cuda::elapsed_s(c.start, c.stop));
  }
  return median(std::move(times));
}

// How `size` bytes at `output` differ from `expected_size` bytes at `expected`, both on the
// device, in describe_difference's words: "<what> at byte N (sizes a vs b)", N the first
// differing byte or the shorter size; nullopt when they are equal.
std::optional<std::string> device_difference(const char* what, const u8* output, u64 size,
                                             const u8* expected, u64 expected_size,
                                             cudaStream_t s) {
  const std::optional<u64> at = size != expected_size
                                    ? std::min(size, expected_size)
                                    : first_device_difference(output, expected, size, s);
  if (!at) return std::nullopt;
  return fmt::format("{} at byte {} (sizes {} vs {})", what, *at, size, expected_size);
}

constexpr const char* kDiffersFromInput = "decompressed output differs from the input";

// The round trip of the container the device call wrote (still in c.out): decoded on the
// device and compared there with the resident input, no copy of either to the host.
std::optional<std::string> device_round_trip(DeviceCellState& c, const BoundDeviceCodec& dev,
                                             ByteSpan container, const u8* device_input,
                                             u64 input_size) {
  const cudaStream_t s = c.stream.get();
  const DecodePlan plan = dev.plan_decompress(container);
  cuda::DeviceBuffer<u8> out(plan.original_size), temp(plan.temp_bytes);
  dev.decompress_async(plan, {c.out.data(), temp.data(), temp.bytes(), out.data(), c.status.data()},
                       s);
  DeviceStatus status;
  GCB_CUDA(cudaMemcpyAsync(&status, c.status.data(), sizeof status, cudaMemcpyDeviceToHost, s));
  GCB_CUDA(cudaStreamSynchronize(s));
  if (status.error != kDeviceOk) return "device decoder: " + dev.codec().describe(status);
  return device_difference(kDiffersFromInput, out.data(), plan.original_size, device_input,
                           input_size, s);
}

// Times a compression cell's end-to-end paths into c.e2e_pageable_s and c.e2e_s, checked
// against c.e2e_stream; nullopt or the error. Set-up's run (`first`) also writes the timeline
// and times the bare transfers; each later repetition times the paths again, with pipelines
// and buffers of its own, so that every repetition's e2e_s is a measurement of its own (as
// --compare's test over them assumes). Host memory: one end-to-end output at a time, of the
// stream's size (pageable, then pinned), and a pinned copy of the input.
std::optional<std::string> time_compress_paths(DeviceCellState& c, const CellSpec& cell,
                                               ByteSpan input, const PipelineSettings& settings,
                                               bool first) {
  const BoundDeviceCodec& dev = *c.codec;
  const Bytes& stream = *c.e2e_stream;
  // Each path with a pipeline of its own (the pinned path needs no staging) and an output of
  // the stream's size, one path at a time; a first untimed run allocates and is checked.
  auto timed = [&](ByteSpan source, std::span<u8> out, double& seconds, const char* path) {
    gpu::Pipeline pipeline(dev, pipeline_options(settings, cell.codec->info()));
    // A codec whose containers vary (CodecInfo::reproducible): the output decoded instead.
    auto check = [&](ByteSpan output) {
      if (cell.codec->info().reproducible) return check_timed_output(output, stream, path);
      return describe_difference(pipeline.decompress(output), input,
                                 std::string("timed end-to-end output (") + path + "), decoded",
                                 "the input");
    };
    u64 size = pipeline.compress(source, out);
    if (auto diff = check(out.first(size))) return diff;
    seconds = median_wall_s([&] { size = pipeline.compress(source, out); }, c.e2e_timed_s);
    if (auto diff = check(out.first(size))) return diff;
    if (!first) return std::optional<std::string>();
    return timeline_call(
        settings, cell, path, source.size(), pipeline,
        [&] { size = pipeline.compress(source, out); }, [&] { return check(out.first(size)); });
  };
  const u64 m = stream.size();
  {
    const auto out = pageable_buffer(m);
    if (auto diff = timed(input, {out.get(), m}, c.e2e_pageable_s, "pageable")) return diff;
  }
  {
    // The pinned path's source: a pinned copy of the input, which is read-only memory (a
    // file's mapping, or bytes the workspace protects), and CUDA neither registers read-only
    // pages by default nor did so reliably as read-only (bench/NOTES.md, "Mapped inputs and
    // pinned memory").
    cuda::PinnedBuffer copy(input.size());
    std::copy(input.begin(), input.end(), copy.data());
    const ByteSpan pinned_input{copy.data(), input.size()};
    const cuda::PinnedBuffer out(m);
    if (auto diff = timed(pinned_input, {out.data(), m}, c.e2e_s, "pinned")) return diff;
    if (!first) return std::nullopt;
    // The input into a scratch buffer (the resident one serves the cells that follow); the
    // container (its bytes up to the stream's size, which holds it unless chunking shrank it)
    // out.
    cuda::DeviceBuffer<u8> scratch(input.size());
    c.transfer_s = time_transfers(c, pinned_input.data(), input.size(), scratch.data(), out.data(),
                                  std::min(c.compressed_bytes, m));
  }
  return std::nullopt;
}

// Sets up and verifies a compression cell and, end to end, its pipeline's stream, whose paths
// it times once (time_compress_paths); nullopt or the error.
std::optional<std::string> setup_compress(DeviceCellState& c, const CellSpec& cell,
                                          Workspace& workspace, ByteSpan input,
                                          const u8* device_input, const PipelineSettings& settings,
                                          LastStream& last) {
  const BoundDeviceCodec& dev = *c.codec;
  const cudaStream_t s = c.stream.get();
  size_output(c, dev.max_compressed_size(input.size()));  // no stale bytes pass
  c.temp.resize(dev.compress_temp_bytes(input.size()));
  const CompressBuffers buffers{device_input,   input.size(), c.temp.data(),
                                c.temp.bytes(), c.out.data(), c.size.data()};
  c.call = [&c, &dev, buffers] {
    const cuda::device_memory::CodecScope codec;
    dev.compress_async(buffers, c.stream.get());
  };
  c.operand_bytes = input.size() + c.out_capacity + c.temp.bytes() + c.size.bytes();
  // The device API's own output, checked once: equal to the CPU reference, and it round-trips.
  c.call();
  u64 written = 0;
  GCB_CUDA(cudaMemcpyAsync(&written, c.size.data(), sizeof written, cudaMemcpyDeviceToHost, s));
  GCB_CUDA(cudaStreamSynchronize(s));
  if (written > c.out_capacity) return "device compression wrote past its bound";
  // With a CPU reference the host holds one copy of the container, the reference's, compared
  // with the device's output on the device (a 1 GiB input's RLE container is up to 2 GiB);
  // without one, the device's output is copied back.
  const Bytes* reference = nullptr;
  Bytes own;
  if (cell.reference != nullptr) {
    reference =
        &workspace.container(*cell.reference, reference_params(*cell.reference, cell.params));
    // Compared on the device, the reference uploaded.
    cuda::DeviceBuffer<u8> expected(reference->size());
    GCB_CUDA(cudaMemcpyAsync(expected.data(), reference->data(), reference->size(),
                             cudaMemcpyHostToDevice, s));
    if (auto problem =
            device_difference("GPU container differs from the CPU reference's container",
                              c.out.data(), written, expected.data(), expected.size(), s)) {
      return problem;
    }
  } else {
    workspace.make_room(written);  // it is kept below
    own.resize(written);
    GCB_CUDA(cudaMemcpy(own.data(), c.out.data(), written, cudaMemcpyDeviceToHost));
  }
  const Bytes& container = reference != nullptr ? *reference : own;
  if (auto problem = device_round_trip(c, dev, container, device_input, input.size())) {
    return problem;
  }
  note_container(c, cell.codec->info(), container);
  arm_output_check(c, written, true);
  if (!cell.codec->info().reference_primitive.empty()) {
    dev.primitive_async(buffers, s);
    if (auto problem = dev.check_primitive(buffers, input, s)) {
      return "reference primitive " + cell.codec->info().reference_primitive + ": " + *problem;
    }
    c.primitive_call = [&c, &dev, buffers] { dev.primitive_async(buffers, c.stream.get()); };
  }
  if (!cell.codec->info().reproducible) {
    c.decode_varied_output = [&c, &dev, device_input, n = input.size()] {
      u64 size = 0;
      GCB_CUDA(cudaMemcpyAsync(&size, c.size.data(), sizeof size, cudaMemcpyDeviceToHost,
                               c.stream.get()));
      GCB_CUDA(cudaStreamSynchronize(c.stream.get()));
      if (size > c.out_capacity)
        return std::optional<std::string>("device compression wrote past its bound");
      Bytes varied(size);
      GCB_CUDA(cudaMemcpy(varied.data(), c.out.data(), size, cudaMemcpyDeviceToHost));
      return device_round_trip(c, dev, varied, device_input, n);
    };
  }
  // Verified: the decompression cell of this point takes it instead of compressing again.
  if (reference != nullptr) {
    workspace.remember_same(*cell.codec, cell.params, *reference);
  } else {
    workspace.remember(*cell.codec, cell.params, std::move(own), true);
  }

  last = {};
  if (!settings.end_to_end) return std::nullopt;
  {
    gpu::Pipeline pipeline(dev, pipeline_options(settings, cell.codec->info()));
    Bytes stream = pipeline.compress(input);
    if (auto diff = describe_difference(pipeline.decompress(stream), input, "end-to-end round trip",
                                        "the input")) {
      return diff;
    }
    c.e2e_stream = std::make_shared<const Bytes>(std::move(stream));
  }
  if (auto problem = time_compress_paths(c, cell, input, settings, true)) return problem;
  last = LastStream{stream_key(cell), c.e2e_stream};
  return std::nullopt;
}

// Times a decompression cell's end-to-end paths into c.e2e_pageable_s and c.e2e_s, decoding
// c.e2e_stream; nullopt or the error. `first` as for time_compress_paths.
std::optional<std::string> time_decompress_paths(DeviceCellState& c, const CellSpec& cell,
                                                 ByteSpan input, const PipelineSettings& settings,
                                                 bool first) {
  const BoundDeviceCodec& dev = *c.codec;
  const Bytes& stream = *c.e2e_stream;
  const u64 n = input.size();
  // Each path with a pipeline of its own, one path at a time; a first untimed run allocates
  // and is checked.
  auto timed = [&](std::span<u8> out, double& seconds, const char* path) {
    gpu::Pipeline pipeline(dev, pipeline_options(settings, cell.codec->info()));
    pipeline.decompress(stream, out);
    if (auto diff = describe_difference(out, input, "end-to-end decompression", "the input")) {
      return diff;
    }
    seconds = median_wall_s([&] { pipeline.decompress(stream, out); }, c.e2e_timed_s);
    if (auto diff = check_timed_output(out, input, path)) return diff;
    if (!first) return std::optional<std::string>();
    return timeline_call(
        settings, cell, path, n, pipeline, [&] { pipeline.decompress(stream, out); },
        [&] { return check_timed_output(out, input, path); });
  };
  {
    const auto out = pageable_buffer(n);
    if (auto diff = timed({out.get(), n}, c.e2e_pageable_s, "pageable")) return diff;
  }
  const cuda::HostRegistration pinned_stream(stream.data(), stream.size());
  const cuda::PinnedBuffer out(n);
  if (auto diff = timed({out.data(), n}, c.e2e_s, "pinned")) return diff;
  if (!first) return std::nullopt;
  // The container's bytes in (from the pinned stream, into a scratch buffer: c.in must keep
  // the container), the output out.
  const u64 in = std::min(c.compressed_bytes, stream.size());
  cuda::DeviceBuffer<u8> scratch(in);
  c.transfer_s = time_transfers(c, stream.data(), in, scratch.data(), out.data(), n);
  return std::nullopt;
}

std::optional<std::string> setup_decompress(DeviceCellState& c, const CellSpec& cell,
                                            Workspace& workspace, ByteSpan input,
                                            const u8* device_input,
                                            const PipelineSettings& settings, LastStream& last) {
  const BoundDeviceCodec& dev = *c.codec;
  const cudaStream_t s = c.stream.get();
  std::optional<std::string> shortfall;
  if (auto problem = use_checked_container(cell, workspace, [&](ByteSpan container) {
        note_container(c, cell.codec->info(), container);
        {
          const cuda::device_memory::CodecScope codec;
          c.plan = dev.plan_decompress(container);
        }
        // The resident input is in place: the container, the output and the plan's temp.
        shortfall =
            device_memory_shortfall(container.size() + c.plan.original_size + c.plan.temp_bytes);
        if (!shortfall) upload(c.in, container, s);
      })) {
    return problem;
  }
  if (shortfall) return shortfall;
  size_output(c, c.plan.original_size);  // no stale bytes pass
  c.temp.resize(c.plan.temp_bytes);
  c.operand_bytes = c.in.bytes() + c.out_capacity + c.temp.bytes() + c.status.bytes();
  c.call = [&c, &dev] {
    const cuda::device_memory::CodecScope codec;
    dev.decompress_async(
        c.plan, {c.in.data(), c.temp.data(), c.temp.bytes(), c.out.data(), c.status.data()},
        c.stream.get());
  };
  c.call();
  DeviceStatus status;
  GCB_CUDA(cudaMemcpyAsync(&status, c.status.data(), sizeof status, cudaMemcpyDeviceToHost, s));
  GCB_CUDA(cudaStreamSynchronize(s));
  if (status.error != kDeviceOk) return "device decoder: " + dev.codec().describe(status);
  if (auto diff = device_difference(kDiffersFromInput, c.out.data(), c.plan.original_size,
                                    device_input, input.size(), s)) {
    return diff;
  }
  arm_output_check(c, c.plan.original_size, false);
  if (!settings.end_to_end) return std::nullopt;

  // The compression cell's verified stream when it just ran (the usual order), else made here.
  c.e2e_stream =
      last.key == stream_key(cell)
          ? std::exchange(last, {}).stream
          : std::make_shared<const Bytes>(
                gpu::Pipeline(dev, pipeline_options(settings, cell.codec->info())).compress(input));
  return time_decompress_paths(c, cell, input, settings, true);
}

double gbps(u64 bytes, double seconds) {
  return seconds > 0 ? static_cast<double>(bytes) / seconds / 1e9 : 0;
}

}  // namespace

DeviceCells::DeviceCells(PipelineSettings settings, GpuCeilings ceilings, bool cold_l2)
    : settings_(settings),
      ceilings_(ceilings),
      l2_flush_(cold_l2 ? std::make_unique<L2Flush>() : nullptr) {}

std::optional<std::string> DeviceCells::l2_flush_context() const {
  if (!l2_flush_) return std::nullopt;
  return fmt::format(
      "yes: before every timed GPU kernel call, outside its CUDA events, a read of {} bytes "
      "(twice the L2 of {} bytes)",
      l2_flush_->flush_bytes(), l2_flush_->l2_bytes());
}

DeviceCells::~DeviceCells() = default;

namespace {

// The CRC-32 of `n` bytes of device memory. Synchronizes.
std::uint32_t device_crc(const u8* data, u64 n) {
  cuda::DeviceBuffer<u8> temp(cuda::crc32_temp_bytes(n));
  cuda::DeviceBuffer<std::uint32_t> crc(1);
  cuda::crc32_async(data, n, temp.data(), temp.bytes(), {crc.data()}, nullptr);
  std::uint32_t value = 0;
  GCB_CUDA(cudaMemcpy(&value, crc.data(), sizeof value, cudaMemcpyDeviceToHost));
  return value;
}

}  // namespace

std::optional<std::string> broken_cuda_context() {
  // A sticky error (an illegal address, a kernel's trap) stays after cudaGetLastError clears
  // the others: the context is lost, and only a new process has a working one.
  if (cudaDeviceSynchronize() == cudaSuccess) return std::nullopt;
  (void)cudaGetLastError();
  const cudaError_t again = cudaDeviceSynchronize();
  if (again == cudaSuccess) return std::nullopt;
  return std::string("the CUDA context is lost (") + cudaGetErrorString(again) + ")";
}

const u8* DeviceCells::device_input(std::size_t index, ByteSpan input) {
  if (!input_ || input_->index != index) {
    input_.reset();  // one input at a time in device memory
    auto resident = std::make_unique<ResidentInput>();
    resident->index = index;
    resident->bytes.resize(input.size());
    GCB_CUDA(
        cudaMemcpy(resident->bytes.data(), input.data(), input.size(), cudaMemcpyHostToDevice));
    resident->crc = device_crc(resident->bytes.data(), input.size());
    input_ = std::move(resident);
  }
  return input_->bytes.data();
}

std::optional<std::string> DeviceCells::resident_input_changed() {
  if (!input_ || device_crc(input_->bytes.data(), input_->bytes.bytes()) == input_->crc)
    return std::nullopt;
  input_.reset();
  return "the input's device copy changed during the cell: the codec wrote into its input";
}

void DeviceCells::run(benchmark::State& state, const CellSpec& cell, Workspace& workspace) {
  const ByteSpan input = workspace.input(cell.input);
  const bool set_up_now = current_ != cell.name || !cell_;
  if (set_up_now) {
    cell_.reset();
    current_.clear();
    auto c = std::make_unique<DeviceCellState>();
    cuda::device_memory::reset_peak();
    c->own_base = cuda::device_memory::live_bytes();
    {
      const cuda::device_memory::CodecScope codec;
      c->codec = cell.codec->device_codec()->bind(cell.params);
    }
    // Before anything is allocated, whatever the timing (the device call needs its buffers
    // either way): the input unless it is resident, and for compression the output, the temp
    // and the round trip's decoded copy. A decompression cell checks its container's needs
    // once it knows them (setup_decompress).
    if (input_ && input_->index != cell.input) input_.reset();  // one input at a time
    const u64 n = input.size();
    u64 need = input_ ? 0 : n;
    if (cell.direction == Direction::compress)
      need += c->codec->max_compressed_size(n) + c->codec->compress_temp_bytes(n) + n;
    if (auto shortfall = device_memory_shortfall(need)) {
      state.SkipWithError(shortfall->c_str());
      return;
    }
    const u8* resident = device_input(cell.input, input);
    const auto problem =
        cell.direction == Direction::compress
            ? setup_compress(*c, cell, workspace, input, resident, settings_, last_stream_)
            : setup_decompress(*c, cell, workspace, input, resident, settings_, last_stream_);
    if (problem) {
      state.SkipWithError(problem->c_str());
      return;
    }
    cell_ = std::move(c);
    current_ = cell.name;
  }
  DeviceCellState& c = *cell_;
  Sampler sampler(workspace.stopping_rule(), true);
  std::optional<double> clock_before, clock_after;
  for (auto _ : state) {
    const bool taken = take_samples(sampler, [&]() -> std::optional<double> {
      c.sentinels.draw(c.check_bytes);
      plant_sentinels_async(c.out.data(), c.sentinels, c.stream.get());
      if (l2_flush_) l2_flush_->enqueue(c.stream.get());
      c.start.record(c.stream.get());
      c.call();
      c.stop.record(c.stream.get());
      const double t = cuda::elapsed_s(c.start, c.stop);
      ++c.kernel_calls;
      // The SM clock while the cell runs: after its first timed call and after its last.
      if (sampler.samples() == 0) clock_before = sm_clock_.share_of_max();
      if (auto problem = check_iteration(c, c.kernel_calls)) {
        state.SkipWithError(problem->c_str());
        return std::nullopt;
      }
      return t;
    });
    if (!taken) return;
    clock_after = sm_clock_.share_of_max();
    if (auto problem = resident_input_changed()) {
      state.SkipWithError(problem->c_str());
      return;
    }
    state.SetIterationTime(sampler.mean_s());
    add_sampling_counters(state, sampler, std::nullopt);
  }
  if (clock_before && clock_after) {
    // The lower of the two readings: a cell that ran throttled for part of its samples.
    const double share = std::min(*clock_before, *clock_after);
    state.counters[results::counter::kSmClockPct] = benchmark::Counter(100 * share);
    state.counters[results::counter::kThrottled] =
        benchmark::Counter(share < kThrottledBelow ? 1 : 0);
  }
  // A later repetition times the end-to-end paths again: set-up timed them for the first.
  if (settings_.end_to_end && !set_up_now) {
    c.e2e_timed_s = 0;
    const auto problem = cell.direction == Direction::compress
                             ? time_compress_paths(c, cell, input, settings_, false)
                             : time_decompress_paths(c, cell, input, settings_, false);
    if (problem) {
      state.SkipWithError(problem->c_str());
      return;
    }
  }
  if (c.primitive_call && !c.primitive_s) {
    // As many calls as this run timed of the codec (5 to 200), each as the codec's were: on
    // the same resident input, the L2 flushed first when the codec's calls had it flushed.
    const u64 calls = std::clamp<u64>(sampler.samples(), 5, 200);
    double sum = 0;
    for (u64 i = 0; i < calls; ++i) {
      if (l2_flush_) l2_flush_->enqueue(c.stream.get());
      c.start.record(c.stream.get());
      c.primitive_call();
      c.stop.record(c.stream.get());
      sum += cuda::elapsed_s(c.start, c.stop);
    }
    c.primitive_s = sum / static_cast<double>(calls);
  }
  // The mean of this repetition's calls: each row describes its own repetition.
  const double kernel_s = sampler.mean_s();
  using benchmark::Counter;
  auto& k = state.counters;
  const u64 n = input.size();
  k[results::counter::kInputBytes] = Counter(static_cast<double>(n));
  k[results::counter::kCompressedBytes] = Counter(static_cast<double>(c.compressed_bytes));
  if (c.decode_varied_output)
    k[results::counter::kVariedOutputs] = Counter(static_cast<double>(c.varied_outputs));
  k[results::counter::kRatio] = Counter(
      c.compressed_bytes == 0 ? 0.0
                              : static_cast<double>(n) / static_cast<double>(c.compressed_bytes));
  k[results::counter::kVerified] = Counter(1);
  k[results::counter::kColdL2] =
      Counter(l2_flush_ ? 1 : 0);  // 0: warm, L2 not flushed between timed calls
  k[results::counter::kMemoryDeviceBytes] = Counter(static_cast<double>(
      c.operand_bytes + std::max(cuda::device_memory::peak_bytes(), c.own_base) - c.own_base));
  // The process's peak so far: the first cell where it jumps is the one that holds the most.
  k[results::counter::kPeakRssBytes] = Counter(static_cast<double>(peak_rss_bytes()));
  for (const auto& [name, value] : c.codec_counters) k[name] = Counter(value);
  k[results::counter::kKernelS] = Counter(kernel_s);
  k[results::counter::kKernelGbps] = Counter(gbps(n, kernel_s));
  if (ceilings_.copy_gbps > 0)
    k[results::counter::kPctCopy] = Counter(100 * gbps(n, kernel_s) / ceilings_.copy_gbps);
  if (c.primitive_s) {  // the bare primitive on the same input (CodecInfo::reference_primitive)
    k[results::counter::kPrimitiveS] = Counter(*c.primitive_s);
    k[results::counter::kPrimitiveGbps] = Counter(gbps(n, *c.primitive_s));
  }
  // Kernel-only (--timing kernel): no end-to-end counter at all, rather than a 0 that reads
  // as a measurement.
  if (settings_.end_to_end) {
    const gpu::PipelineOptions pipeline = pipeline_options(settings_, cell.codec->info());
    k[results::counter::kPipelineChunkBytes] = Counter(static_cast<double>(pipeline.chunk_bytes));
    k[results::counter::kPipelineDepth] = Counter(pipeline.depth);
    k[results::counter::kTransferS] = Counter(c.transfer_s);
    k[results::counter::kE2eS] = Counter(c.e2e_s);
    k[results::counter::kE2ePageableS] = Counter(c.e2e_pageable_s);
    k[results::counter::kE2eTimedS] = Counter(c.e2e_timed_s);
    k[results::counter::kE2eGbps] = Counter(gbps(n, c.e2e_s));
    k[results::counter::kE2ePageableGbps] = Counter(gbps(n, c.e2e_pageable_s));
    if (ceilings_.h2d_pinned_gbps > 0) {
      k[results::counter::kPctH2d] = Counter(100 * gbps(n, c.e2e_s) / ceilings_.h2d_pinned_gbps);
    }
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

}  // namespace gcbench::driver
