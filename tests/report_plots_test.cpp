// The report's plots: drawn by matplotlib (reports/plots/plot_results.py) from the CSVs the
// report wrote, linked from report.md; a plot without data is skipped with a note, never drawn
// empty; without matplotlib the tables are still written and the report says why there are no
// plots. Every title names the GPU and the git revision the results were measured with, or says
// that they differ. The tests that draw skip, with the reason, where no python3 imports
// matplotlib (CI installs it: scripts/install-deps.sh).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "reports/plots.hpp"
#include "reports/report.hpp"
#include "reports/results.hpp"
#include "studies/study.hpp"
#include "support/result_rows.hpp"

namespace gcbench::reports {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const std::vector<std::string> kPythons = {"python3", "/usr/bin/python3"};

json row(const std::string& name, double time_ms, const json& counters) {
  return gcbench::testing::timed_row(name, time_ms, counters);
}

// Two files; LZ77 on the CPU at two work-item counts, FL on the CPU and the GPU at two frame
// sizes, gzip; with `gpu`, GPU cells carry kernel and end-to-end throughput.
json sample(bool gpu) {
  json b = json::array();
  for (const std::string file : {"a.txt", "b.txt"}) {
    const json sizes = {{"input_bytes", 100000}, {"compressed_bytes", 40000}};
    for (const std::string direction : {"compress", "decompress"}) {
      b.push_back(row("gzip/cpu/" + direction + "/cant/" + file, 3, sizes));
      for (const std::string wi : {"1024", "2048"}) {
        b.push_back(row("lz77/cpu/" + direction + "/cant/" + file +
                            "/finder:hash/work_items:" + wi + "/decode_mode:parallel",
                        wi == "1024" ? 2 : 1.5,
                        {{"input_bytes", 100000}, {"compressed_bytes", 60000}}));
      }
      for (const std::string fs : {"256", "1024"}) {
        b.push_back(
            row("fl/cpu/" + direction + "/cant/" + file + "/frame_size:" + fs, 0.5,
                {{"input_bytes", 100000}, {"compressed_bytes", fs == "256" ? 80000 : 85000}}));
        if (!gpu) continue;
        b.push_back(row("fl/gpu/" + direction + "/cant/" + file + "/frame_size:" + fs, 0.01,
                        {{"input_bytes", 100000},
                         {"compressed_bytes", fs == "256" ? 80000 : 85000},
                         {"kernel_gbps", 10.0},
                         {"e2e_gbps", 2.0},
                         {"e2e_s", 0.05},
                         {"pct_copy", 1.0},
                         {"pct_h2d", 4.0}}));
      }
    }
  }
  json context = {{"gpu", gpu ? "NVIDIA H100" : "none: built without CUDA"},
                  {"git_revision", "abc1234"}};
  if (gpu) {
    context["copy_gbps"] = "1500.0";
    context["h2d_pinned_gbps"] = "55.0";
  }
  return {{"context", context}, {"benchmarks", b}};
}

const Defaults kDefaults = {{"lz77/cpu", {{"finder", "hash"}, {"work_items", "1024"}}},
                            {"fl/cpu", {{"frame_size", "1024"}}},
                            {"fl/gpu", {{"frame_size", "1024"}}}};

std::string read(const fs::path& path) {
  std::stringstream s;
  s << std::ifstream(path, std::ios::binary).rdbuf();
  return s.str();
}

struct Written {
  fs::path dir;
  WrittenReport report;
  std::string index;
};

Written report_of(const json& doc, const std::string& name, std::vector<std::string> pythons) {
  ResultSet set;
  add_results(set, doc);
  const fs::path dir = fs::temp_directory_path() / ("gcbench_report_plots_test_" + name);
  fs::remove_all(dir);
  const WrittenReport w = write_report(
      set,
      ReportOptions{
          dir, kDefaults, {}, PlotSetup{GCBENCH_PLOT_SCRIPT, pythons}, studies::report_tables()});
  return {dir, w, read(w.index)};
}

#define SKIP_WITHOUT_MATPLOTLIB()                                                        \
  if (!find_python_with_matplotlib(kPythons))                                            \
  GTEST_SKIP() << "no python3 that imports matplotlib (Debian: python3-matplotlib); CI " \
                  "installs it"

TEST(ReportPlots, AreDrawnByMatplotlibFromTheCsvsAndLinked) {
  SKIP_WITHOUT_MATPLOTLIB();
  const Written w = report_of(sample(true), "gpu", kPythons);
  EXPECT_EQ(w.report.plot_note, "");
  EXPECT_FALSE(w.report.plots_failed);
  for (const std::string name :
       {"ratio_vs_throughput_compress", "ratio_vs_throughput_decompress",
        "throughput_vs_work_items", "throughput_vs_frame_size", "pct_of_copy"}) {
    const fs::path svg = w.dir / "cant" / "plots" / (name + ".svg");
    const fs::path png = w.dir / "cant" / "plots" / (name + ".png");
    ASSERT_TRUE(fs::exists(svg)) << svg;
    ASSERT_TRUE(fs::exists(png)) << png;
    const std::string svg_text = read(svg), png_bytes = read(png);
    EXPECT_NE(svg_text.find("<dc:title>Matplotlib v"), std::string::npos) << name;
    EXPECT_TRUE(png_bytes.starts_with("\x89PNG")) << name;
    EXPECT_NE(png_bytes.find("Matplotlib version"), std::string::npos) << name;
    EXPECT_NE(w.index.find("](cant/plots/" + name + ".svg) ([PNG](cant/plots/" + name + ".png))"),
              std::string::npos)
        << name;
  }
  // The Pareto front is marked, and its points are named by the axes that vary.
  const std::string compress = read(w.dir / "cant" / "plots" / "ratio_vs_throughput_compress.svg");
  EXPECT_NE(compress.find("Pareto front"), std::string::npos);
  // The title's second line names the GPU and the revision (matplotlib writes each line of
  // text into the SVG as a comment); the ratio axis says which ratio it draws.
  for (const std::string name : {"ratio_vs_throughput_compress", "pct_of_copy"}) {
    EXPECT_NE(
        read(w.dir / "cant" / "plots" / (name + ".svg")).find("<!-- NVIDIA H100, rev abc1234 -->"),
        std::string::npos)
        << name;
  }
  EXPECT_NE(compress.find("container ratio (original / container bytes)"), std::string::npos);
  EXPECT_EQ(w.index.find("Plots not drawn"), std::string::npos) << w.index;
  // Nothing the report writes is read back as a result file when it lies inside the results.
  EXPECT_THROW(load_results({w.dir}), std::runtime_error);
  fs::remove_all(w.dir);
}

TEST(ReportPlots, TheTitleNoteNamesTheGpuAndRevisionOrSaysTheyDiffer) {
  ResultSet one;
  add_results(one, sample(true));
  EXPECT_EQ(plot_title_note(one), "NVIDIA H100, rev abc1234");
  ResultSet cpu;
  add_results(cpu, sample(false));
  EXPECT_EQ(plot_title_note(cpu), "CPU only, rev abc1234");
  // Two files of different revisions, GPU cells recording two models.
  ResultSet mixed;
  for (const std::string model : {"NVIDIA A100", "NVIDIA H100"}) {
    json doc = sample(true);
    doc["context"]["git_revision"] = model == "NVIDIA A100" ? "abc1234" : "def5678";
    for (json& b : doc["benchmarks"]) {
      const std::string name = b["name"];
      if (name.starts_with("fl/gpu/") && model == "NVIDIA A100") {
        b["name"] = b["run_name"] = "fl/gpu/" + name.substr(7) + "/element_width:2";
      }
      b["gpu"] = {{"index", 0}, {"name", model}};
    }
    add_results(mixed, doc);
  }
  EXPECT_EQ(plot_title_note(mixed), "2 GPU models, mixed revisions");
  // Shards merged with --allow-different-revisions: one context saying so.
  ResultSet merged;
  json doc = sample(true);
  doc["context"]["git_revision"] = "mixed (--allow-different-revisions): abc1234 | def5678";
  doc["context"]["merged_differs:gpu"] = "NVIDIA A100 | NVIDIA H100";
  add_results(merged, doc);
  EXPECT_EQ(plot_title_note(merged), "2 GPU models, mixed revisions");
}

TEST(ReportPlots, APlotWithoutDataIsSkippedWithANoteNotDrawnEmpty) {
  SKIP_WITHOUT_MATPLOTLIB();
  const Written w = report_of(sample(false), "cpu", kPythons);
  EXPECT_EQ(w.report.plot_note, "");
  EXPECT_TRUE(fs::exists(w.dir / "cant" / "plots" / "ratio_vs_throughput_compress.svg"));
  EXPECT_FALSE(fs::exists(w.dir / "cant" / "plots" / "pct_of_copy.svg"));
  EXPECT_FALSE(fs::exists(w.dir / "cant" / "plots" / "pct_of_copy.png"));
  EXPECT_NE(w.index.find("Plots not drawn: pct_of_copy: no GPU cell with pct_copy or pct_h2d."),
            std::string::npos)
      << w.index;
  fs::remove_all(w.dir);
}

TEST(ReportPlots, WithoutMatplotlibTheTablesAreWrittenAndEarlierPlotsRemoved) {
  const fs::path plots =
      fs::temp_directory_path() / "gcbench_report_plots_test_none" / "cant" / "plots";
  const Written w = [&] {
    // An earlier report's plot, listed in its manifest: it must not be linked or left behind.
    fs::remove_all(plots.parent_path().parent_path());
    fs::create_directories(plots);
    std::ofstream(plots / "old.svg") << "<svg/>";
    std::ofstream(plots / "plots.manifest") << R"({"plots": [{"title": "old", "svg": "old.svg"}]})";
    ResultSet set;
    add_results(set, sample(false));
    const fs::path dir = plots.parent_path().parent_path();
    const WrittenReport r = write_report(
        set, ReportOptions{
                 dir, kDefaults, {}, PlotSetup{GCBENCH_PLOT_SCRIPT, {"/nonexistent/python3"}}});
    return Written{dir, r, read(r.index)};
  }();
  EXPECT_EQ(w.report.plot_note,
            "no plots: no Python with matplotlib (tried /nonexistent/python3; Debian: apt-get "
            "install python3-matplotlib)");
  EXPECT_FALSE(w.report.plots_failed);
  EXPECT_NE(w.index.find("Plots: no plots: no Python with matplotlib"), std::string::npos);
  EXPECT_TRUE(fs::exists(w.dir / "cant" / "variants.csv"));
  EXPECT_FALSE(fs::exists(plots / "old.svg"));
  EXPECT_FALSE(fs::exists(plots / "plots.manifest"));
  fs::remove_all(w.dir);
}

}  // namespace
}  // namespace gcbench::reports
