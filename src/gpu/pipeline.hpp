#pragma once
// The end-to-end path a user would ship, written once over any device codec: the input is
// cut into chunks whose uploads run in order on one stream, their codec calls on `depth`
// streams and their downloads in order on one more, so that host-to-device copies, kernels
// and device-to-host copies of different chunks overlap. Each chunk becomes its own
// container inside a chunked stream (include/gcbench/stream.hpp). Host memory already pinned
// (cudaMallocHost, cudaHostRegister) is copied from and to directly; pageable memory goes
// through pinned staging buffers, filled and emptied by a pool of host threads while the GPU
// works on other chunks. One thread issues chunks; where host memory is staged, or a
// compressed chunk's size must be read back, a second drains them in order, else the GPU
// orders each slot's reuse and every chunk is issued at once.
// GPU memory is bounded by depth x (one chunk's input, output and temporary storage), pinned
// host memory by depth x (one chunk's input and output), whatever the input's size.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "gcbench/device_codec.hpp"

namespace gcbench::gpu {

// Where one call's time went, per chunk, in seconds from the call's start: when the issuing
// thread began enqueueing the chunk, when the codec's call returned and when it finished, and
// when the draining thread was done with it (host clock), and when its upload began and ended,
// its codec call ended and its download began and ended on the GPU (CUDA events; a copy begins
// once the previous chunk's copy of its direction has ended, and the codec call once the upload
// has). The GPU's zero is an event recorded just after the host's.
struct ChunkTimes {
  double issue_begin = 0, codec_issued = 0, issue_end = 0, drained = 0;
  double upload_begin = 0, upload_end = 0, codec_end = 0, download_begin = 0, download_end = 0;
};

struct PipelineTimeline {
  double setup_s = 0;  // host: the call set up (buffers sized), before the first issue
  double call_s = 0;   // host: the call's return
  std::vector<ChunkTimes> chunks;
};

struct PipelineOptions {
  std::uint64_t chunk_bytes = std::uint64_t{32} << 20;  // bench/NOTES.md, "chunks of 32 MiB"
  int depth = 4;                                        // chunks in flight
  std::uint64_t gpu_memory_limit = 0;  // bytes; 0 = none. Chunks shrink to fit under it.
  // Host threads copying between pageable memory and pinned staging; 0 = all cores but two,
  // at most 16.
  int staging_threads = 0;
};

class Pipeline {
 public:
  // `codec` bound to its parameter point (it must outlive the pipeline). Throws ParamError
  // when even the smallest chunk (64 KiB) does not fit under the memory limit.
  Pipeline(const BoundDeviceCodec& codec, PipelineOptions options);
  ~Pipeline();
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  // The chunked stream of `input` into `output` (pinned memory is copied to directly);
  // returns the stream's size. max_stream_size() bytes always suffice; a smaller output that
  // the stream does not fit throws std::length_error, and nothing is written past its end.
  std::uint64_t compress(ByteSpan input, std::span<std::uint8_t> output);
  std::uint64_t max_stream_size(std::uint64_t input_size) const;
  Bytes compress(ByteSpan input);

  // `output` must hold exactly the stream's original size. Throws DecodeError for a damaged
  // stream or container, as the host plan or the device decoder reports it, naming the chunk.
  void decompress(ByteSpan stream, std::span<std::uint8_t> output);
  Bytes decompress(ByteSpan stream);

  // Each call from now on fills `into` with its timeline (nullptr: no more). Its events cost
  // each chunk a few microseconds of the host's time: timed calls go without.
  void record_timeline(PipelineTimeline* into);

  std::uint64_t chunk_bytes() const;
  // Device bytes this pipeline holds now (grows when a stream needs more temp storage).
  std::uint64_t device_bytes() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace gcbench::gpu
