// The report's GPU throughput table, kernel vs end to end: input-weighted corpus aggregates,
// percentages recomputed from them and the run's ceilings, blanks with reasons, and the
// section appearing only when cells carry kernel_gbps.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include <nlohmann/json.hpp>

#include "reports/gpu_e2e.hpp"
#include "reports/render.hpp"
#include "reports/report.hpp"
#include "reports/results.hpp"
#include "tests/support/result_rows.hpp"

namespace gcbench::reports {
namespace {

using json = nlohmann::json;

const Defaults kDefaults = {{"fl/gpu", {{"frame_size", "1024"}, {"element_width", "1"}}},
                            {"fl/cpu", {{"frame_size", "1024"}, {"element_width", "1"}}}};

json row(const std::string& name, const json& counters) {
  return gcbench::testing::result_row(name, counters);
}

json gpu_counters(double input, double kernel, double e2e, double pageable) {
  // The cells' own percentages are per file: the table must not average them.
  json c = {{"input_bytes", input}, {"kernel_gbps", kernel}, {"e2e_gbps", e2e},
            {"pct_copy", 99.0},     {"pct_h2d", 99.0},       {"verified", 1}};
  if (pageable > 0) c["e2e_pageable_gbps"] = pageable;
  return c;
}

// Two files (1000 and 3000 bytes); ceilings: copy 2000 GB/s, pinned H2D 50 GB/s.
json sample() {
  auto name = [](const std::string& direction, const std::string& file, const std::string& fs) {
    return "fl/gpu/" + direction + "/cant/" + file + "/frame_size:" + fs + "/element_width:1";
  };
  json b = json::array();
  // Compress: seconds 1e-8 + 1e-8 (kernel), 1e-7 + 1e-7 (e2e), 2e-7 + 1e-6 (pageable).
  b.push_back(row(name("compress", "a.txt", "1024"), gpu_counters(1000, 100, 10, 5)));
  b.push_back(row(name("compress", "b.txt", "1024"), gpu_counters(3000, 300, 30, 3)));
  // Decompress: kernel 1e-9 + 1e-9, e2e 5e-8 + 5e-8, pageable 8 GB/s on both.
  b.push_back(row(name("decompress", "a.txt", "1024"), gpu_counters(1000, 1000, 20, 8)));
  b.push_back(row(name("decompress", "b.txt", "1024"), gpu_counters(3000, 3000, 60, 8)));
  // A non-default frame size: no pageable counter, and b.txt failed.
  b.push_back(row(name("compress", "a.txt", "4096"), gpu_counters(1000, 50, 5, 0)));
  b.push_back({{"name", name("compress", "b.txt", "4096")},
               {"run_name", name("compress", "b.txt", "4096")},
               {"run_type", "iteration"},
               {"error_occurred", true},
               {"error_message", "decompressed output differs"}});
  // CPU cells are not in the table.
  b.push_back(row("fl/cpu/compress/cant/a.txt/frame_size:1024/element_width:1",
                  {{"input_bytes", 1000}, {"e2e_s", 0.001}}));
  return {
      {"context", {{"gpu", "NVIDIA H200"}, {"copy_gbps", "2000.00"}, {"h2d_pinned_gbps", "50.00"}}},
      {"benchmarks", b}};
}

ResultSet set_of(const json& doc) {
  ResultSet set;
  add_results(set, doc);
  return set;
}

TEST(GpuE2e, WeightsByInputBytesAndRecomputesThePercentages) {
  const auto t = gpu_e2e_table(set_of(sample()), kDefaults, "cant");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->id, "gpu_e2e");
  EXPECT_EQ(t->title, "GPU throughput: kernel vs end-to-end, cant");
  // Compress: 4000 B / 2e-8 s = 200 GB/s kernel (10% of 2000), 20 GB/s e2e (40% of 50).
  EXPECT_EQ(to_csv(*t),
            "codec,direction,kernel_gbps,e2e_gbps,e2e_pageable_gbps,pct_copy,pct_h2d,reason\n"
            "fl,compress,200,20,3.333,10,40,\n"
            "fl,decompress,2000,40,8,100,80,\n"
            "fl/frame_size:4096,compress,50,5,,2.5,10,"
            "no e2e_pageable_gbps counter on 1 of 1 files\n");
  ASSERT_EQ(t->rows.size(), 3u);
  EXPECT_DOUBLE_EQ(*t->rows[0].values[0].value, 200.0);
  EXPECT_DOUBLE_EQ(*t->rows[0].values[2].value, 4000.0 / 1.2e-6 / 1e9);
  EXPECT_DOUBLE_EQ(*t->rows[0].values[3].value, 10.0);
  EXPECT_DOUBLE_EQ(*t->rows[0].values[4].value, 40.0);
  EXPECT_NE(t->caption.find("device-to-device copy (2000.00 GB/s)"), std::string::npos)
      << t->caption;
  EXPECT_NE(t->caption.find("host-to-device copy (50.00 GB/s)"), std::string::npos);
  EXPECT_NE(t->caption.find("Failed cells, left out: fl/frame_size:4096 compress (b.txt)."),
            std::string::npos)
      << t->caption;
}

TEST(GpuE2e, CaptionSaysWhetherKernelFiguresAreWarmOrCold) {
  const auto warm = gpu_e2e_table(set_of(sample()), kDefaults, "cant");
  ASSERT_TRUE(warm);
  EXPECT_NE(warm->caption.find("Kernel figures are warm"), std::string::npos) << warm->caption;
  json cold_doc = sample();
  cold_doc["context"]["cold_l2"] = "yes: before every timed GPU kernel call";
  const auto cold = gpu_e2e_table(set_of(cold_doc), kDefaults, "cant");
  ASSERT_TRUE(cold);
  EXPECT_NE(cold->caption.find("Kernel figures are cold"), std::string::npos) << cold->caption;
  EXPECT_EQ(cold->caption.find("warm"), std::string::npos) << cold->caption;
}

TEST(GpuE2e, MarkdownHasTheDirectionColumn) {
  const auto t = gpu_e2e_table(set_of(sample()), kDefaults, "cant");
  ASSERT_TRUE(t);
  const std::string md = to_markdown(*t);
  EXPECT_TRUE(
      md.starts_with("| codec | direction | kernel [GB/s] | end-to-end, pinned [GB/s] | "
                     "end-to-end, pageable [GB/s] | kernel, % of copy | end-to-end, % of pinned "
                     "H2D |\n|---|---|---:|"))
      << md;
  EXPECT_NE(md.find("| fl | decompress | 2000 | 40 | 8 | 100 | 80 |"), std::string::npos) << md;
  EXPECT_NE(to_latex(*t).find("\\begin{tabular}{llrrrrr}"), std::string::npos);
}

TEST(GpuE2e, PercentagesAreBlankWithoutTheCeilings) {
  json doc = sample();
  doc["context"].erase("copy_gbps");
  doc["context"].erase("h2d_pinned_gbps");
  auto t = gpu_e2e_table(set_of(doc), kDefaults, "cant");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->rows[0].values[3].reason, "no copy_gbps in the run context");
  EXPECT_DOUBLE_EQ(*t->rows[0].values[1].value, 20.0);  // the GB/s columns stay

  doc["context"]["ceilings"] = "unavailable: out of memory";
  t = gpu_e2e_table(set_of(doc), kDefaults, "cant");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->rows[0].values[4].reason, "ceilings unavailable: out of memory");
}

TEST(GpuE2e, NoTableWithoutKernelGbps) {
  json doc = sample();
  for (json& b : doc["benchmarks"]) b.erase("kernel_gbps");
  EXPECT_FALSE(gpu_e2e_table(set_of(doc), kDefaults, "cant"));
  EXPECT_FALSE(gpu_e2e_table(set_of(sample()), kDefaults, "other_corpus"));
}

// A kernel-only run (--timing kernel) records no end-to-end counters: the table keeps the
// kernel columns and leaves the end-to-end ones out (no blank or zero figures), and says why.
TEST(GpuE2e, KernelOnlyCellsLeaveTheEndToEndColumnsOut) {
  json doc = sample();
  for (json& b : doc["benchmarks"]) {
    for (const char* counter : {"e2e_gbps", "e2e_pageable_gbps", "pct_h2d"}) b.erase(counter);
  }
  const auto t = gpu_e2e_table(set_of(doc), kDefaults, "cant");
  ASSERT_TRUE(t);
  EXPECT_EQ(to_csv(*t),
            "codec,direction,kernel_gbps,pct_copy,reason\n"
            "fl,compress,200,10,\n"
            "fl,decompress,2000,100,\n"
            "fl/frame_size:4096,compress,50,2.5,\n");
  EXPECT_NE(t->caption.find("No end-to-end columns: the cells were timed kernel-only"),
            std::string::npos)
      << t->caption;
  // Beside cells with every timing, a kernel-only one is a blank with its reason, not a 0.
  json mixed = sample();
  mixed["benchmarks"][0].erase("e2e_gbps");
  const auto m = gpu_e2e_table(set_of(mixed), kDefaults, "cant");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->columns.size(), 5u);
  EXPECT_FALSE(m->rows[0].values[1].value);
  EXPECT_EQ(m->rows[0].values[1].reason, "no e2e_gbps counter on 1 of 2 files");
  EXPECT_EQ(m->caption.find("No end-to-end columns"), std::string::npos);
}

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(GpuE2e, ReportHasTheSectionAndItsCsvOnlyWithKernelGbps) {
  const auto dir = std::filesystem::temp_directory_path() / "gcbench_report_e2e_test";
  std::filesystem::remove_all(dir);
  const WrittenReport w = write_report(set_of(sample()), ReportOptions{dir, kDefaults, {}});
  EXPECT_NE(read(w.index).find("### GPU throughput: kernel vs end-to-end, cant"),
            std::string::npos);
  EXPECT_TRUE(read(dir / "cant" / "gpu_e2e.csv").starts_with("codec,direction,kernel_gbps,"));
  EXPECT_TRUE(std::filesystem::exists(dir / "cant" / "gpu_e2e.tex"));

  std::filesystem::remove_all(dir);
  json doc = sample();
  for (json& b : doc["benchmarks"]) b.erase("kernel_gbps");
  const WrittenReport without = write_report(set_of(doc), ReportOptions{dir, kDefaults, {}});
  EXPECT_EQ(read(without.index).find("GPU throughput: kernel vs end-to-end"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir / "cant" / "gpu_e2e.csv"));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace gcbench::reports
