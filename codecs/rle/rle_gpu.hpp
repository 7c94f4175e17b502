#pragma once
// The device side of the GPU RLE codecs (rle, rle-cub), on device buffers, so that the codecs
// and the kernel benchmark share it. Constructors allocate everything (CUB temporary storage
// included, sized by query), so encode()/decode() only enqueue work and are safe to time.
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "codecs/common/device_buffer.hpp"
#include "codecs/rle/format.hpp"
#include "gcbench/codec.hpp"

namespace gcbench::rle::gpu {

// The speed-only `decode` axis: (a) exclusive scan of counts + binary search per element, or
// (b) scatter of run numbers to run starts + inclusive flood-right scan.
enum class DecodeVariant : int { scan = 0, flood = 1 };
AxisSpec decode_axis();

// A run longer than the count limit: the encoder stores max_count in its slot and records the
// true length here; the host splits it as format.hpp says.
struct LongRun {
  std::uint64_t run;
  std::uint64_t length;
};

// Single pass over the input: start flags, a block scan of (runs, last start) with decoupled
// look-back across tiles, and values/counts written through shared memory, coalesced.
class Encoder {
 public:
  Encoder(std::uint64_t element_count, std::uint32_t width, std::uint64_t max_count = kMaxRunCount);
  void encode(const std::uint8_t* d_in, cudaStream_t stream);  // d_in from cudaMalloc

  const std::uint64_t* run_count() const { return run_count_.data(); }  // one value
  const std::uint32_t* counts() const { return counts_.data(); }
  const std::uint8_t* values() const { return values_.data(); }
  const LongRun* long_runs() const { return long_runs_.data(); }
  const std::uint32_t* long_run_count() const { return long_count_.data(); }  // one value
  std::uint32_t long_run_capacity() const { return static_cast<std::uint32_t>(long_runs_.size()); }

 private:
  std::uint64_t n_, max_count_;
  std::uint32_t width_;
  int tiles_;
  bool wide_;  // n >= 2^32: 64-bit run numbers in the look-back state
  cuda::DeviceBuffer<std::uint8_t> tile_state_;
  cuda::DeviceBuffer<std::uint32_t> counts_;
  cuda::DeviceBuffer<std::uint8_t> values_;
  cuda::DeviceBuffer<std::uint64_t> run_count_;
  cuda::DeviceBuffer<LongRun> long_runs_;
  cuda::DeviceBuffer<std::uint32_t> long_count_;
};

// cub::DeviceRunLengthEncode::Encode (int item counts) over chunks of at most chunk_elements;
// chunk c's runs sit at element offset c * chunk_elements of counts() and values().
class CubEncoder {
 public:
  static constexpr std::uint64_t kDefaultChunk = std::uint64_t{1} << 30;
  CubEncoder(std::uint64_t element_count, std::uint32_t width,
             std::uint64_t chunk_elements = kDefaultChunk);
  void encode(const std::uint8_t* d_in, cudaStream_t stream);

  std::uint64_t chunk_elements() const { return chunk_; }
  std::uint64_t chunk_count() const { return chunk_runs_.size(); }
  const std::uint32_t* chunk_runs() const { return chunk_runs_.data(); }  // chunk_count values
  const std::uint32_t* counts() const { return counts_.data(); }
  const std::uint8_t* values() const { return values_.data(); }

 private:
  std::uint64_t n_, chunk_;
  std::uint32_t width_;
  cuda::DeviceBuffer<std::uint32_t> counts_;
  cuda::DeviceBuffer<std::uint8_t> values_;
  cuda::DeviceBuffer<std::uint32_t> chunk_runs_;
  cuda::DeviceBuffer<std::uint8_t> temp_;
};

class Decoder {
 public:
  // Sizes as validated by parse_payload (1 <= run_count <= element_count).
  Decoder(std::uint64_t element_count, std::uint32_t width, std::uint64_t run_count,
          DecodeVariant variant);

  // Inputs to fill before decode(): counts[run_count] and values[run_count].
  std::uint32_t* counts() { return counts_.data(); }
  std::uint8_t* values() { return values_.data(); }

  // Writes element_count * width bytes to d_out, unless the counts are invalid; then the
  // expansion does nothing and total() != element_count.
  void decode(std::uint8_t* d_out, cudaStream_t stream);

  // Sum of the counts, saturated at 2^62, with a zero count counted as 2^62: equal to
  // element_count exactly when every count is >= 1 and they add up.
  const std::uint64_t* total() const { return offsets_.data() + runs_; }

 private:
  std::uint64_t n_, runs_;
  std::uint32_t width_;
  DecodeVariant variant_;
  cuda::DeviceBuffer<std::uint32_t> counts_;
  cuda::DeviceBuffer<std::uint8_t> values_;
  cuda::DeviceBuffer<std::uint64_t> offsets_;
  cuda::DeviceBuffer<std::uint64_t> tile_run_;  // scan: run of each output tile's first element
  cuda::DeviceBuffer<std::uint8_t> run_index_;  // flood: one run number per element
  cuda::DeviceBuffer<std::uint8_t> temp_;
};

// Host-to-payload compression (the codecs' compress() without the container), with the count
// limit and chunk size as parameters so that tests reach run splitting and chunk seams with
// small inputs. `stats` gets the kernel and transfer seconds.
Bytes encode_payload(ByteSpan input, std::uint32_t width, std::uint64_t max_count = kMaxRunCount,
                     RunStats* stats = nullptr);
Bytes cub_encode_payload(ByteSpan input, std::uint32_t width,
                         std::uint64_t max_count = kMaxRunCount,
                         std::uint64_t chunk_elements = CubEncoder::kDefaultChunk,
                         RunStats* stats = nullptr);

// Copies R runs from the device into a payload. Runs listed in long_runs were clamped by the
// encoder and are split here; with none listed the arrays go straight into the payload. The
// copies (not the host-side allocation or splitting) are timed as transfer on `timer`.
Bytes download_payload(ByteSpan input, std::uint32_t width, std::uint64_t runs,
                       const std::uint32_t* d_counts, const std::uint8_t* d_values,
                       std::vector<LongRun> long_runs, std::uint64_t max_count, cudaStream_t stream,
                       cuda::PhaseTimer& timer);

// decompress() of both GPU RLE codecs.
Bytes decode_container(ByteSpan container, DecodeVariant variant, RunStats* stats);

// Assembles a payload from runs, merging a run with the one before when their values are equal
// (chunk seams) and splitting every run longer than max_count (format.hpp).
class RunSink {
 public:
  RunSink(std::uint32_t width, std::uint64_t max_count) : width_(width), max_count_(max_count) {}
  void add(const std::uint8_t* value, std::uint64_t length);
  Bytes payload(ByteSpan input);

 private:
  void flush();
  std::uint32_t width_;
  std::uint64_t max_count_;
  std::vector<std::uint32_t> counts_;
  Bytes values_;
  std::uint8_t pending_value_[4] = {};
  std::uint64_t pending_ = 0;
};

}  // namespace gcbench::rle::gpu
