// A GPU guest that misbehaves (tests/support/fault_gpu_plugin.cu), run by the gcbench program:
// a decoder that skips a repeated call, a write past the output, and a kernel that faults on an
// illegal address (the CUDA context is lost) each fail their own cells, named; fl's GPU cells in
// the same run are measured and verified, in a fresh worker after the fault. Skipped, saying
// why, without a GPU or the driver.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "src/results/result_files.hpp"
#include "support/gpu_test.hpp"
#include "support/test_folder.hpp"

namespace gcbench {
namespace {
namespace fs = std::filesystem;

class GuestGpuTest : public testing::GpuTest {};

TEST_F(GuestGpuTest, AMisbehavingGpuPluginCostsItsCellsNotTheRun) {
#if defined(GCBENCH_DRIVER) && defined(GCBENCH_FAULT_GPU_PLUGIN)
  const fs::path out = testing::fresh_test_folder("gcbench-guest-gpu");
  const std::string command =
      std::string(GCBENCH_DRIVER) + " --plugin " + GCBENCH_FAULT_GPU_PLUGIN +
      " --codecs faulty-gpu,fl --device gpu --fault none,skip_repeat,overflow,illegal_address "
      "--corpus synthetic:small_ints:1MiB --timing kernel --sweep defaults --no-progress "
      "--max-time 0.01 --out-dir " +
      out.string() + " 2>&1";
  std::string log;
  FILE* p = ::popen(command.c_str(), "r");
  ASSERT_NE(p, nullptr);
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) log.append(buf, n);
  const int status = ::pclose(p);
  ASSERT_TRUE(WIFEXITED(status)) << log;
  EXPECT_EQ(WEXITSTATUS(status), 1) << log;
  EXPECT_NE(log.find("the CUDA context is lost"), std::string::npos) << log;
  std::map<std::string, std::pair<std::string, bool>> cells;  // name -> error, verified
  for (const fs::path& file : results::json_files_under(out)) {
    const nlohmann::json doc = results::read_json_file(file);
    for (const nlohmann::json& b : doc["benchmarks"]) {
      cells[b["name"]] = {b.value("error_message", ""), b.value("verified", 0.0) == 1.0};
    }
  }
  ASSERT_GE(cells.size(), 10u) << log;  // 4 faults and fl, each both ways
  for (const auto& [cell, found] : cells) {
    const auto& [error, verified] = found;
    const bool good = cell.starts_with("fl/") || cell.find("fault:none") != std::string::npos;
    EXPECT_EQ(verified, good) << cell << ": " << error;
    if (cell.find("fault:skip_repeat") != std::string::npos) {
      // Caught at its first repeated call: a timed one, or already the cell's checked first
      // call when the allocator gave its buffers the addresses of the call before it.
      EXPECT_TRUE(error.starts_with("timed call ") ||
                  error.starts_with("decompressed output differs from the input"))
          << cell << ": " << error;
    } else if (cell.find("fault:overflow") != std::string::npos) {
      // Past a timed call's output the guard catches it; past the round trip's own buffer
      // (no guard) CUDA refuses the plugin's write, and the plugin's error names it.
      EXPECT_TRUE(error.find("wrote past its output buffer") != std::string::npos ||
                  error.find("[plugin ") != std::string::npos)
          << cell << ": " << error;
    } else if (cell.find("fault:illegal_address") != std::string::npos) {
      EXPECT_NE(error, "") << cell;
    }
  }
  fs::remove_all(out);
#else
  GTEST_SKIP() << "built without the driver";
#endif
}

}  // namespace
}  // namespace gcbench
