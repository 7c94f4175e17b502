#pragma once
// The one interface every codec implements (lzbench-style descriptor + virtual calls), bound
// to a parameter point once (typed_codec.hpp writes bind() for a codec's typed parameters).
#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "gcbench/bytes.hpp"
#include "gcbench/container.hpp"
#include "gcbench/errors.hpp"
#include "gcbench/params.hpp"

namespace gcbench {

class DeviceCodec;

enum class Device { cpu, gpu };
const char* to_string(Device d);

// What a codec is in a comparison: one under study, the gzip reference column, or a widely
// used peer run beside them. The driver's --codecs groups (peers, baselines) use it.
enum class Role { studied, baseline, peer };
const char* to_string(Role r);

// One call's time as the codec guesses it, for the driver's estimate of a sweep before it runs
// (presets print it, shards balance by it): a model, never a measurement.
struct CallEstimate {
  const Params& params;  // resolved: every axis of the codec
  bool compress = true;
  double bytes = 0;
  double cpu_scale = 1;  // host threads over the 16 that CPU rates are quoted for
};
using SpeedModel = std::function<double(const CallEstimate&)>;  // seconds

// Counters of the codec's own from one of its containers, recorded with each of its cells
// beside the driver's (LZ77: entropy_bytes, the thesis's ratio basis), outside the timed calls.
using ContainerCounters =
    std::function<std::vector<std::pair<std::string, double>>(ByteSpan container)>;

struct CodecInfo {
  std::string name;     // family, e.g. "deltapack"; CPU and GPU implementations share it
  std::string version;  // implementation version, reported in results
  Device device = Device::cpu;
  std::string description;
  std::vector<AxisSpec> axes;
  Role role = Role::studied;
  // The CPU codec whose containers this one writes byte for byte at the same format axes
  // (tests hold it to them); empty when there is none.
  std::string cpu_reference{};
  // False when the same input may give different containers from call to call, each decoding
  // to it (nvCOMP Cascaded): tests and the driver then check those by decoding, not by bytes.
  bool reproducible = true;
  // False for a codec that runs another program (gzip): the calling thread waits while it works,
  // so its share of time on a CPU says nothing of how busy the machine was.
  bool in_process = true;
  // Empty: the driver's generic rate (bench/driver/estimate.cpp).
  SpeedModel speed_model{};
  ContainerCounters container_counters{};  // empty: none
  // The gcbench container format it writes (codecs/<name>/format.hpp); id 0 when none.
  ContainerFormat container_format{};
  // A GPU codec built on a library primitive (rle-cub: "cub::DeviceRunLengthEncode::Encode"):
  // the driver times the bare primitive beside each compression cell, on the same device input
  // (BoundDeviceCodec::primitive_async), so that a figure "against CUB" has the bare primitive
  // as well as the codec that wraps it in a container. Empty: none.
  std::string reference_primitive{};
  // The chunk of the end-to-end pipeline (src/gpu/pipeline.hpp) for this GPU codec's cells
  // when --pipeline-chunk is not given: a codec whose device call reaches its throughput only
  // on large batches (nvCOMP LZ4) names a larger one. 0: the pipeline's default.
  std::uint64_t pipeline_chunk_bytes = 0;
};

// Where the time of one call went. GPU codecs fill kernel and transfer time from CUDA
// events; CPU codecs leave them at zero.
struct RunStats {
  double kernel_s = 0;
  double transfer_s = 0;
  // A codec that runs another program (CodecInfo::in_process false): that program's peak
  // resident memory, which this process's heap cannot see; 0 when unknown.
  std::uint64_t program_peak_rss_bytes = 0;
};

// A value that an axis leaves to the codec at run time (lz77's GPU design=auto), as chosen for
// one parameter point.
struct RunTimeChoice {
  std::string scope;   // the axes the choice depends on, e.g. "finder:hash"
  std::string value;   // what was chosen, e.g. "design=warp"
  std::string detail;  // how: the candidates' times and checks
};

// A codec with one parameter point bound (Codec::bind): the axes resolved, validated and read
// into the codec's typed parameters once, so that its calls take no map and look nothing up
// by name (as nvCOMP's and CUB's calls take plain structs). Borrows the codec it came from.
class BoundCodec {
 public:
  virtual ~BoundCodec() = default;

  // Upper bound on compress()'s output for `input_size` bytes.
  virtual std::uint64_t max_compressed_size(std::uint64_t input_size) const = 0;

  virtual Bytes compress(ByteSpan input, RunStats* stats = nullptr) const = 0;

  // Compresses into `room`, allocated by the caller beforehand with max_compressed_size()
  // bytes; returns the container's size, its bytes those compress() would return. Codecs whose
  // library writes into a caller's buffer override it (compresses_into()), so that a timed call
  // holds no allocation, as the library's own benchmark program times it. This default
  // compresses and copies.
  virtual std::size_t compress_into(ByteSpan input, std::span<std::uint8_t> room,
                                    RunStats* stats = nullptr) const {
    const Bytes container = compress(input, stats);
    if (container.size() > room.size()) {
      throw std::runtime_error("container of " + std::to_string(container.size()) +
                               " bytes exceeds the codec's bound of " +
                               std::to_string(room.size()));
    }
    std::copy(container.begin(), container.end(), room.begin());
    return container.size();
  }
  // Whether compress_into is the codec's own rather than the default above.
  virtual bool compresses_into() const { return false; }

  // Needs nothing but the container; the bound point carries speed-only axes (threads,
  // variant). Throws DecodeError for anything that is not a valid container of this codec.
  virtual Bytes decompress(ByteSpan container, RunStats* stats = nullptr) const = 0;

  // Decodes into `output`, allocated by the caller beforehand with exactly the original size.
  // Codecs whose library decodes into a caller's buffer override it (decodes_into()): a timed
  // call then holds the library's decode alone, no allocation or first-touch page faults, as
  // the library's own benchmark program times it. Throws DecodeError as decompress() does, and
  // when the original size is not output.size(). This default decodes and copies.
  virtual void decompress_into(ByteSpan container, std::span<std::uint8_t> output,
                               RunStats* stats = nullptr) const {
    const Bytes decoded = decompress(container, stats);
    if (decoded.size() != output.size()) {
      throw DecodeError("container holds " + std::to_string(decoded.size()) + " bytes, not " +
                        std::to_string(output.size()));
    }
    std::copy(decoded.begin(), decoded.end(), output.begin());
  }
  // Whether decompress_into is the codec's own rather than the default above.
  virtual bool decodes_into() const { return false; }

  // The choice this codec makes at run time for the point, if any. May run its calibration
  // (once per process); callers make it before timing, so that no timed call pays for it.
  virtual std::optional<RunTimeChoice> run_time_choice() const { return std::nullopt; }
};

using BoundCodecPtr = std::unique_ptr<const BoundCodec>;

class Codec {
 public:
  virtual ~Codec() = default;
  virtual const CodecInfo& info() const = 0;

  // `params` may be partial: resolved against info().axes (defaults filled in). Throws
  // ParamError naming the axis and its allowed values for anything the codec cannot take.
  virtual BoundCodecPtr bind(const Params& params) const = 0;

  // The device-resident API behind a GPU codec (include/gcbench/device_codec.hpp), if any.
  virtual const DeviceCodec* device_codec() const { return nullptr; }

  // Conveniences for one call at one point (bind, then call): tests and untimed set-up.
  // Timed loops bind once and call the BoundCodec.
  std::uint64_t max_compressed_size(std::uint64_t input_size, const Params& params) const {
    return bind(params)->max_compressed_size(input_size);
  }
  Bytes compress(ByteSpan input, const Params& params, RunStats* stats = nullptr) const {
    return bind(params)->compress(input, stats);
  }
  Bytes decompress(ByteSpan container, const Params& params, RunStats* stats = nullptr) const {
    return bind(params)->decompress(container, stats);
  }
  std::optional<RunTimeChoice> run_time_choice(const Params& params) const {
    return bind(params)->run_time_choice();
  }
};

using CodecPtr = std::unique_ptr<const Codec>;

}  // namespace gcbench
