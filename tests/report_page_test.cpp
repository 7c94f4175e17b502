// report.html, gcbench-report's one self-contained page: its headline rows (totals over the
// files every row compressed, speedups, noise) on a small sample; the page drawn by
// reports/plots/report_html.py from the committed thesis fixture (tests/data/thesis), with no
// script, stylesheet or image from elsewhere, every table of the report present and sortable,
// every link resolving, the charts' data and Plotly inlined; and, without plotly, a report that
// says why and leaves no earlier page behind. The tests that draw skip, with the reason, where
// no python3 imports plotly (CI installs it: scripts/install-deps.sh); tests/report_html_check.py
// opens the CI sweep's page in Chromium.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "reports/headline_text.hpp"
#include "reports/page_data.hpp"
#include "reports/python.hpp"
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

// Files a.txt and b.txt measured by gzip (three repetitions each), LZ77 on the CPU on all cores
// (and at a non-default work-item count, no headline row) and LZ77 on the GPU; c.txt by gzip
// alone, so left out of the headline.
json sample() {
  json b = json::array();
  const json lz_sizes = {
      {"input_bytes", 100000}, {"compressed_bytes", 60000}, {"entropy_bytes", 50000}};
  for (const std::string file : {"a.txt", "b.txt", "c.txt"}) {
    for (const std::string direction : {"compress", "decompress"}) {
      const bool compress = direction == "compress";
      int repetition = 0;
      for (const double ms : {2.0, 3.0, 4.5}) {
        b.push_back(row("gzip/cpu/" + direction + "/cant/" + file, compress ? ms : ms / 3,
                        {{"input_bytes", 100000},
                         {"compressed_bytes", 40000},
                         {"repetition_index", repetition++}}));
      }
      if (file == "c.txt") continue;
      b.push_back(row("lz77/cpu/" + direction + "/cant/" + file + "/work_items:1024/threads:0",
                      compress ? 2 : 0.5, lz_sizes));
      b.push_back(row("lz77/cpu/" + direction + "/cant/" + file + "/work_items:2048/threads:0",
                      compress ? 1 : 0.25, lz_sizes));
      json gpu = lz_sizes;
      gpu["e2e_s"] = compress ? 0.0004 : 0.0002;
      b.push_back(row("lz77/gpu/" + direction + "/cant/" + file + "/work_items:1024",
                      compress ? 0.1 : 0.05, gpu));
    }
  }
  return {{"context", {{"gpu", "NVIDIA H100"}}}, {"benchmarks", b}};
}

const std::vector<std::string> kReferences = {"zstd", "gzip", "zlib"};  // zstd not measured
const Defaults kDefaults = {{"lz77/cpu", {{"work_items", "1024"}, {"threads", "0"}}},
                            {"lz77/gpu", {{"work_items", "1024"}}}};

TEST(ReportPage, HeadlineRowsAreTotalsOverTheFilesEveryRowCompressed) {
  ResultSet set;
  add_results(set, sample());
  const json h = headline_json(set, kDefaults, "cant", kReferences);
  EXPECT_EQ(h["reference"], "gzip");
  EXPECT_EQ(h["files"], json({"a.txt", "b.txt"}));
  EXPECT_EQ(h["left_out"], json({"c.txt (not compressed by lz77/cpu, lz77/gpu)"}));
  // GPU rows first, then the CPU's, each by codec; the non-default work-item count is no row.
  ASSERT_EQ(h["rows"].size(), 3u) << h.dump(1);
  const json& gpu = h["rows"][0];
  const json& gzip = h["rows"][1];
  const json& cpu = h["rows"][2];
  EXPECT_EQ(gpu["codec"], "lz77");
  EXPECT_EQ(gpu["device"], "gpu");
  EXPECT_EQ(gzip["codec"], "gzip");
  EXPECT_EQ(cpu["device"], "cpu");
  // Each CPU row says on how many threads it ran (lz77's default here: all cores).
  EXPECT_EQ(cpu["threads"], "all cores");
  EXPECT_EQ(gzip["threads"], "1 thread");
  EXPECT_EQ(gpu["threads"], "");

  // Two files of 100000 bytes: LZ77 compresses each to 60000 (entropy-coded 50000).
  EXPECT_DOUBLE_EQ(gpu["ratio"].get<double>(), 200000.0 / 120000);
  EXPECT_DOUBLE_EQ(gpu["entropy_ratio"].get<double>(), 200000.0 / 100000);
  EXPECT_DOUBLE_EQ(gzip["ratio"].get<double>(), 200000.0 / 80000);
  EXPECT_TRUE(gzip["entropy_ratio"].is_null());
  // GPU compress: 0.1 ms kernel, 0.4 ms end to end per file; gzip 3 ms (median), LZ77 on all
  // CPU cores 2 ms.
  const json& c = gpu["compress"];
  EXPECT_NEAR(c["kernel_gbps"].get<double>(), 200000 / 0.0002 * 1e-9, 1e-9);
  EXPECT_NEAR(c["e2e_gbps"].get<double>(), 200000 / 0.0008 * 1e-9, 1e-9);
  EXPECT_NEAR(c["vs_reference"].get<double>(), 0.006 / 0.0008, 1e-9);
  EXPECT_NEAR(c["vs_all_cores"].get<double>(), 0.004 / 0.0008, 1e-9);
  const json& d = gpu["decompress"];
  EXPECT_NEAR(d["vs_reference"].get<double>(), 0.002 / 0.0004, 1e-9);
  EXPECT_NEAR(d["vs_all_cores"].get<double>(), 0.001 / 0.0004, 1e-9);
  // A CPU row has no kernel figure and no all-core speedup; its end to end is its wall time.
  EXPECT_TRUE(cpu["compress"]["kernel_gbps"].is_null());
  EXPECT_TRUE(cpu["compress"]["vs_all_cores"].is_null());
  EXPECT_NEAR(cpu["compress"]["e2e_gbps"].get<double>(), 200000 / 0.004 * 1e-9, 1e-9);
  EXPECT_NEAR(gzip["compress"]["vs_reference"].get<double>(), 1, 1e-12);
  // Noise: the median spread of the row's cells; none for cells measured once.
  double spread = -1;
  for (const Measurement& m : set.cells) {
    if (m.id.codec == "gzip") spread = m.cv;
  }
  ASSERT_GT(spread, 0);
  EXPECT_NEAR(gzip["noise_pct"].get<double>(), 100 * spread, 1e-9);
  EXPECT_TRUE(gpu["noise_pct"].is_null());
}

// The closing console table: the headline's rows, both directions in one throughput unit a
// column, and the speedups over the reference, through the report's own Markdown printer.
TEST(ReportPage, TheHeadlineAsAConsoleTableHasEveryRowAndBothDirections) {
  ResultSet set;
  add_results(set, sample());
  const std::string md =
      headline_markdown(headline_json(set, kDefaults, "cant", kReferences), "cant");
  EXPECT_NE(md.find("| codec | device | ratio | compress [MB/s] | decompress [MB/s] | compress "
                    "vs gzip | decompress vs gzip |"),
            std::string::npos)
      << md;
  for (const char* row : {"| gzip | CPU", "| lz77 | CPU, all cores", "| lz77 | GPU"})
    EXPECT_NE(md.find(row), std::string::npos) << row << "\n" << md;
  EXPECT_NE(md.find("| gzip | CPU, 1 thread | 2.500 | 33.3 | 100 | 1.000 | 1.000 |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("left out: c.txt (not compressed by lz77/cpu, lz77/gpu)"), std::string::npos)
      << md;
}

// The chart's memory axis: a GPU cell's device memory, a CPU cell's heap, none for a cell
// without the counter (results of an older gcbench).
TEST(ReportPage, EachCellCarriesTheMemoryOfItsDevice) {
  const json both = {{"memory_host_bytes", 1000}, {"memory_device_bytes", 5000}};
  ResultSet set;
  add_results(set, {{"context", {{"gpu", "NVIDIA H100"}}},
                    {"benchmarks",
                     {row("lz77/cpu/compress/cant/a.txt/work_items:1024/threads:0", 2, both),
                      row("lz77/gpu/compress/cant/a.txt/work_items:1024", 1, both),
                      row("gzip/cpu/compress/cant/a.txt", 2, {{"input_bytes", 10}})}}});
  const json cells = cells_json(set, kDefaults);
  ASSERT_EQ(cells.size(), 3u);
  std::map<std::string, json> memory;
  for (const json& c : cells)
    memory[c["codec"].get<std::string>() + "/" + c["device"].get<std::string>()] =
        c["memory_bytes"];
  EXPECT_EQ(memory.at("lz77/cpu"), 1000);
  EXPECT_EQ(memory.at("lz77/gpu"), 5000);
  EXPECT_TRUE(memory.at("gzip/cpu").is_null());
}

TEST(ReportPage, AGpuRowWithoutItsCpuOnAllCoresSaysSo) {
  ResultSet set;
  json doc = sample();
  json kept = json::array();
  for (const json& r : doc["benchmarks"]) {
    if (!r["name"].get<std::string>().starts_with("lz77/cpu/")) kept.push_back(r);
  }
  doc["benchmarks"] = kept;
  add_results(set, doc);
  const json h = headline_json(set, kDefaults, "cant", kReferences);
  ASSERT_EQ(h["rows"].size(), 2u);
  EXPECT_TRUE(h["rows"][0]["compress"]["vs_all_cores"].is_null());
  EXPECT_EQ(h["rows"][0]["reasons"][0],
            "compress: no lz77/cpu on all cores (threads:0) on every file");
}

std::string read(const fs::path& path) {
  std::stringstream s;
  s << std::ifstream(path, std::ios::binary).rdbuf();
  return s.str();
}

// The page's markup with the bodies of its scripts (Plotly's code among them) taken out.
std::string markup_of(const std::string& page) {
  std::string out;
  std::size_t at = 0;
  while (true) {
    const std::size_t open = page.find("<script", at);
    if (open == std::string::npos) break;
    const std::size_t body = page.find('>', open) + 1;
    out += page.substr(at, body - at);
    at = page.find("</script>", body);
    if (at == std::string::npos) return out;
  }
  return out + page.substr(at);
}

// The values of every `attribute="..."` in `markup`.
std::vector<std::string> attributes(const std::string& markup, const std::string& attribute) {
  std::vector<std::string> values;
  const std::string key = " " + attribute + "=\"";
  for (std::size_t at = markup.find(key); at != std::string::npos; at = markup.find(key, at)) {
    at += key.size();
    values.push_back(markup.substr(at, markup.find('"', at) - at));
  }
  return values;
}

struct Page {
  fs::path dir;
  WrittenReport report;
  std::string html;
};

Page page_of(const std::vector<fs::path>& results, const std::string& name,
             const std::vector<std::string>& pythons,
             const std::vector<ReportAppendix>& appendix = {}) {
  const ResultSet set = load_results(results);
  const fs::path dir = fs::temp_directory_path() / ("gcbench_report_page_test_" + name);
  fs::remove_all(dir);
  ReportOptions options{dir, set.defaults, {}, std::nullopt, studies::report_tables()};
  options.page = PageSetup{GCBENCH_PAGE_SCRIPT, pythons};
  options.appendix = appendix;
  const WrittenReport w = write_report(set, options);
  const fs::path html = dir / "report.html";
  return {dir, w, fs::exists(html) ? read(html) : ""};
}

// A caller's section (a shard merge's account) ends report.md and the page alike.
TEST(ReportPage, AnAppendixEndsTheIndexAndThePage) {
  if (!find_python_with(kPythons, "plotly")) {
    GTEST_SKIP() << "no python3 that imports plotly (Debian: python3-plotly); CI installs it";
  }
  const Page p = page_of({fs::path(GCBENCH_TEST_DATA) / "thesis"}, "appendix", kPythons,
                         {{"Merge", "3 cells merged from 2 inputs.", {"missing: `x`"}}});
  const std::string md = read(p.report.index);
  EXPECT_NE(md.find("\n## Merge\n\n3 cells merged from 2 inputs.\n\n- missing: `x`\n"),
            std::string::npos)
      << md.substr(md.size() > 300 ? md.size() - 300 : 0);
  EXPECT_NE(p.html.find("<section><h2>Merge</h2><p>3 cells merged from 2 inputs.</p><ul><li>"
                        "missing: `x`</li></ul></section>"),
            std::string::npos);
}

TEST(ReportPage, IsOneSelfContainedPageWithEveryTableSortableAndTheChartsData) {
  if (!find_python_with(kPythons, "plotly")) {
    GTEST_SKIP() << "no python3 that imports plotly (Debian: python3-plotly); CI installs it";
  }
  const Page p = page_of({fs::path(GCBENCH_TEST_DATA) / "thesis"}, "fixture", kPythons);
  EXPECT_EQ(p.report.page_note, "");
  EXPECT_FALSE(p.report.page_failed);
  ASSERT_FALSE(p.html.empty());
  EXPECT_NE(read(p.report.index).find("[report.html](report.html)"), std::string::npos);

  // Nothing from elsewhere: every script inline, no address with a scheme in the markup, every
  // link to a file the report wrote or to an element of the page.
  const std::string markup = markup_of(p.html);
  EXPECT_TRUE(attributes(markup, "src").empty());
  EXPECT_EQ(markup.find("http://"), std::string::npos);
  EXPECT_EQ(markup.find("https://"), std::string::npos);
  const std::vector<std::string> links = attributes(markup, "href");
  EXPECT_FALSE(links.empty());
  for (const std::string& link : links) {
    if (link.starts_with("#")) {
      EXPECT_NE(markup.find("id=\"" + link.substr(1) + "\""), std::string::npos) << link;
    } else {
      EXPECT_TRUE(fs::exists(p.dir / link)) << link;
    }
  }
  // Plotly inlined, and the page's sorting code.
  EXPECT_NE(p.html.find("plotly.js v"), std::string::npos);
  EXPECT_NE(p.html.find("function sortTable"), std::string::npos);

  // Every table of the report, sortable, and each corpus's headline.
  const json data = json::parse(read(p.dir / "report.page"));
  std::size_t tables = 0;
  for (const json& corpus : data["corpora"]) {
    const std::string name = corpus["name"];
    EXPECT_NE(markup.find("<table class=\"sortable headline\" id=\"headline-" + name + "\">"),
              std::string::npos)
        << name;
    for (const json& t : corpus["tables"]) {
      ++tables;
      const std::string id = "table-" + name + "-" + t["id"].get<std::string>();
      EXPECT_NE(markup.find("<table class=\"sortable\" id=\"" + id + "\">"), std::string::npos)
          << id;
      EXPECT_NE(markup.find(t["title"].get<std::string>()), std::string::npos) << id;
    }
  }
  // As many as report.md shows (its "### " headings, but those of the plots).
  std::size_t in_markdown = 0;
  std::istringstream index(read(p.report.index));
  for (std::string line; std::getline(index, line);) {
    in_markdown += line.starts_with("### ") && !line.starts_with("### Plots") ? 1 : 0;
  }
  EXPECT_EQ(tables, in_markdown);
  EXPECT_GT(tables, 0u);

  // The charts' data: every cell with numbers, the headline rows, a colour per codec.
  const std::string open = "<script type=\"application/json\" id=\"gcbench-data\">";
  const std::size_t at = p.html.find(open);
  ASSERT_NE(at, std::string::npos);
  const std::size_t begin = at + open.size();
  const json charts = json::parse(p.html.substr(begin, p.html.find("</script>", begin) - begin));
  const ResultSet set = load_results({fs::path(GCBENCH_TEST_DATA) / "thesis"});
  std::size_t measured = 0;
  for (const Measurement& m : set.cells) measured += m.error ? 0 : 1;
  EXPECT_EQ(charts["cells"].size(), measured);
  EXPECT_EQ(charts["headline"]["calgary"]["rows"].size(), 3u);  // gzip, LZ77 CPU and GPU
  for (const std::string codec : {"gzip", "lz77"}) {
    EXPECT_TRUE(charts["colors"].contains(codec)) << codec;
  }
  EXPECT_NE(markup.find("id=\"chart-ratio\""), std::string::npos);
  EXPECT_NE(markup.find("id=\"chart-link\""), std::string::npos);

  // Nothing the report writes is read back as a result file when it lies inside the results.
  EXPECT_THROW(load_results({p.dir}), std::runtime_error);
  fs::remove_all(p.dir);
}

TEST(ReportPage, WithoutPlotlyTheReportSaysWhyAndLeavesNoEarlierPage) {
  const fs::path dir = fs::temp_directory_path() / "gcbench_report_page_test_none";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "report.html") << "<html>an earlier page</html>";
  const ResultSet set = load_results({fs::path(GCBENCH_TEST_DATA) / "thesis"});
  ReportOptions options{dir, set.defaults, {}, std::nullopt, studies::report_tables()};
  options.page = PageSetup{GCBENCH_PAGE_SCRIPT, {"/nonexistent/python3"}};
  const WrittenReport w = write_report(set, options);
  EXPECT_EQ(w.page_note,
            "no report.html: no Python with plotly (tried /nonexistent/python3; Debian: apt-get "
            "install python3-plotly)");
  EXPECT_FALSE(w.page_failed);
  EXPECT_FALSE(fs::exists(dir / "report.html"));
  const std::string index = read(w.index);
  EXPECT_NE(index.find("Page: no report.html: no Python with plotly"), std::string::npos);
  EXPECT_EQ(index.find("[report.html]"), std::string::npos);
  EXPECT_TRUE(fs::exists(dir / "calgary" / "lz77_t7.csv"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace gcbench::reports
