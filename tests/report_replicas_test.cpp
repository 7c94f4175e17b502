// The report of GPU replicas (gcbench --gpu-replicas): a file whose context names its replicas
// keeps one measurement per (cell, GPU), the other tables read the lowest-numbered GPU's, and
// the spread tables show each GPU's figures and their spread; a file without the key reads as
// before, its repeated entries one cell.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include <nlohmann/json.hpp>

#include "reports/gpu_e2e.hpp"
#include "reports/gpu_replicas.hpp"
#include "reports/render.hpp"
#include "reports/report.hpp"
#include "reports/results.hpp"
#include "tests/support/result_rows.hpp"

namespace gcbench::reports {
namespace {

using json = nlohmann::json;

const Defaults kDefaults = {{"fl/gpu", {{"frame_size", "1024"}, {"element_width", "1"}}}};

std::string cell(const std::string& direction, const std::string& file) {
  return "fl/gpu/" + direction + "/cant/" + file + "/frame_size:1024/element_width:1";
}

json on_gpu(const std::string& name, int gpu, double input, double kernel, double e2e) {
  json r = gcbench::testing::result_row(
      name, {{"input_bytes", input}, {"kernel_gbps", kernel}, {"e2e_gbps", e2e}});
  r["gpu"] = {{"index", gpu},
              {"name", "NVIDIA H200"},
              {"pci_bus_id", gpu == 0 ? "0000:1B:00.0" : "0000:9C:00.0"},
              {"uuid", "GPU-" + std::to_string(gpu)}};
  return r;
}

// Two files (1000 and 3000 bytes) compressed on GPUs 0 and 1, GPU 1 faster on b.txt; one
// decompression cell measured on GPU 1 alone, after GPU 0's entries of a.txt.
json replicas() {
  json b = json::array();
  b.push_back(on_gpu(cell("compress", "a.txt"), 0, 1000, 100, 10));
  b.push_back(on_gpu(cell("compress", "a.txt"), 1, 1000, 100, 10));
  b.push_back(on_gpu(cell("compress", "b.txt"), 1, 3000, 330, 36));
  b.push_back(on_gpu(cell("compress", "b.txt"), 0, 3000, 300, 30));
  b.push_back(on_gpu(cell("decompress", "a.txt"), 1, 1000, 500, 20));
  return {{"context", {{"gpu", "NVIDIA H200"}, {"gpu_replicas", "0,1"}}}, {"benchmarks", b}};
}

ResultSet set_of(const json& doc) {
  ResultSet set;
  add_results(set, doc);
  return set;
}

TEST(GpuReplicas, OneMeasurementPerCellAndGpuTheTablesReadTheLowestGpu) {
  const ResultSet set = set_of(replicas());
  ASSERT_EQ(set.replicas.size(), 5u);
  ASSERT_EQ(set.cells.size(), 3u);
  for (const Measurement& m : set.cells) {
    ASSERT_TRUE(m.gpu);
    EXPECT_EQ(m.gpu->index, m.id.direction == "compress" ? 0 : 1) << m.id.file;
  }
  // The GPU throughput table reads GPU 0's compression: 4000 B / (1e-8 + 1e-8 s).
  const auto e2e = gpu_e2e_table(set, kDefaults, "cant");
  ASSERT_TRUE(e2e);
  EXPECT_DOUBLE_EQ(*e2e->rows[0].values[0].value, 200.0);
}

TEST(GpuReplicas, WithoutTheContextKeyRepeatedEntriesAreOneCell) {
  json doc = replicas();
  doc["context"].erase("gpu_replicas");
  const ResultSet set = set_of(doc);
  EXPECT_TRUE(set.replicas.empty());
  EXPECT_EQ(set.cells.size(), 3u);
  ASSERT_TRUE(set.cells[0].gpu);  // a GPU cell records its GPU: its first entry's
  EXPECT_EQ(set.cells[0].gpu->index, 0);
  EXPECT_FALSE(gpu_replicas_table(set, kDefaults, "cant"));
  EXPECT_FALSE(gpu_replicas_summary(set, kDefaults, "cant"));
}

TEST(GpuReplicas, PerCellTableHasEachGpusFiguresAndTheirSpread) {
  const auto t = gpu_replicas_table(set_of(replicas()), kDefaults, "cant");
  ASSERT_TRUE(t);
  EXPECT_EQ(to_csv(*t),
            "codec,direction,file,gpu0_kernel_gbps,gpu1_kernel_gbps,kernel_gbps_spread_pct,"
            "gpu0_e2e_gbps,gpu1_e2e_gbps,e2e_gbps_spread_pct,reason\n"
            "fl,compress,a.txt,100,100,0,10,10,0,\n"
            "fl,compress,b.txt,300,330,10,30,36,20,\n"
            "fl,decompress,a.txt,,500,,,20,,not measured on this GPU (gpu0_kernel_gbps "
            "gpu0_e2e_gbps); fewer than two GPUs with a value (kernel_gbps_spread_pct "
            "e2e_gbps_spread_pct)\n");
  EXPECT_NE(t->caption.find("GPU 0: NVIDIA H200 (0000:1B:00.0); GPU 1: NVIDIA H200 "
                            "(0000:9C:00.0)"),
            std::string::npos)
      << t->caption;
}

TEST(GpuReplicas, SummaryWeighsEachGpuByInputBytes) {
  const auto t = gpu_replicas_summary(set_of(replicas()), kDefaults, "cant");
  ASSERT_TRUE(t);
  ASSERT_EQ(t->rows.size(), 2u);
  // GPU 0: 4000 B / (1e-8 + 1e-8 s) = 200 GB/s; GPU 1: 4000 / (1e-8 + 3000 / 330e9).
  const double gpu1 = 4000 / (1e-8 + 3000 / 330e9) / 1e9;
  EXPECT_DOUBLE_EQ(*t->rows[0].values[0].value, 200.0);
  EXPECT_DOUBLE_EQ(*t->rows[0].values[1].value, gpu1);
  EXPECT_DOUBLE_EQ(*t->rows[0].values[2].value, 100 * (gpu1 / 200.0 - 1));
  EXPECT_NEAR(*t->rows[0].values[6].value, 10.0, 1e-9);  // the largest cell kernel spread
  EXPECT_EQ(t->rows[1].texts, (std::vector<std::string>{"decompress"}));
  EXPECT_FALSE(t->rows[1].values[2].value);
}

TEST(GpuReplicas, SpreadIsMaxOverMinLessOne) {
  EXPECT_DOUBLE_EQ(*spread_percent({Value::of(2), Value::of(3), Value::of(2.5)}).value, 50.0);
  EXPECT_FALSE(spread_percent({Value::of(2), Value::blank("failed")}).value);
}

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(GpuReplicas, ReportShowsTheSpreadTablesOnlyForReplicas) {
  const auto dir = std::filesystem::temp_directory_path() / "gcbench_report_replicas_test";
  std::filesystem::remove_all(dir);
  const WrittenReport w = write_report(set_of(replicas()), ReportOptions{dir, kDefaults, {}});
  const std::string md = read(w.index);
  EXPECT_NE(md.find("GPU replicas: each GPU cell was measured on GPUs 0,1"), std::string::npos);
  EXPECT_NE(md.find("### GPU-to-GPU spread per codec, cant"), std::string::npos) << md;
  EXPECT_NE(md.find("### GPU-to-GPU spread per cell, cant"), std::string::npos) << md;
  EXPECT_TRUE(std::filesystem::exists(dir / "cant" / "gpu_replicas.csv"));
  EXPECT_TRUE(std::filesystem::exists(dir / "cant" / "gpu_replicas_summary.csv"));

  json doc = replicas();
  doc["context"].erase("gpu_replicas");
  const WrittenReport without = write_report(set_of(doc), ReportOptions{dir, kDefaults, {}});
  EXPECT_EQ(read(without.index).find("GPU-to-GPU"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir / "cant" / "gpu_replicas.csv"));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace gcbench::reports
