// Shards measured on different GPU models (tests/data/gpu_models: two recorded shards of one
// sweep, shard 1 on an H100, shard 2 on an A100, each GPU cell's entry naming its GPU): the
// merge notes the difference, and the report keeps each model's figures apart: a GPU column per
// model in the file tables (no total mixes them), a row per model in the GPU throughput table,
// the model in every GPU variant's label, the models in the introduction. The same shards on
// one model read as before.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <nlohmann/json.hpp>

#include "reports/gpu_e2e.hpp"
#include "reports/kernels.hpp"
#include "reports/render.hpp"
#include "reports/report.hpp"
#include "reports/results.hpp"
#include "reports/variants.hpp"
#include "src/results/shard_merge.hpp"
#include "studies/main_job.hpp"
#include "support/test_folder.hpp"

namespace gcbench::reports {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const std::string kH100 = "NVIDIA H100 80GB HBM3";
const std::string kA100 = "NVIDIA A100-SXM4-80GB";
const fs::path kShards = fs::path(GCBENCH_TEST_DATA) / "gpu_models";

std::string read(const fs::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class GpuModels : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = gcbench::testing::fresh_test_folder("gcbench-gpu-models");
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  // The recorded shards merged, as gcbench-report --merge-shards merges them; with
  // `one_model`, shard 2's GPU renamed to shard 1's first (one machine type throughout).
  ResultSet merged(bool one_model = false) {
    std::vector<fs::path> inputs;
    for (const char* shard : {"shard-1", "shard-2"}) {
      fs::copy(kShards / shard, root_ / shard, fs::copy_options::recursive);
      inputs.push_back(root_ / shard);
    }
    if (one_model) {
      for (const char* file : {"a.txt.json", "b.txt.json"}) {
        const fs::path path = root_ / "shard-2" / "cant" / file;
        std::string text = read(path);
        for (std::size_t at; (at = text.find(kA100)) != std::string::npos;)
          text.replace(at, kA100.size(), kH100);
        std::ofstream(path) << text;
      }
    }
    result_ = results::merge_shards(inputs, root_ / "merged", {});
    return load_results({root_ / "merged"});
  }

  fs::path root_;
  results::ShardMergeResult result_;
};

TEST_F(GpuModels, TheMergeNotesTheModelsAndEachCellKeepsItsGpu) {
  const ResultSet set = merged();
  EXPECT_NE(
      std::find(result_.notes.begin(), result_.notes.end(),
                "the inputs differ in gpu: '" + kA100 + "' in " + (root_ / "shard-2").string() +
                    "; '" + kH100 + "' in " + (root_ / "shard-1").string()),
      result_.notes.end())
      << ::testing::PrintToString(result_.notes);
  EXPECT_EQ(set.context.at("merged_differs:gpu"), kA100 + " | " + kH100);
  EXPECT_EQ(gpu_models(set, "cant"), (std::vector<std::string>{kA100, kH100}));
}

TEST_F(GpuModels, FileTablesGiveEachModelItsOwnGpuColumnsAndNoMixedTotal) {
  const ResultSet set = merged();
  const TableBuilder b(set, {}, "cant", set.files_of("cant"));
  const Table t =
      b.make("t", "T", "Caption.",
             {col("GPU kernel", "gpu_kernel_s", Unit::seconds,
                  q("fl", "gpu", "compress", {}, Quantity::kernel)),
              col("CPU", "cpu_s", Unit::seconds, q("fl", "cpu", "compress", {}, Quantity::time))});
  EXPECT_EQ(to_csv(t),
            "file,nvidia_a100_sxm4_80gb_gpu_kernel_s,nvidia_h100_80gb_hbm3_gpu_kernel_s,cpu_s,"
            "reason\n"
            "a.txt,,0.00000001,0.001,measured on " +
                kH100 + "\nb.txt,0.00000006,,0.001,measured on " + kA100 +
                "\ntotal,,,0.002,measured on " + kH100 +
                " (nvidia_a100_sxm4_80gb_gpu_kernel_s); measured on " + kA100 +
                " (nvidia_h100_80gb_hbm3_gpu_kernel_s)\n");
  EXPECT_EQ(t.columns[0].header, "GPU kernel (" + kA100 + ")");
  EXPECT_NE(
      t.caption.find("each GPU column is split into one per model (" + kA100 + ", " + kH100 + ")"),
      std::string::npos)
      << t.caption;
  // The main job's headline (what the Slurm merge job prints) is split the same way.
  const Table summary = studies::summary_table(b);
  EXPECT_TRUE(std::any_of(summary.columns.begin(), summary.columns.end(), [&](const Column& c) {
    return c.header == "fl GPU end-to-end time (" + kA100 + ")";
  }));
}

TEST_F(GpuModels, AggregateTablesKeepAModelPerRow) {
  const ResultSet set = merged();
  const Defaults defaults = {{"fl/gpu", {{"element_width", "1"}, {"frame_size", "1024"}}}};
  const auto e2e = gpu_e2e_table(set, defaults, "cant");
  ASSERT_TRUE(e2e);
  std::vector<std::pair<std::string, std::string>> rows;  // (codec, direction)
  for (const Row& r : e2e->rows) rows.emplace_back(r.label, r.texts.at(0));
  EXPECT_EQ(rows, (std::vector<std::pair<std::string, std::string>>{
                      {"fl/gpu_model:" + kA100, "compress"},
                      {"fl/gpu_model:" + kA100, "decompress"},
                      {"fl/gpu_model:" + kH100, "compress"},
                      {"fl/gpu_model:" + kH100, "decompress"}}));
  // Each row is its model's one file, never the two files' mix (4000 B over both kernels).
  EXPECT_DOUBLE_EQ(*e2e->rows[0].values[0].value, 50.0);
  EXPECT_DOUBLE_EQ(*e2e->rows[2].values[0].value, 100.0);
  // The ceilings are the merged context's (shard 1's, the H100's): not the A100 rows'.
  EXPECT_FALSE(e2e->rows[0].values[3].value);
  EXPECT_EQ(e2e->rows[0].values[3].reason, "the run's ceilings are another GPU model's");
  EXPECT_DOUBLE_EQ(*e2e->rows[2].values[3].value, 100 * 100.0 / 2500);
  // Every variant's corpus total: the CPU over both files; a GPU model measured one file of
  // each direction, so neither GPU variant has a total, and the caption says why.
  const Table variants = variants_table(set, "cant");
  ASSERT_EQ(variants.rows.size(), 1u);
  EXPECT_EQ(variants.rows[0].label, "fl/cpu/element_width:1/frame_size:1024");
  EXPECT_NE(variants.caption.find("fl/gpu/element_width:1/frame_size:1024/gpu_model:" + kA100),
            std::string::npos)
      << variants.caption;
  EXPECT_NE(variants.caption.find("split by the model that measured it"), std::string::npos);
}

TEST_F(GpuModels, TheReportNamesTheModels) {
  const ResultSet set = merged();
  const fs::path dir = root_ / "report";
  const WrittenReport w = write_report(set, ReportOptions{dir, {}, {}});
  const std::string md = read(w.index);
  EXPECT_NE(md.find("GPU: several models, each kept apart in the tables: " + kA100 +
                    " (2 cells), " + kH100 + " (2 cells)."),
            std::string::npos)
      << md;
  const std::string csv = read(dir / "cant" / "gpu_e2e.csv");
  EXPECT_NE(csv.find("fl/gpu_model:" + kA100 + ",compress,50,"), std::string::npos) << csv;
}

TEST_F(GpuModels, OneModelReadsAsBefore) {
  const ResultSet set = merged(true);
  EXPECT_EQ(gpu_models(set, "cant"), (std::vector<std::string>{kH100}));
  const TableBuilder b(set, {}, "cant", set.files_of("cant"));
  const Table t = b.make("t", "T", "Caption.",
                         {col("GPU kernel", "gpu_kernel_s", Unit::seconds,
                              q("fl", "gpu", "compress", {}, Quantity::kernel))});
  EXPECT_EQ(to_csv(t),
            "file,gpu_kernel_s,reason\na.txt,0.00000001,\nb.txt,0.00000006,\ntotal,0.00000007,\n");
  const auto e2e = gpu_e2e_table(set, {}, "cant");
  ASSERT_TRUE(e2e);
  EXPECT_EQ(e2e->rows[0].label.find("gpu_model"), std::string::npos) << e2e->rows[0].label;
  const fs::path dir = root_ / "report";
  const std::string md = read(write_report(set, ReportOptions{dir, {}, {}}).index);
  EXPECT_NE(md.find("GPU: " + kH100 + "."), std::string::npos) << md;
}

}  // namespace
}  // namespace gcbench::reports
