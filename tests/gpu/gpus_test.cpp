// gcbench --gpus on this machine's GPUs (a small synthetic sweep of FL and RLE at their
// defaults): the same cells as a plain run, every one verified, each GPU cell naming the GPU
// it ran on (index, name, PCI bus id, UUID); a rerun resumes every worker; a GPU index the
// host does not have is a clear error; --gpu-replicas runs every GPU cell on every GPU. Skipped,
// saying why, without a GPU or the driver.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "bench/driver/context.hpp"
#include "bench/driver/gpus.hpp"
#include "src/results/result_files.hpp"

namespace gcbench::driver {
namespace {
namespace fs = std::filesystem;
using json = nlohmann::json;

struct DriverRun {
  int status = -1;
  std::string output;  // stdout and stderr
};

DriverRun run(const std::string& args) {
#ifdef GCBENCH_DRIVER
  const std::string command = std::string(GCBENCH_DRIVER) +
                              " --corpus synthetic:runs:4MiB,synthetic:small_ints:4MiB "
                              "--codecs fl,rle --sweep defaults --no-progress "
                              "--benchmark_min_time=0.001" GCBENCH_BENCHMARK_MIN_TIME_SUFFIX " " +
                              args + " 2>&1";
  DriverRun r;
  FILE* p = ::popen(command.c_str(), "r");
  if (p == nullptr) return r;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) r.output.append(buf, n);
  const int status = ::pclose(p);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
#else
  (void)args;
  return {};
#endif
}

// Every entry recorded under `dir` (hidden folders, the workers', left out).
std::vector<json> entries_under(const fs::path& dir) {
  std::vector<json> entries;
  for (const fs::path& file : results::json_files_under(dir)) {
    const json doc = json::parse(std::ifstream(file));
    for (const json& b : doc["benchmarks"]) entries.push_back(b);
  }
  return entries;
}

std::multiset<std::string> cell_names(const std::vector<json>& entries) {
  std::multiset<std::string> names;
  for (const json& b : entries) names.insert(b["run_name"].get<std::string>());
  return names;
}

class GpusOnDevice : public ::testing::Test {
 protected:
  void SetUp() override {
#ifndef GCBENCH_DRIVER
    GTEST_SKIP() << "built without the gcbench driver (GCBENCH_BUILD_BENCH=OFF)";
#endif
    try {
      gpus_ = number_by_bus(list_gpus());
    } catch (const std::runtime_error& e) {
      GTEST_SKIP() << "no usable GPU: " << e.what();
    }
    dir_ = fs::temp_directory_path() / ("gcbench_gpus_" + std::to_string(getpid()));
    fs::remove_all(dir_);
  }
  void TearDown() override {
    fs::remove_all(dir_);
  }

  std::vector<GpuIdentity> gpus_;
  fs::path dir_;
};

TEST_F(GpusOnDevice, AllGpusRunThePlainRunsCellsEachNamingItsGpu) {
  const DriverRun plain = run("--out-dir " + (dir_ / "plain").string());
  ASSERT_EQ(plain.status, 0) << plain.output;
  const DriverRun all = run("--gpus all --out-dir " + (dir_ / "all").string());
  ASSERT_EQ(all.status, 0) << all.output;
  EXPECT_NE(all.output.find("[gpu0] "), std::string::npos) << all.output;
  EXPECT_NE(all.output.find("workers done in"), std::string::npos) << all.output;

  const std::vector<json> entries = entries_under(dir_ / "all");
  EXPECT_EQ(cell_names(entries), cell_names(entries_under(dir_ / "plain")));
  std::set<std::string> uuids;
  for (const GpuIdentity& g : gpus_) uuids.insert(g.uuid);
  std::size_t gpu_cells = 0;
  for (const json& b : entries) {
    const std::string name = b["run_name"];
    EXPECT_FALSE(b.value("error_occurred", false)) << name << ": " << b.value("error_message", "");
    EXPECT_EQ(b.value("verified", 0.0), 1.0) << name;
    if (name.find("/gpu/") == std::string::npos) {
      EXPECT_FALSE(b.contains("gpu")) << name;
      continue;
    }
    ++gpu_cells;
    ASSERT_TRUE(b.contains("gpu")) << name;
    const json& gpu = b["gpu"];
    const int index = gpu["index"];
    ASSERT_GE(index, 0);
    ASSERT_LT(index, static_cast<int>(gpus_.size()));
    const GpuIdentity& expected = gpus_[static_cast<std::size_t>(index)];
    EXPECT_EQ(gpu["name"], expected.name) << name;
    EXPECT_EQ(gpu["pci_bus_id"], expected.pci_bus_id) << name;
    EXPECT_EQ(gpu["uuid"], expected.uuid) << name;
    EXPECT_EQ(b["provenance"]["gpu_uuid"], expected.uuid) << name;
  }
  EXPECT_GT(gpu_cells, 0u);

  const DriverRun again = run("--gpus all --out-dir " + (dir_ / "all").string());
  ASSERT_EQ(again.status, 0) << again.output;
  EXPECT_NE(again.output.find("[gpu0] [gcbench] no cells to run"), std::string::npos)
      << again.output;
  EXPECT_EQ(cell_names(entries_under(dir_ / "all")), cell_names(entries));
}

TEST_F(GpusOnDevice, ReplicasRunEveryGpuCellOnEveryGpu) {
  const DriverRun plain = run("--device gpu --out-dir " + (dir_ / "plain").string());
  ASSERT_EQ(plain.status, 0) << plain.output;
  const fs::path harness = dir_ / "harness.txt";
  const DriverRun all = run("--device gpu --gpus=all --gpu-replicas --harness-file " +
                            harness.string() + " --out-dir " + (dir_ / "all").string());
  ASSERT_EQ(all.status, 0) << all.output;
  // Each plain cell once per GPU, each GPU's entries naming it.
  std::multiset<std::string> want;
  for (const std::string& name : cell_names(entries_under(dir_ / "plain"))) {
    for (std::size_t g = 0; g < gpus_.size(); ++g) want.insert(name);
  }
  const std::vector<json> entries = entries_under(dir_ / "all");
  EXPECT_EQ(cell_names(entries), want);
  std::map<std::string, std::set<int>> gpus_of;
  for (const json& b : entries) {
    EXPECT_EQ(b.value("verified", 0.0), 1.0) << b["run_name"];
    gpus_of[b["run_name"]].insert(b["gpu"]["index"].get<int>());
  }
  for (const auto& [name, gpus] : gpus_of) EXPECT_EQ(gpus.size(), gpus_.size()) << name;
  std::ifstream lines(harness);
  std::string line, extra;
  ASSERT_TRUE(std::getline(lines, line));
  EXPECT_FALSE(std::getline(lines, extra)) << "one harness line for the run: " << extra;
}

TEST_F(GpusOnDevice, AnIndexTheHostDoesNotHaveIsAClearError) {
  const DriverRun r = run("--gpus 99 --out-dir " + (dir_ / "none").string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(
      r.output.find("there is no GPU 99 on this host; it has " + std::to_string(gpus_.size())),
      std::string::npos)
      << r.output;
  EXPECT_FALSE(fs::exists(dir_ / "none"));
}

}  // namespace
}  // namespace gcbench::driver
