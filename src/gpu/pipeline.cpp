#include "src/gpu/pipeline.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "src/cuda/device_buffer.hpp"
#include "gcbench/cores.hpp"
#include "gcbench/errors.hpp"
#include "gcbench/stream.hpp"

namespace gcbench::gpu {
namespace {

using u8 = std::uint8_t;
using u64 = std::uint64_t;

constexpr u64 kMinChunk = u64{64} << 10;
constexpr u64 kCopyPiece = u64{1} << 20;  // one pool thread's share of a copy at a time

using cuda::PinnedBuffer;

bool is_pinned(const void* p) {
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return a.type == cudaMemoryTypeHost;
}

int staging_threads(int asked) {
  if (asked > 0) return asked;
  // One core copies pageable memory at a fraction of PCIe's rate, so the copies take every core
  // of this process's share but two, which stay free for the threads issuing and draining chunks
  // (bench/NOTES.md, "The pipeline overlaps staging with transfers").
  return std::clamp(usable_cores() - 2, 1, 16);
}

// Threads copying between pageable memory and pinned staging: one core copies at a fraction
// of PCIe's rate, so every copy is cut into pieces that all threads take. Copies asked for by
// several threads at once (staging the next chunk, copying a finished one out) are served in
// the order asked.
class CopyPool {
 public:
  explicit CopyPool(int threads) {
    try {
      for (int t = 0; t < threads; ++t) workers_.emplace_back([this] { work(); });
    } catch (...) {
      stop();
      throw;
    }
  }
  ~CopyPool() { stop(); }
  CopyPool(const CopyPool&) = delete;
  CopyPool& operator=(const CopyPool&) = delete;

  // Returns once all n bytes are copied.
  void copy(u8* dst, const u8* src, u64 n) {
    if (n == 0) return;
    Job job{dst, src, n};
    std::unique_lock lock(m_);
    jobs_.push_back(&job);
    wake_.notify_all();
    finished_.wait(lock, [&] { return job.copied == n; });
  }

 private:
  struct Job {
    u8* dst;
    const u8* src;
    u64 n, handed_out = 0, copied = 0;
  };

  void work() {
    std::unique_lock lock(m_);
    for (;;) {
      wake_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
      if (stopping_) return;
      Job& job = *jobs_.front();
      const u64 at = job.handed_out, n = std::min(kCopyPiece, job.n - at);
      job.handed_out += n;
      if (job.handed_out == job.n) jobs_.pop_front();
      lock.unlock();
      std::memcpy(job.dst + at, job.src + at, n);
      lock.lock();
      job.copied += n;
      if (job.copied == job.n) finished_.notify_all();
    }
  }

  void stop() {
    {
      std::lock_guard lock(m_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : workers_) t.join();
  }

  std::mutex m_;
  std::condition_variable wake_, finished_;
  std::deque<Job*> jobs_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

// What the thread issuing chunks and the one draining them tell each other.
struct Handoff {
  std::mutex m;
  std::condition_variable changed;
  u64 issued = 0, drained = 0;
  std::exception_ptr error;  // the first, from either side; it stops both

  // Waits until ready() holds; false when an error stopped the run instead.
  template <typename Ready>
  bool wait(Ready ready) {
    std::unique_lock lock(m);
    changed.wait(lock, [&] { return error || ready(); });
    return !error;
  }
  void count(u64& counter) {
    {
      std::lock_guard lock(m);
      ++counter;
    }
    changed.notify_all();
  }
  void fail(std::exception_ptr e) {
    {
      std::lock_guard lock(m);
      if (!error) error = e;
    }
    changed.notify_all();
  }
};

// One chunk in flight: the stream of its codec call, its device buffers and pinned staging.
struct Slot {
  cuda::Stream stream;
  // Never timed. Waits on them spin (CUDA's default): blocking-sync events, which sleep, slowed
  // e2e from pageable memory (bench/NOTES.md, "The pipeline overlaps staging with transfers").
  cuda::Event uploaded{cudaEventDisableTiming}, computed{cudaEventDisableTiming},
      sized{cudaEventDisableTiming}, downloaded{cudaEventDisableTiming};
  cuda::DeviceBuffer<u8> in, out, temp;
  cuda::DeviceBuffer<u64> size;
  PinnedBuffer staged_in, staged_out;
  PinnedBuffer small;  // the compressed chunk's size, read back

  Slot() : size(1), small(sizeof(u64)) {}

  u64* host_size() const { return reinterpret_cast<u64*>(small.data()); }
  void ensure(cuda::DeviceBuffer<u8>& b, u64 bytes) {
    if (b.size() < bytes) b.resize(bytes);
  }
  void ensure(PinnedBuffer& b, u64 bytes) {
    if (b.bytes() < bytes) b = PinnedBuffer(bytes);
  }
};

// The clock readings and events of one call with a timeline (Pipeline::record_timeline); does
// nothing without one. Events are per chunk, not per slot: a slot's next chunk would record
// over them before they are read.
class CallTimeline {
 public:
  enum Mark { kUploadBegin, kUploadEnd, kCodecEnd, kDownloadBegin, kDownloadEnd, kMarks };

  CallTimeline(PipelineTimeline* out, u64 chunks, cudaStream_t first)
      : out_(out), events_(out ? chunks * kMarks : 0) {
    if (out_ == nullptr) return;
    out_->chunks.assign(chunks, {});
    start_.record(first);
    t0_ = std::chrono::steady_clock::now();
  }

  void mark(u64 chunk, Mark m, cudaStream_t s) {
    if (out_ != nullptr) events_[chunk * kMarks + m].record(s);
  }
  void host(u64 chunk, double ChunkTimes::*field) {
    if (out_ != nullptr) out_->chunks[chunk].*field = now();
  }
  void setup_done() {
    if (out_ != nullptr) out_->setup_s = now();
  }
  // After every stream is synchronized: the events' times.
  void finish() {
    if (out_ == nullptr) return;
    static constexpr double ChunkTimes::*kFields[kMarks] = {
        &ChunkTimes::upload_begin, &ChunkTimes::upload_end, &ChunkTimes::codec_end,
        &ChunkTimes::download_begin, &ChunkTimes::download_end};
    for (u64 c = 0; c < out_->chunks.size(); ++c) {
      for (int m = 0; m < kMarks; ++m) {
        float ms = 0;
        GCB_CUDA(cudaEventElapsedTime(&ms, start_.get(), events_[c * kMarks + m].get()));
        out_->chunks[c].*kFields[m] = ms * 1e-3;
      }
    }
    out_->call_s = now();
  }

 private:
  double now() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  }

  PipelineTimeline* out_;
  std::vector<cuda::Event> events_;
  cuda::Event start_;
  std::chrono::steady_clock::time_point t0_;
};

}  // namespace

struct Pipeline::State {
  const BoundDeviceCodec& codec;
  PipelineOptions options;
  PipelineTimeline* timeline = nullptr;
  u64 chunk = 0;
  std::vector<Slot> slots;
  // Every chunk's upload on one stream and every download on another, each in chunk order.
  // Copies on the chunks' own streams, ordered across them by events, queue an upload behind
  // downloads still waiting on their kernels (bench/NOTES.md, "End to end").
  cuda::Stream up, down;
  cuda::DeviceBuffer<DeviceStatus> statuses;  // one a chunk of the decompression call
  CopyPool pool;

  State(const BoundDeviceCodec& c, PipelineOptions o)
      : codec(c),
        options(o),
        slots(std::max(o.depth, 1)),
        pool(staging_threads(o.staging_threads)) {
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
    return bytes + codec.max_compressed_size(bytes) + codec.compress_temp_bytes(bytes);
  }

  // The last chunk's bound is its own: an input shorter than a chunk needs no buffer sized
  // for a whole chunk (for RLE, five times the chunk).
  u64 max_stream_size(u64 input_size) const {
    const u64 count = (input_size + chunk - 1) / chunk;
    if (count == 0) return kStreamHeaderSize;
    const u64 last = input_size - (count - 1) * chunk;
    return kStreamHeaderSize + count * kChunkPrefixSize +
           (count - 1) * codec.max_compressed_size(chunk) + codec.max_compressed_size(last);
  }

  Slot& slot(u64 chunk_index) { return slots[chunk_index % slots.size()]; }

  // Chunk i's copy of one direction on that direction's stream, between its timeline marks.
  void copy(u64 i, void* dst, const void* src, u64 n, cudaMemcpyKind kind, CallTimeline& trace) {
    const bool is_up = kind == cudaMemcpyHostToDevice;
    const cudaStream_t s = (is_up ? up : down).get();
    trace.mark(i, is_up ? CallTimeline::kUploadBegin : CallTimeline::kDownloadBegin, s);
    GCB_CUDA(cudaMemcpyAsync(dst, src, n, kind, s));
    trace.mark(i, is_up ? CallTimeline::kUploadEnd : CallTimeline::kDownloadEnd, s);
  }

  static void wait(cudaStream_t s, const cuda::Event& e) {
    GCB_CUDA(cudaStreamWaitEvent(s, e.get(), 0));
  }

  // issue(i) for each chunk in order on this thread. With a `drain`, drain(j) for each in order
  // on a second thread, and chunk i + depth (which reuses chunk i's slot) is issued once chunk
  // i is drained: host staging and waits of one chunk overlap the GPU's work on the others.
  // Chunk 0 is issued before that thread starts, whose start would delay the first upload.
  // Without a `drain`, issue's events order the slots' reuse on the GPU and every chunk is
  // issued at once. The first exception stops both sides and is rethrown once no thread or
  // copy is left running.
  void run_chunks(u64 count, const std::function<void(u64)>& issue,
                  const std::function<void(u64)>& drain, CallTimeline& trace) {
    trace.setup_done();
    Handoff h;
    auto issue_from = [&](u64 first, u64 end) {
      try {
        for (u64 i = first;
             i < end && h.wait([&] { return !drain || h.drained + slots.size() > i; }); ++i) {
          trace.host(i, &ChunkTimes::issue_begin);
          issue(i);
          trace.host(i, &ChunkTimes::issue_end);
          h.count(h.issued);
        }
      } catch (...) {
        h.fail(std::current_exception());
      }
    };
    std::thread drainer;
    if (drain) {
      issue_from(0, std::min<u64>(count, 1));
      int device = 0;
      GCB_CUDA(cudaGetDevice(&device));
      drainer = std::thread([&, device] {
        try {
          GCB_CUDA(cudaSetDevice(device));
          for (u64 j = 0; j < count && h.wait([&] { return h.issued > j; }); ++j) {
            drain(j);
            trace.host(j, &ChunkTimes::drained);
            h.count(h.drained);
          }
        } catch (...) {
          h.fail(std::current_exception());
        }
      });
      issue_from(1, count);
      drainer.join();
    } else {
      issue_from(0, count);
    }
    if (h.error) {
      for (Slot& s : slots) cudaStreamSynchronize(s.stream.get());  // its error is h.error's
      cudaStreamSynchronize(up.get());
      cudaStreamSynchronize(down.get());
      std::rethrow_exception(h.error);
    }
    for (Slot& s : slots) s.stream.sync();
    up.sync();
    down.sync();
    if (!drain) {
      for (u64 j = 0; j < count; ++j) trace.host(j, &ChunkTimes::drained);
    }
    trace.finish();
  }

  u64 compress(ByteSpan input, std::span<u8> output) {
    const u64 count = (input.size() + chunk - 1) / chunk;
    CallTimeline trace(timeline, count, up.get());
    const Bytes header = stream_header(input.size(), chunk);
    if (output.size() < header.size()) {
      throw std::length_error("Pipeline::compress: output smaller than the stream's header");
    }
    const bool pinned_in = input.empty() || is_pinned(input.data());
    const bool pinned_out = is_pinned(output.data());
    // Buffers for the chunks this call has: an input shorter than a chunk, or with fewer
    // chunks than slots, allocates no more than it uses.
    const u64 biggest = std::min<u64>(chunk, input.size());
    const u64 capacity = codec.max_compressed_size(biggest);
    std::copy(header.begin(), header.end(), output.begin());
    u64 written = header.size();
    for (u64 i = 0; i < std::min<u64>(count, slots.size()); ++i) {
      Slot& s = slot(i);
      s.ensure(s.in, biggest);
      s.ensure(s.out, capacity);
      s.ensure(s.temp, codec.compress_temp_bytes(biggest));
      if (!pinned_in) s.ensure(s.staged_in, biggest);
      if (!pinned_out) s.ensure(s.staged_out, capacity);
    }
    auto issue = [&](u64 i) {
      Slot& s = slot(i);
      const u64 at = i * chunk, n = std::min(chunk, input.size() - at);
      const u8* src = input.data() + at;
      if (!pinned_in) {
        pool.copy(s.staged_in.data(), src, n);
        src = s.staged_in.data();
      }
      copy(i, s.in.data(), src, n, cudaMemcpyHostToDevice, trace);
      s.uploaded.record(up.get());
      wait(s.stream.get(), s.uploaded);
      // The download of the slot's previous chunk reads the output this call writes.
      if (i >= slots.size()) wait(s.stream.get(), s.downloaded);
      codec.compress_async(
          {s.in.data(), n, s.temp.data(), s.temp.bytes(), s.out.data(), s.size.data()},
          s.stream.get());
      trace.host(i, &ChunkTimes::codec_issued);
      trace.mark(i, CallTimeline::kCodecEnd, s.stream.get());
      GCB_CUDA(cudaMemcpyAsync(s.host_size(), s.size.data(), sizeof(u64), cudaMemcpyDeviceToHost,
                               s.stream.get()));
      s.sized.record(s.stream.get());
    };
    // Chunk j lands right after chunk j - 1, so its copy back waits for its size (and so for
    // its codec call). Once that copy is enqueued the slot may take the next chunk, whose
    // codec call waits for it.
    auto drain = [&](u64 j) {
      Slot& s = slot(j);
      GCB_CUDA(cudaEventSynchronize(s.sized.get()));
      const u64 n = *s.host_size();
      if (kChunkPrefixSize + n > output.size() - written) {
        throw std::length_error("Pipeline::compress: the stream does not fit in the output (" +
                                std::to_string(output.size()) + " bytes; chunk " +
                                std::to_string(j) + " ends at " +
                                std::to_string(written + kChunkPrefixSize + n) +
                                "); max_stream_size() always does");
      }
      store_le<u64>(output.data() + written, n);
      written += kChunkPrefixSize;
      copy(j, pinned_out ? output.data() + written : s.staged_out.data(), s.out.data(), n,
           cudaMemcpyDeviceToHost, trace);
      s.downloaded.record(down.get());
      if (!pinned_out) {
        GCB_CUDA(cudaEventSynchronize(s.downloaded.get()));
        pool.copy(output.data() + written, s.staged_out.data(), n);
      }
      written += n;
    };
    run_chunks(count, issue, drain, trace);
    return written;
  }

  DecodePlan plan_chunk(const StreamView& view, u64 i) const {
    auto rejected = [i](const std::string& why) {
      return DecodeError("chunk " + std::to_string(i) + ": " + why);
    };
    DecodePlan plan;
    try {
      plan = codec.plan_decompress(view.containers[i]);
    } catch (const DecodeError& e) {
      throw rejected(e.what());
    }
    if (const u64 want = view.chunk_size(i); plan.original_size != want) {
      throw rejected("its container holds " + std::to_string(plan.original_size) + " bytes, not " +
                     std::to_string(want));
    }
    return plan;
  }

  // Each chunk is planned in its own issue step, just before its upload: the first upload waits
  // for one plan, not for all of them (bench/NOTES.md, "End to end"); a damaged container stops
  // the call before its chunk reaches the device. Slots are reused in the GPU's order (an upload
  // after the slot's previous codec call, a codec call after its previous download) and, where a
  // pageable side goes through staging, once the host has drained the slot's previous chunk.
  void decompress(ByteSpan stream, std::span<u8> output) {
    const StreamView view = parse_stream(stream);
    const u64 count = view.containers.size();
    CallTimeline trace(timeline, count, up.get());
    if (output.size() != view.original_size) {
      throw std::invalid_argument("decompress: output holds " + std::to_string(output.size()) +
                                  " bytes, the stream " + std::to_string(view.original_size));
    }
    u64 max_container = 0, max_original = 0;
    for (u64 i = 0; i < count; ++i) {
      max_container = std::max<u64>(max_container, view.containers[i].size());
      max_original = std::max<u64>(max_original, view.chunk_size(i));
    }
    const bool pinned_in = stream.empty() || is_pinned(stream.data());
    const bool pinned_out = output.empty() || is_pinned(output.data());
    if (statuses.size() < count) statuses.resize(count);
    for (u64 i = 0; i < std::min<u64>(count, slots.size()); ++i) {
      Slot& s = slot(i);
      s.ensure(s.in, max_container);
      s.ensure(s.out, max_original);
      if (!pinned_in) s.ensure(s.staged_in, max_container);
      if (!pinned_out) s.ensure(s.staged_out, max_original);
    }
    auto issue = [&](u64 i) {
      const DecodePlan plan = plan_chunk(view, i);
      Slot& s = slot(i);
      // A plan needing more temp storage than the slot's previous chunks: their codec calls
      // must be done with it first. Chunks of one stream rarely differ here.
      if (s.temp.size() < plan.temp_bytes) {
        s.stream.sync();
        s.ensure(s.temp, plan.temp_bytes);
      }
      const u8* src = view.containers[i].data();
      if (!pinned_in) {
        pool.copy(s.staged_in.data(), src, plan.container_size);
        src = s.staged_in.data();
      }
      // The events below are still the slot's previous chunk's (none before the first use):
      // its codec call has read `in`, its download has read `out`.
      wait(up.get(), s.computed);
      copy(i, s.in.data(), src, plan.container_size, cudaMemcpyHostToDevice, trace);
      s.uploaded.record(up.get());
      wait(s.stream.get(), s.uploaded);
      wait(s.stream.get(), s.downloaded);
      codec.decompress_async(
          plan, {s.in.data(), s.temp.data(), s.temp.bytes(), s.out.data(), statuses.data() + i},
          s.stream.get());
      trace.host(i, &ChunkTimes::codec_issued);
      trace.mark(i, CallTimeline::kCodecEnd, s.stream.get());
      s.computed.record(s.stream.get());
      wait(down.get(), s.computed);
      u8* dst = pinned_out ? output.data() + i * view.chunk_bytes : s.staged_out.data();
      copy(i, dst, s.out.data(), plan.original_size, cudaMemcpyDeviceToHost, trace);
      s.downloaded.record(down.get());
    };
    auto drain = [&](u64 j) {
      Slot& s = slot(j);
      GCB_CUDA(cudaEventSynchronize(s.downloaded.get()));
      if (!pinned_out) {
        pool.copy(output.data() + j * view.chunk_bytes, s.staged_out.data(), view.chunk_size(j));
      }
    };
    // Pinned on both sides, nothing waits on the host: the GPU orders the slots' reuse.
    run_chunks(count, issue, pinned_in && pinned_out ? std::function<void(u64)>{} : drain, trace);
    // Read back once, after the last chunk: a status copy per chunk would sit on the copy
    // engine between the chunk's codec call and its download, delaying every download by a
    // copy's latency (bench/NOTES.md, "End to end"). A damaged chunk's output is thrown away
    // all the same, only later.
    std::vector<DeviceStatus> status(count);
    GCB_CUDA(cudaMemcpy(status.data(), statuses.data(), count * sizeof(DeviceStatus),
                        cudaMemcpyDeviceToHost));
    for (u64 j = 0; j < status.size(); ++j) {
      if (status[j].error != kDeviceOk) {
        throw DecodeError("chunk " + std::to_string(j) + ": " + codec.codec().describe(status[j]));
      }
    }
  }
};

Pipeline::Pipeline(const BoundDeviceCodec& codec, PipelineOptions options)
    : state_(std::make_unique<State>(codec, options)) {
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
  // The bound (for RLE twice the input) is only reserved: its pages become resident as the
  // stream is written, and the result holds the stream alone.
  const u64 bound = max_stream_size(input.size());
  const auto buffer = std::make_unique_for_overwrite<u8[]>(bound);
  const u64 n = compress(input, std::span<u8>(buffer.get(), bound));
  return Bytes(buffer.get(), buffer.get() + n);
}

void Pipeline::decompress(ByteSpan stream, std::span<u8> output) {
  state_->decompress(stream, output);
}

Bytes Pipeline::decompress(ByteSpan stream) {
  Bytes out(parse_stream(stream).original_size);
  decompress(stream, out);
  return out;
}

void Pipeline::record_timeline(PipelineTimeline* into) {
  state_->timeline = into;
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
