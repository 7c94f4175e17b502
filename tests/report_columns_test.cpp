// The report's column table (issue 43): for a typed corpus (its context says so), per file and
// GPU codec variant the width, size, ratio and kernel and end-to-end GB/s both ways; no table
// for other corpora; its plots of ratio against throughput, drawn from its CSV (skipped, with
// the reason, where no python3 imports matplotlib).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "reports/columns.hpp"
#include "reports/plots.hpp"
#include "reports/render.hpp"
#include "reports/report.hpp"
#include "reports/results.hpp"
#include "tests/support/result_rows.hpp"

namespace gcbench::reports {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const Defaults kDefaults = {{"fl/gpu", {{"element_width", "1"}, {"frame_size", "1024"}}},
                            {"rle/gpu", {{"element_width", "1"}, {"decode", "scan"}}}};

json cell(const std::string& codec, const std::string& direction, const std::string& file,
          const std::string& axes, double compressed, double kernel, double e2e) {
  return gcbench::testing::result_row(
      codec + "/gpu/" + direction + "/tpch-sf1/" + file + "/" + axes,
      {{"input_bytes", 4e6},
       {"compressed_bytes", compressed},
       {"kernel_gbps", kernel},
       {"e2e_gbps", e2e}});
}

// Two columns of a typed corpus: fl both ways on both, rle's two decoders on the first, an
// rle compression that failed on the second.
json sample(bool typed) {
  json context = {{"gpu", "NVIDIA H100"}};
  if (typed) context[std::string(results::kTypedCorpusKey) + "tpch-sf1"] = "2 typed inputs";
  json b = json::array();
  for (const char* file : {"lineitem.orderkey.4", "lineitem.tax.1"}) {
    const std::string width = std::string(file).back() == '4' ? "4" : "1";
    b.push_back(
        cell("fl", "compress", file, "element_width:" + width + "/frame_size:1024", 2e6, 1000, 40));
    b.push_back(cell("fl", "decompress", file, "element_width:" + width + "/frame_size:1024", 2e6,
                     1200, 45));
  }
  b.push_back(
      cell("rle", "compress", "lineitem.orderkey.4", "element_width:4/decode:scan", 1e6, 900, 41));
  b.push_back(cell("rle", "decompress", "lineitem.orderkey.4", "element_width:4/decode:scan", 1e6,
                   800, 42));
  b.push_back(cell("rle", "decompress", "lineitem.orderkey.4", "element_width:4/decode:flood", 1e6,
                   850, 43));
  b.push_back({{"name",
                "rle/gpu/compress/tpch-sf1/lineitem.tax.1/element_width:1/decode:scan/"
                "manual_time"},
               {"run_name",
                "rle/gpu/compress/tpch-sf1/lineitem.tax.1/element_width:1/"
                "decode:scan/manual_time"},
               {"run_type", "iteration"},
               {"error_occurred", true},
               {"error_message", "GPU container differs"}});
  return {{"context", context}, {"benchmarks", b}};
}

ResultSet set_of(const json& doc) {
  ResultSet set;
  add_results(set, doc);
  return set;
}

TEST(ReportColumns, PerColumnAndVariantWidthSizeRatioAndBothDirections) {
  const auto t = columns_table(set_of(sample(true)), kDefaults, "tpch-sf1",
                               {"lineitem.orderkey.4", "lineitem.tax.1"});
  ASSERT_TRUE(t);
  EXPECT_EQ(t->id, "columns");
  EXPECT_EQ(to_csv(*t),
            "column,width,codec,input_bytes,ratio,compress_kernel_gbps,decompress_kernel_gbps,"
            "compress_e2e_gbps,decompress_e2e_gbps,reason\n"
            "lineitem.orderkey.4,4,fl,4000000,2.000,1000,1200,40,45,\n"
            "lineitem.orderkey.4,4,rle,4000000,4.000,900,800,41,42,\n"
            "lineitem.orderkey.4,4,rle/decode:flood,4000000,4.000,,850,,43,"
            "compression not measured\n"
            "lineitem.tax.1,1,fl,4000000,2.000,1000,1200,40,45,\n"
            "lineitem.tax.1,1,rle,,,,,,,GPU container differs\n");
}

TEST(ReportColumns, OnlyForTypedCorporaWithGpuCells) {
  EXPECT_FALSE(columns_table(set_of(sample(false)), kDefaults, "tpch-sf1", {}));
  EXPECT_FALSE(columns_table(set_of(sample(true)), kDefaults, "calgary", {}));
}

TEST(ReportColumns, ReportWritesTheTableAndItsPlots) {
  const std::vector<std::string> pythons = {"python3", "/usr/bin/python3"};
  const bool matplotlib = find_python_with_matplotlib(pythons).has_value();
  const fs::path dir = fs::temp_directory_path() / "gcbench_report_columns_test";
  fs::remove_all(dir);
  const WrittenReport w =
      write_report(set_of(sample(true)),
                   ReportOptions{dir, kDefaults, {}, PlotSetup{GCBENCH_PLOT_SCRIPT, pythons}});
  std::stringstream index;
  index << std::ifstream(w.index).rdbuf();
  EXPECT_NE(index.str().find("### Columns of tpch-sf1: ratio and GB/s per GPU codec"),
            std::string::npos)
      << index.str();
  EXPECT_TRUE(fs::exists(dir / "tpch-sf1" / "columns.csv"));
  if (!matplotlib) {
    fs::remove_all(dir);
    GTEST_SKIP() << "no python3 that imports matplotlib (Debian: python3-matplotlib): the "
                    "plots are not checked; CI installs it";
  }
  for (const std::string direction : {"compress", "decompress"}) {
    const std::string name = "columns_ratio_vs_throughput_" + direction;
    EXPECT_TRUE(fs::exists(dir / "tpch-sf1" / "plots" / (name + ".svg"))) << name;
    EXPECT_NE(index.str().find("](tpch-sf1/plots/" + name + ".svg)"), std::string::npos) << name;
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace gcbench::reports
