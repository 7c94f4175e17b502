#pragma once
// GPU cells of codecs with a device API (include/gcbench/device_codec.hpp): the timed loop is the
// device call alone on buffers allocated once per cell, with the end-to-end path
// (src/gpu/pipeline.hpp) timed beside it from pinned and pageable memory unless --timing kernel.
// The input stays on the device for the cells that follow on it. Outputs are verified in full once
// per cell (on the device, and against the CPU reference's container), every timed call's output
// through its CRC-32 on the GPU; that and the L2 flush of cold_l2 (l2_flush.hpp) stay outside the
// timed regions. Built only with CUDA.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "gcbench/bytes.hpp"

#include "bench/driver/cells.hpp"
#include "bench/driver/context.hpp"
#include "bench/driver/nvml.hpp"

namespace gcbench::driver {

class L2Flush;
class Workspace;

// A GPU cell whose SM clock read below this share of the maximum, after its first timed call
// or after its last, is flagged throttled (its counters sm_clock_pct and throttled).
constexpr double kThrottledBelow = 0.9;

struct PipelineSettings {
  std::uint64_t chunk_bytes = 0;  // 0: the codec's (CodecInfo::pipeline_chunk_bytes)
  int depth = 4;
  std::uint64_t gpu_memory_limit = 0;
  bool end_to_end = true;  // false (--timing kernel): the device call alone, no pipeline
  std::optional<std::filesystem::path> timeline_dir;  // --pipeline-timeline
};

// What a cell keeps between Google Benchmark's calls of its body, one a repetition (buffers,
// verified outputs, the pipeline's stream), so that each thing is set up and verified once.
struct DeviceCellState;
struct ResidentInput;

// The verified chunked stream of the last compression cell, for the decompression cell of the
// same point and input that follows it (it need not compress again).
struct LastStream {
  std::string key;
  std::shared_ptr<const Bytes> stream;
};

// nullopt while this process's CUDA context works; else why not (a sticky error: every later
// call fails, and a fresh process is the only way on).
std::optional<std::string> broken_cuda_context();

class DeviceCells {
 public:
  // cold_l2: allocates the flush buffer now, once for the run.
  DeviceCells(PipelineSettings settings, GpuCeilings ceilings, bool cold_l2);
  ~DeviceCells();
  void run(benchmark::State& state, const CellSpec& cell, Workspace& workspace);
  // The run context's "cold_l2" entry when the L2 is flushed: how; nullopt when it is not.
  std::optional<std::string> l2_flush_context() const;

 private:
  // The input of index `index` in device memory, uploaded when it is not the resident one.
  const std::uint8_t* device_input(std::size_t index, ByteSpan input);
  // nullopt while the resident input holds the bytes uploaded (its CRC-32 then and now); else
  // the cell's error, and the resident copy is dropped (the next cell uploads it again).
  std::optional<std::string> resident_input_changed();

  PipelineSettings settings_;
  GpuCeilings ceilings_;
  std::unique_ptr<L2Flush> l2_flush_;  // null: warm (no --cold-l2)
  SmClock sm_clock_;                   // each cell's throttle check
  std::string current_;
  // The current input in device memory, uploaded once for the cells of that input.
  std::unique_ptr<ResidentInput> input_;
  std::unique_ptr<DeviceCellState> cell_;
  LastStream last_stream_;
};

}  // namespace gcbench::driver
