// The report's kernels section (issue 14): per input kernel GB/s and % of the device copy, the
// copy as the reference row, each figure marked cold or warm; written only for kernels-preset
// or --cold-l2 results; and its plots against run length and element width, drawn from its
// CSV on a fixture (skipped, with the reason, where no python3 imports matplotlib).
#include <gtest/gtest.h>

#include <algorithm>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <tuple>
#include <utility>

#include <nlohmann/json.hpp>

#include "reports/kernels.hpp"
#include "reports/plots.hpp"
#include "reports/render.hpp"
#include "reports/report.hpp"
#include "reports/results.hpp"
#include "tests/support/result_rows.hpp"

namespace gcbench::reports {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const Defaults kDefaults = {{"rle/gpu", {{"element_width", "1"}, {"decode", "scan"}}},
                            {"rle-cub/gpu", {{"element_width", "1"}, {"decode", "scan"}}}};

json row(const std::string& name, const json& counters) {
  return gcbench::testing::result_row(name, counters);
}

// RLE and rle-cub compression on runs of geometric and uniform lengths (width 4) and on
// runs-geo8 at widths 1 and 2; the rle-cub cells of the uniform inputs without pct_copy (the
// table computes it), one failed cell, and the width-1 cell warm. Device copy 1000 GB/s.
json sample(const json& context) {
  json b = json::array();
  auto cell = [&](const std::string& codec, const std::string& file, int width, double gbps,
                  json extra = json::object()) {
    const std::string name = codec + "/gpu/compress/synthetic/" + file +
                             "/element_width:" + std::to_string(width) + "/decode:scan";
    json c = {{"input_bytes", 1 << 20}, {"kernel_gbps", gbps}, {"cold_l2", 1}};
    c.update(extra);
    b.push_back(row(name, c));
  };
  for (const std::string dist : {"geo", "uni"}) {
    for (const int mean : {2, 8, 64}) {
      const std::string file = "runs-" + dist + std::to_string(mean) + "-1MiB-w4";
      cell("rle", file, 4, 100.0 * mean, {{"pct_copy", 10.0 * mean}});
      if (dist == "geo") {
        cell("rle-cub", file, 4, 300, {{"pct_copy", 30.0}});
      } else {
        cell("rle-cub", file, 4, 300);
      }
    }
  }
  cell("rle", "runs-geo8-1MiB-w2", 2, 700, {{"pct_copy", 70.0}});
  cell("rle", "runs-geo8-1MiB-w1", 1, 600, {{"pct_copy", 60.0}, {"cold_l2", 0}});
  b.push_back({{"name",
                "rle-cub/gpu/compress/synthetic/runs-geo8-1MiB-w1/element_width:1/"
                "decode:scan/manual_time"},
               {"run_name",
                "rle-cub/gpu/compress/synthetic/runs-geo8-1MiB-w1/element_width:1/"
                "decode:scan/manual_time"},
               {"run_type", "iteration"},
               {"error_occurred", true},
               {"error_message", "GPU container differs"}});
  return {{"context", context}, {"benchmarks", b}};
}

const json kKernelsContext = {
    {"gpu", "NVIDIA H100"}, {"copy_gbps", "1000.00"}, {"preset", "kernels"}};

ResultSet set_of(const json& doc) {
  ResultSet set;
  add_results(set, doc);
  return set;
}

std::string read(const fs::path& path) {
  std::stringstream s;
  s << std::ifstream(path, std::ios::binary).rdbuf();
  return s.str();
}

TEST(ReportKernels, RowsPerInputBesideTheDeviceCopyMarkedColdOrWarm) {
  const std::vector<std::string> order = {"runs-geo8-1MiB-w1", "runs-geo8-1MiB-w4"};
  const auto t = kernels_table(set_of(sample(kKernelsContext)), kDefaults, "synthetic", order);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->id, "kernels");
  const std::string csv = to_csv(*t);
  // The reference row first, then the files in the given order, then the others by name.
  EXPECT_TRUE(
      csv.starts_with("file,codec,direction,l2,kernel_gbps,pct_copy,reason\n"
                      "(reference),device copy,-,-,1000,100,\n"
                      "runs-geo8-1MiB-w1,rle,compress,warm,600,60,\n"
                      "runs-geo8-1MiB-w1,rle-cub,compress,-,,,GPU container differs\n"
                      "runs-geo8-1MiB-w4,rle-cub/element_width:4,compress,cold,300,30,\n"))
      << csv;
  // A cell without pct_copy: its kernel_gbps over the run's copy_gbps.
  EXPECT_NE(csv.find("runs-uni64-1MiB-w4,rle-cub/element_width:4,compress,cold,300,30,\n"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find("runs-uni64-1MiB-w4,rle/element_width:4,compress,cold,6400,640,\n"),
            std::string::npos)
      << csv;
  EXPECT_NE(t->caption.find("copy_gbps 1000.00 GB/s"), std::string::npos) << t->caption;
  EXPECT_NE(t->caption.find("(1 of 15 cells are warm)"), std::string::npos) << t->caption;
}

// A codec built on a library primitive (CodecInfo::reference_primitive) records the bare
// primitive's time in its cell: a (reference) row under the codec's, named from the context.
TEST(ReportKernels, ABarePrimitiveIsAReferenceRowUnderItsCodec) {
  json context = kKernelsContext;
  context["primitive:rle-cub/gpu"] = "cub::DeviceRunLengthEncode::Encode";
  json doc = {{"context", context}, {"benchmarks", json::array()}};
  doc["benchmarks"].push_back(row(
      "rle-cub/gpu/compress/synthetic/runs-uni8-1MiB-w4/element_width:4/decode:scan",
      {{"input_bytes", 1 << 20}, {"kernel_gbps", 800}, {"primitive_gbps", 1400}, {"cold_l2", 1}}));
  doc["benchmarks"].push_back(
      row("rle/gpu/compress/synthetic/runs-uni8-1MiB-w4/element_width:4/decode:scan",
          {{"input_bytes", 1 << 20}, {"kernel_gbps", 1250}, {"cold_l2", 1}}));
  const auto t = kernels_table(set_of(doc), kDefaults, "synthetic", {});
  ASSERT_TRUE(t);
  const std::string csv = to_csv(*t);
  EXPECT_NE(csv.find("runs-uni8-1MiB-w4,rle-cub/element_width:4,compress,cold,800,80,\n"
                     "runs-uni8-1MiB-w4,\"(reference) cub::DeviceRunLengthEncode::Encode, bare, "
                     "in the rle-cub/element_width:4 cell\",compress,cold,1400,140,\n"),
            std::string::npos)
      << csv;
  EXPECT_NE(t->caption.find("the bare library primitive"), std::string::npos) << t->caption;
  // Header, device copy, rle-cub and its reference, rle: the fused codec has no primitive.
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 5) << csv;
}

TEST(ReportKernels, TotalRowsForACodecOnEveryFileBytesOverTimes) {
  // Two files: chunk decode 1 MB at 100 GB/s and 3 MB at 150 GB/s, 4 MB in 30 us: 133.3 GB/s
  // (not the mean, 125). jump failed on b: its total is blank with the reason. warp compress
  // ran on a only: no total.
  const auto cell = [](const std::string& file, const std::string& axes, double bytes,
                       double gbps) {
    return row("lz77/gpu/decompress/silesia/" + file + "/" + axes,
               {{"input_bytes", bytes}, {"kernel_gbps", gbps}, {"cold_l2", 1}});
  };
  json b = {cell("a", "decode_mode:chunk", 1e6, 100), cell("b", "decode_mode:chunk", 3e6, 150),
            cell("a", "decode_mode:jump", 1e6, 20),
            row("lz77/gpu/compress/silesia/a/design:warp",
                {{"input_bytes", 1e6}, {"kernel_gbps", 8}, {"cold_l2", 1}})};
  b.push_back({{"name", "lz77/gpu/decompress/silesia/b/decode_mode:jump/manual_time"},
               {"run_name", "lz77/gpu/decompress/silesia/b/decode_mode:jump/manual_time"},
               {"run_type", "iteration"},
               {"error_occurred", true},
               {"error_message", "lz77 chunk 3: invalid triple"}});
  const auto t = kernels_table(set_of({{"context", kKernelsContext}, {"benchmarks", b}}), {},
                               "silesia", {"a", "b"});
  ASSERT_TRUE(t);
  const std::string csv = to_csv(*t);
  EXPECT_NE(csv.find("total (2 files),lz77/decode_mode:chunk,decompress,cold,133.3"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find("total (2 files),lz77/decode_mode:jump,decompress,-,,,"
                     "b: lz77 chunk 3: invalid triple\n"),
            std::string::npos)
      << csv;
  EXPECT_EQ(csv.find("total (2 files),lz77/design:warp"), std::string::npos) << csv;
  EXPECT_NE(t->caption.find("Total rows"), std::string::npos);
}

TEST(ReportKernels, NoGpuCellsNoTableAndNoCopyABlankWithItsReason) {
  EXPECT_FALSE(kernels_table(set_of(sample(kKernelsContext)), kDefaults, "silesia", {}));
  const auto t =
      kernels_table(set_of(sample({{"gpu", "NVIDIA H100"}})), kDefaults, "synthetic", {});
  ASSERT_TRUE(t);
  EXPECT_NE(to_csv(*t).find("(reference),device copy,-,-,,,no copy_gbps in the run context\n"),
            std::string::npos);
}

TEST(ReportKernels, SectionOnlyForTheKernelsPresetOrAColdL2Run) {
  EXPECT_TRUE(wants_kernels_section(set_of(sample(kKernelsContext))));
  EXPECT_TRUE(wants_kernels_section(
      set_of(sample({{"cold_l2", "yes: before every timed GPU kernel call"}}))));
  EXPECT_FALSE(wants_kernels_section(set_of(sample({{"cold_l2", "no: warm"}}))));
  EXPECT_FALSE(wants_kernels_section(set_of(sample({{"preset", "thesis"}}))));
}

TEST(ReportKernels, ReportWritesTheSectionAndPlotsAgainstRunLengthAndWidth) {
  const std::vector<std::string> pythons = {"python3", "/usr/bin/python3"};
  const bool matplotlib = find_python_with_matplotlib(pythons).has_value();
  const fs::path dir = fs::temp_directory_path() / "gcbench_report_kernels_test";
  fs::remove_all(dir);
  const WrittenReport w =
      write_report(set_of(sample(kKernelsContext)),
                   ReportOptions{dir, kDefaults, {}, PlotSetup{GCBENCH_PLOT_SCRIPT, pythons}});
  const std::string index = read(w.index);
  EXPECT_NE(index.find("### GPU kernels per input, % of the device copy, synthetic"),
            std::string::npos)
      << index;
  EXPECT_TRUE(fs::exists(dir / "synthetic" / "kernels.csv"));
  if (!matplotlib) {
    fs::remove_all(dir);
    GTEST_SKIP() << "no python3 that imports matplotlib (Debian: python3-matplotlib): the "
                    "plots are not checked; CI installs it";
  }
  for (const std::string name :
       {"kernel_throughput_vs_run_length", "kernel_throughput_vs_element_width"}) {
    const fs::path svg = dir / "synthetic" / "plots" / (name + ".svg");
    ASSERT_TRUE(fs::exists(svg)) << svg;
    EXPECT_NE(index.find("](synthetic/plots/" + name + ".svg)"), std::string::npos) << name;
  }
  const std::string runs =
      read(dir / "synthetic" / "plots" / "kernel_throughput_vs_run_length.svg");
  for (const char* label : {"rle, geometric", "rle, uniform", "rle-cub, geometric",
                            "rle-cub, uniform", "device copy"}) {
    EXPECT_NE(runs.find(label), std::string::npos) << label;
  }
  // Widths 2 and 4 of rle on runs-geo8 make a line; the warm width-1 point is not joined to it.
  const std::string widths =
      read(dir / "synthetic" / "plots" / "kernel_throughput_vs_element_width.svg");
  EXPECT_NE(widths.find("rle, runs-geo8"), std::string::npos);
  fs::remove_all(dir);
}

TEST(ReportKernels, PlotsEveryKernelPerFileOfACorpus) {
  const std::vector<std::string> pythons = {"python3", "/usr/bin/python3"};
  if (!find_python_with_matplotlib(pythons)) {
    GTEST_SKIP() << "no python3 that imports matplotlib (Debian: python3-matplotlib); CI "
                    "installs it";
  }
  // Silesia's text and binary files: lz77 faster on one, nvCOMP LZ4 on the other.
  json b = json::array();
  for (const auto& [file, lz77, lz4] :
       {std::tuple{"dickens", 90.0, 5.0}, std::tuple{"nci", 20.0, 25.0}}) {
    for (const auto& [codec, gbps] : {std::pair{"lz77", lz77}, std::pair{"nvcomp-lz4", lz4}}) {
      b.push_back(row(std::string(codec) + "/gpu/decompress/silesia/" + file,
                      {{"input_bytes", 1e6}, {"kernel_gbps", gbps}, {"cold_l2", 1}}));
    }
  }
  const fs::path dir = fs::temp_directory_path() / "gcbench_report_kernels_per_file_test";
  fs::remove_all(dir);
  const WrittenReport w =
      write_report(set_of({{"context", kKernelsContext}, {"benchmarks", b}}),
                   ReportOptions{dir, {}, {}, PlotSetup{GCBENCH_PLOT_SCRIPT, pythons}});
  const fs::path svg = dir / "silesia" / "plots" / "kernel_throughput_per_file.svg";
  ASSERT_TRUE(fs::exists(svg)) << read(w.index);
  const std::string plot = read(svg);
  for (const char* text : {"dickens", "nci", "lz77", "nvcomp-lz4", "device copy"}) {
    EXPECT_NE(plot.find(text), std::string::npos) << text;
  }
  EXPECT_EQ(plot.find("total ("), std::string::npos);  // the total rows are not files
  EXPECT_NE(read(w.index).find("](silesia/plots/kernel_throughput_per_file.svg)"),
            std::string::npos);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace gcbench::reports
