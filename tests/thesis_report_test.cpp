// The tables the thesis preset writes, from a recorded result file: Calgary's paper5 as
// `--preset thesis` measured it on an H100 (bench/device/run_thesis.sh; tests/data/thesis),
// with the cells the preset now runs for a file of one launch block. Also the same file as a
// CPU-only run (CI) sees it: GPU columns say "no device".
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "reports/render.hpp"
#include "reports/report.hpp"
#include "reports/results.hpp"
#include "reports/tables.hpp"

namespace gcbench::reports {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const fs::path kFixture = fs::path(GCBENCH_TEST_DATA) / "thesis" / "calgary" / "paper5.json";

json fixture() {
  std::ifstream in(kFixture);
  return json::parse(in);
}

const Table& table(const std::vector<Table>& tables, const std::string& id) {
  for (const Table& t : tables) {
    if (t.id == id) return t;
  }
  throw std::runtime_error("no table " + id);
}

std::string first_lines(const std::string& text, int lines) {
  std::size_t end = 0;
  for (int i = 0; i < lines && end != std::string::npos; ++i) end = text.find('\n', end + 1);
  return text.substr(0, end);
}

std::vector<Table> lz77_tables_of(const ResultSet& set) {
  return lz77_tables(TableBuilder(set, set.defaults, "calgary", set.files_of("calgary")));
}

TEST(ThesisReport, T5HasEachFinderInTheThreadDesignAndAutoBesideTheCpuAndGzip) {
  ResultSet set;
  add_results(set, fixture());
  ASSERT_TRUE(set.gpu_present);
  const std::vector<Table> tables = lz77_tables_of(set);
  const Table& t5 = table(tables, "lz77_t5");
  // paper5 is not Calgary's first file: the thread design ran hash alone on it.
  EXPECT_EQ(first_lines(to_csv(t5), 2),
            "file,gpu_hash_thread_s,gpu_hash_auto_s,gpu_brute_s,gpu_z_s,cpu_hash_s,cpu_brute_s,"
            "cpu_z_s,gzip_s\n"
            "paper5,0.003374,0.0006734,0.007979,0.02264,0.007357,0.007915,0.02228,0.001699");
  EXPECT_NE(t5.caption.find("design=auto chose, on this GPU: hash warp, brute block, z block"),
            std::string::npos)
      << t5.caption;
}

TEST(ThesisReport, T7HasSizesGzipAndTheEntropyCodedLz77) {
  ResultSet set;
  add_results(set, fixture());
  const std::vector<Table> tables = lz77_tables_of(set);
  const Table& t7 = table(tables, "lz77_t7");
  EXPECT_EQ(to_csv(t7),
            "file,size,gzip_bytes,gzip_ratio,lz77_hash_entropy_bytes,lz77_hash_ratio\n"
            "paper5,11954,4988,2.397,6252,1.912\n"
            "total,11954,4988,2.397,6252,1.912\n");
}

TEST(ThesisReport, T1PerDesignAndItsOtherWorkItemsAreOneLaunchBlock) {
  ResultSet set;
  add_results(set, fixture());
  const std::vector<Table> tables = lz77_tables_of(set);
  const Table& thread = table(tables, "lz77_t1");
  const Table& fastest = table(tables, "lz77_t1_auto");
  EXPECT_NE(thread.title.find("design thread"), std::string::npos) << thread.title;
  EXPECT_NE(fastest.title.find("design auto"), std::string::npos) << fastest.title;
  ASSERT_EQ(thread.columns.size(), 1u);  // the work items measured: 1024
  EXPECT_EQ(format_value(thread.rows[0].values[0], Unit::seconds), "0.003152");
  // A query at 2048 on this file: the same single block as at 1024.
  const TableBuilder b(set, set.defaults, "calgary", {"paper5"});
  const Value v = b.value("paper5", Query{"lz77",
                                          "gpu",
                                          "compress",
                                          {{"design", "thread"}, {"work_items", "2048"}},
                                          Quantity::time});
  EXPECT_EQ(format_value(v, Unit::seconds), "n/a (one launch block: as at 1024)");
}

TEST(ThesisReport, WithoutADeviceGpuColumnsSaySoAndTheReportIsWritten) {
  json doc = fixture();
  json cpu = json::array();
  for (const json& b : doc["benchmarks"]) {
    if (b["name"].get<std::string>().find("/gpu/") == std::string::npos) cpu.push_back(b);
  }
  doc["benchmarks"] = cpu;
  doc["context"]["gpu"] = "none: CUDA driver version is insufficient for CUDA runtime version";
  ResultSet set;
  add_results(set, doc);
  const fs::path dir = fs::temp_directory_path() / "gcbench_thesis_report_test";
  fs::remove_all(dir);
  write_report(set, ReportOptions{dir, set.defaults, {}});
  for (const char* id :
       {"lz77_t1", "lz77_t2", "lz77_t3", "lz77_t4", "lz77_t5", "lz77_t6", "lz77_t7"}) {
    for (const char* ext : {".md", ".csv", ".tex"}) {
      EXPECT_TRUE(fs::exists(dir / "calgary" / (std::string(id) + ext))) << id << ext;
    }
  }
  std::ifstream in(dir / "calgary" / "lz77_t5.md");
  std::stringstream md;
  md << in.rdbuf();
  EXPECT_NE(md.str().find("| paper5 | n/a (no device) | n/a (no device) | n/a (no device) | "
                          "0.007357 |"),
            std::string::npos)
      << md.str();
  fs::remove_all(dir);
}

}  // namespace
}  // namespace gcbench::reports
