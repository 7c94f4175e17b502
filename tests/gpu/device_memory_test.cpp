// memory_device_bytes on a GPU (issue 62): every GPU cell records the device memory of its
// device call, which for a compression cell is the input, the output's bound, the temp the
// codec asked for (for nvCOMP, its own temp-size query's figure carved with the batch arrays)
// and the size word, and for a decompression cell the container, the output, the plan's temp
// and the status word; plus what the codec allocated itself (nvCOMP's decoy chunk, once a
// process). Skipped, saying so, without a GPU.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "bench/driver/run_status.hpp"
#include "gcbench/device_codec.hpp"
#include "support/device_cells_fixture.hpp"

namespace gcbench::driver {
namespace {

using u64 = std::uint64_t;

class DeviceMemory : public DeviceCellsTest {
 protected:
  // Each cell's memory_device_bytes is its operands' bytes, plus at most `own` bytes the codec
  // allocated itself.
  void expect_operands(const std::string& codec, u64 own) {
    const auto runs = run(codec, {});
    ASSERT_GE(runs.size(), 2u) << codec << ": compress and decompress at least";
    for (const auto& r : runs) {
      ASSERT_FALSE(run_failed(r)) << r.benchmark_name() << ": " << run_message(r);
      const CellSpec* cell = nullptr;
      for (const CellSpec& c : cells_) {
        // Google Benchmark's name adds its own parts ("/iterations:1/manual_time").
        if (r.benchmark_name().starts_with(c.name + "/")) cell = &c;
      }
      ASSERT_NE(cell, nullptr) << r.benchmark_name();
      const BoundDeviceCodecPtr dev = cell->codec->device_codec()->bind(cell->params);
      const ByteSpan input = workspace_.input(cell->input);
      const u64 n = input.size();
      u64 operands = 0;
      if (cell->direction == Direction::compress) {
        operands = n + dev->max_compressed_size(n) + dev->compress_temp_bytes(n) + sizeof(u64);
      } else {
        const Bytes container = cell->codec->bind(cell->params)->compress(input);
        const DecodePlan plan = dev->plan_decompress(container);
        operands = container.size() + n + plan.temp_bytes + sizeof(DeviceStatus);
      }
      const auto measured = static_cast<u64>(r.counters.at("memory_device_bytes").value);
      EXPECT_GE(measured, operands) << r.benchmark_name();
      EXPECT_LE(measured, operands + own) << r.benchmark_name();
    }
  }
};

TEST_F(DeviceMemory, OwnCodecsHoldTheirOperandsAlone) {
  for (const char* codec : {"fl", "rle", "rle-cub", "lz77"}) expect_operands(codec, 0);
}

TEST_F(DeviceMemory, NvcompCellsHoldTheirTempSizeQueryAndTheBuffers) {
  bool any = false;
  for (const Codec* codec : registered_codecs()) {
    const std::string& name = codec->info().name;
    if (name.rfind("nvcomp-", 0) != 0 || codec->info().device != Device::gpu) continue;
    any = true;
    expect_operands(name, 1 << 20);  // its decoy chunk and, while it is made, its scratch
  }
  if (!any) GTEST_SKIP() << "built without nvCOMP";
}

}  // namespace
}  // namespace gcbench::driver
