#pragma once
// GPU cells of codecs with a device API (include/gcbench/device_codec.hpp): the timed loop is
// the device call alone on buffers allocated once per cell; unless the run times kernels alone
// (--timing kernel), the end-to-end path (src/gpu/pipeline.hpp) is timed beside it, from pinned
// and from pageable host memory. The input stays in device memory for the cells that follow on
// the same input. Outputs are verified in full once per cell: a container decoded on the device
// and compared there with the input (device_compare.hpp), and equal to the CPU reference's on
// the host; a decompressed output compared with the input on the device. Every timed device
// call's output is compared with the verified one through its CRC-32 on the GPU, all outside
// the timed regions. With cold_l2 the
// L2 cache is flushed before every timed device call (l2_flush.hpp), also outside. Built only
// with CUDA.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "gcbench/bytes.hpp"

#include "bench/driver/cells.hpp"
#include "bench/driver/context.hpp"

namespace gcbench::driver {

class L2Flush;
class Workspace;

struct PipelineSettings {
  std::uint64_t chunk_bytes = std::uint64_t{32} << 20;  // bench/NOTES.md: LZ77 overlap
  int depth = 4;
  std::uint64_t gpu_memory_limit = 0;
  bool end_to_end = true;  // false (--timing kernel): the device call alone, no pipeline
};

// What a cell keeps between Google Benchmark's calls of its body (buffers, verified outputs,
// end-to-end times), so that each thing is set up and measured once.
struct DeviceCellState;
struct ResidentInput;

// The verified chunked stream of the last compression cell, for the decompression cell of the
// same point and input that follows it (it need not compress again).
struct LastStream {
  std::string key;
  Bytes stream;
};

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

  PipelineSettings settings_;
  GpuCeilings ceilings_;
  std::unique_ptr<L2Flush> l2_flush_;  // null: warm (no --cold-l2)
  std::string current_;
  // The current input in device memory, uploaded once for the cells of that input.
  std::unique_ptr<ResidentInput> input_;
  std::unique_ptr<DeviceCellState> cell_;
  LastStream last_stream_;
};

}  // namespace gcbench::driver
