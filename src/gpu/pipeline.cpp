#include "src/gpu/pipeline.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "codecs/common/device_buffer.hpp"
#include "codecs/common/parallel.hpp"
#include "gcbench/errors.hpp"
#include "gcbench/stream.hpp"

namespace gcbench::gpu {
namespace {

using u8 = std::uint8_t;
using u64 = std::uint64_t;

constexpr u64 kMinChunk = u64{64} << 10;
constexpr u64 kCopyPiece = u64{1} << 20;  // one staging thread's share at a time

using cuda::PinnedBuffer;

bool is_pinned(const void* p) {
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return a.type == cudaMemoryTypeHost;
}

// memcpy by several threads: one core copies pageable memory at about a third of PCIe's rate.
void parallel_copy(u8* dst, const u8* src, u64 n, int threads) {
  const u64 pieces = (n + kCopyPiece - 1) / kCopyPiece;
  parallel_for(pieces, threads, [&](u64 i) {
    const u64 at = i * kCopyPiece;
    std::memcpy(dst + at, src + at, std::min(kCopyPiece, n - at));
  });
}

// One chunk in flight: its stream, device buffers and pinned staging.
struct Slot {
  cuda::Stream stream;
  cuda::Event sized, done;
  cuda::DeviceBuffer<u8> in, out, temp;
  cuda::DeviceBuffer<u64> size;
  cuda::DeviceBuffer<DeviceStatus> status;
  PinnedBuffer staged_in, staged_out;
  PinnedBuffer small;  // the output size or the status, read back
  bool busy = false;
  u64 chunk = 0;

  Slot() : size(1), status(1), small(sizeof(DeviceStatus) + sizeof(u64)) {}

  u64* host_size() const { return reinterpret_cast<u64*>(small.data()); }
  DeviceStatus* host_status() const {
    return reinterpret_cast<DeviceStatus*>(small.data() + sizeof(u64));
  }
  void ensure(cuda::DeviceBuffer<u8>& b, u64 bytes) {
    if (b.size() < bytes) b.resize(bytes);
  }
  void ensure(PinnedBuffer& b, u64 bytes) {
    if (b.bytes() < bytes) b = PinnedBuffer(bytes);
  }
};

}  // namespace

struct Pipeline::State {
  const DeviceCodec& codec;
  Params params;
  PipelineOptions options;
  u64 chunk = 0;
  std::vector<Slot> slots;

  State(const DeviceCodec& c, Params p, PipelineOptions o)
      : codec(c), params(std::move(p)), options(o), slots(std::max(o.depth, 1)) {
    chunk = std::max<u64>(options.chunk_bytes, 1);
    if (options.gpu_memory_limit > 0) {
      while (compress_slot_bytes(chunk) * slots.size() > options.gpu_memory_limit) {
        if (chunk <= kMinChunk) {
          throw ParamError("--gpu-memory-limit " + std::to_string(options.gpu_memory_limit) +
                           " is too small for " + std::to_string(slots.size()) +
                           " chunks of 64 KiB in flight");
        }
        chunk = std::max(kMinChunk, chunk / 2);
      }
    }
  }

  u64 compress_slot_bytes(u64 bytes) const {
    return bytes + codec.max_compressed_size(bytes, params) +
           codec.compress_temp_bytes(bytes, params);
  }

  u64 max_stream_size(u64 input_size) const {
    const u64 count = (input_size + chunk - 1) / chunk;
    return kStreamHeaderSize + count * codec.max_compressed_size(chunk, params);
  }

  u64 compress(ByteSpan input, std::span<u8> output) {
    if (output.size() < max_stream_size(input.size())) {
      throw std::invalid_argument("Pipeline::compress: output smaller than max_stream_size()");
    }
    const bool pinned = input.empty() || is_pinned(input.data());
    const bool pinned_out = is_pinned(output.data());
    const u64 count = (input.size() + chunk - 1) / chunk;
    const u64 capacity = codec.max_compressed_size(chunk, params);
    const Bytes header = stream_header(input.size(), chunk);
    std::copy(header.begin(), header.end(), output.begin());
    u64 written = header.size();
    for (Slot& s : slots) {
      s.ensure(s.in, chunk);
      s.ensure(s.out, capacity);
      s.ensure(s.temp, codec.compress_temp_bytes(chunk, params));
      if (!pinned) s.ensure(s.staged_in, chunk);
      if (!pinned_out) s.ensure(s.staged_out, capacity);
      s.busy = false;
    }
    // Chunks land in order, each right after the one before: its place is known once the
    // chunk before it has been sized, which is when the slot is revisited.
    u64 next_out = 0;
    auto copy_back = [&](Slot& s) {
      GCB_CUDA(cudaEventSynchronize(s.sized.get()));
      u8* dst = pinned_out ? output.data() + written : s.staged_out.data();
      GCB_CUDA(cudaMemcpyAsync(dst, s.out.data(), *s.host_size(), cudaMemcpyDeviceToHost,
                               s.stream.get()));
      s.done.record(s.stream.get());
    };
    auto collect = [&](Slot& s) {
      GCB_CUDA(cudaEventSynchronize(s.done.get()));
      const u64 n = *s.host_size();
      if (!pinned_out) parallel_copy(output.data() + written, s.staged_out.data(), n,
                                     options.staging_threads);
      written += n;
      ++next_out;
      s.busy = false;
    };
    // Chunk i: copies back the slot's previous chunk, stages chunk i, collects, starts i.
    for (u64 i = 0; i < count; ++i) {
      Slot& s = slots[i % slots.size()];
      const u64 at = i * chunk, n = std::min(chunk, input.size() - at);
      bool pending_copy_back = false;
      if (s.busy) {
        copy_back(s);  // just the previous chunk's bytes, now that its size is known
        pending_copy_back = true;
      }
      const u8* src = input.data() + at;
      if (!pinned) {  // its input buffer is free: the previous chunk's kernels are done
        parallel_copy(s.staged_in.data(), src, n, options.staging_threads);
        src = s.staged_in.data();
      }
      if (pending_copy_back) collect(s);
      GCB_CUDA(cudaMemcpyAsync(s.in.data(), src, n, cudaMemcpyHostToDevice, s.stream.get()));
      codec.compress_async({s.in.data(), n, s.temp.data(), s.temp.bytes(), s.out.data(),
                            s.size.data()},
                           params, s.stream.get());
      GCB_CUDA(cudaMemcpyAsync(s.host_size(), s.size.data(), sizeof(u64), cudaMemcpyDeviceToHost,
                               s.stream.get()));
      s.sized.record(s.stream.get());
      s.busy = true;
      s.chunk = i;
    }
    while (next_out < count) {
      Slot& s = slots[next_out % slots.size()];
      copy_back(s);
      collect(s);
    }
    return written;
  }

  void decompress(ByteSpan stream, std::span<u8> output) {
    const StreamView view = parse_stream(stream);
    if (output.size() != view.original_size) {
      throw std::invalid_argument("decompress: output holds " + std::to_string(output.size()) +
                                  " bytes, the stream " + std::to_string(view.original_size));
    }
    std::vector<DecodePlan> plans;
    u64 max_container = 0, max_temp = 0;
    for (ByteSpan c : view.containers) {
      plans.push_back(codec.plan_decompress(c, params));
      max_container = std::max<u64>(max_container, c.size());
      max_temp = std::max<u64>(max_temp, plans.back().temp_bytes);
    }
    const bool pinned_in = stream.empty() || is_pinned(stream.data());
    const bool pinned_out = output.empty() || is_pinned(output.data());
    for (Slot& s : slots) {
      s.ensure(s.in, max_container);
      s.ensure(s.out, view.chunk_bytes);
      s.ensure(s.temp, max_temp);
      if (!pinned_in) s.ensure(s.staged_in, max_container);
      if (!pinned_out) s.ensure(s.staged_out, view.chunk_bytes);
      s.busy = false;
    }
    auto finish = [&](Slot& s) {
      GCB_CUDA(cudaEventSynchronize(s.done.get()));
      const DeviceStatus st = *s.host_status();
      if (st.error != kDeviceOk) {
        throw DecodeError("chunk " + std::to_string(s.chunk) + ": " + codec.describe(st));
      }
      if (!pinned_out) {
        const u64 at = s.chunk * view.chunk_bytes;
        parallel_copy(output.data() + at, s.staged_out.data(), plans[s.chunk].original_size,
                      options.staging_threads);
      }
      s.busy = false;
    };
    for (u64 i = 0; i < plans.size(); ++i) {
      Slot& s = slots[i % slots.size()];
      if (s.busy) finish(s);
      const DecodePlan& plan = plans[i];
      const u8* src = view.containers[i].data();
      if (!pinned_in) {
        parallel_copy(s.staged_in.data(), src, plan.container_size, options.staging_threads);
        src = s.staged_in.data();
      }
      GCB_CUDA(cudaMemcpyAsync(s.in.data(), src, plan.container_size, cudaMemcpyHostToDevice,
                               s.stream.get()));
      codec.decompress_async(plan, {s.in.data(), s.temp.data(), s.temp.bytes(), s.out.data(),
                                    s.status.data()},
                             params, s.stream.get());
      u8* dst = pinned_out ? output.data() + i * view.chunk_bytes : s.staged_out.data();
      GCB_CUDA(cudaMemcpyAsync(dst, s.out.data(), plan.original_size, cudaMemcpyDeviceToHost,
                               s.stream.get()));
      GCB_CUDA(cudaMemcpyAsync(s.host_status(), s.status.data(), sizeof(DeviceStatus),
                               cudaMemcpyDeviceToHost, s.stream.get()));
      s.done.record(s.stream.get());
      s.busy = true;
      s.chunk = i;
    }
    const u64 tail = std::min<u64>(plans.size(), slots.size());
    for (u64 i = plans.size() - tail; i < plans.size(); ++i) finish(slots[i % slots.size()]);
  }
};

Pipeline::Pipeline(const DeviceCodec& codec, Params params, PipelineOptions options)
    : state_(std::make_unique<State>(codec, std::move(params), options)) {
  cuda::require_device();
}

Pipeline::~Pipeline() = default;

u64 Pipeline::compress(ByteSpan input, std::span<u8> output) {
  return state_->compress(input, output);
}

u64 Pipeline::max_stream_size(u64 input_size) const {
  return state_->max_stream_size(input_size);
}

Bytes Pipeline::compress(ByteSpan input) {
  Bytes out(max_stream_size(input.size()));
  out.resize(compress(input, out));
  return out;
}

void Pipeline::decompress(ByteSpan stream, std::span<u8> output) {
  state_->decompress(stream, output);
}

Bytes Pipeline::decompress(ByteSpan stream) {
  Bytes out(parse_stream(stream).original_size);
  decompress(stream, out);
  return out;
}

u64 Pipeline::chunk_bytes() const {
  return state_->chunk;
}

u64 Pipeline::device_bytes() const {
  u64 total = 0;
  for (const Slot& s : state_->slots) total += s.in.bytes() + s.out.bytes() + s.temp.bytes();
  return total;
}

}  // namespace gcbench::gpu
