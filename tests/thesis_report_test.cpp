// The tables the thesis preset writes, from a recorded result file: Calgary's paper5 as
// `--preset thesis` measured it on an H100 (the device recipe `thesis`; tests/data/thesis),
// with the cells the preset now runs for a file of one launch block. Also the same file as a
// CPU-only run (CI) sees it: GPU columns say "no device".
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "reports/render.hpp"
#include "reports/report.hpp"
#include "reports/results.hpp"
#include "reports/table_pick.hpp"
#include "reports/tables.hpp"
#include "studies/main_job.hpp"
#include "studies/study.hpp"
#include "studies/thesis_tables.hpp"

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
  return studies::lz77_tables(TableBuilder(set, set.defaults, "calgary", set.files_of("calgary")));
}

TEST(ThesisReport, T5HasEachFinderInTheThreadDesignAndAutoBesideTheCpuAndGzip) {
  ResultSet set;
  add_results(set, fixture());
  ASSERT_TRUE(set.gpu_present);
  const std::vector<Table> tables = lz77_tables_of(set);
  const Table& t5 = table(tables, "lz77_t5");
  // paper5 is not Calgary's first file: the thread design ran hash alone on it.
  EXPECT_EQ(first_lines(to_csv(t5), 2),
            "file,gpu_hash_thread_e2e_s,gpu_hash_auto_e2e_s,gpu_brute_e2e_s,gpu_z_e2e_s,cpu_hash_s,"
            "cpu_brute_s,cpu_z_s,gzip_s,reason\n"
            "paper5,0.003374,0.0006734,0.007979,0.02264,0.007357,0.007915,0.02228,0.001699,");
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
            "file,size_bytes,gzip_bytes,gzip_ratio,lz77_hash_entropy_bytes,"
            "lz77_hash_entropy_ratio,reason\n"
            "paper5,11954,4988,2.397,6252,1.912,\n"
            "total,11954,4988,2.397,6252,1.912,\n");
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
  EXPECT_EQ(csv_number(thread.rows[0].values[0], Unit::seconds), "0.003152");
  EXPECT_EQ(to_markdown(thread).substr(0, to_markdown(thread).find("\n")), "| file | 1024 [ms] |");
  // A query at 2048 on this file: the same single block as at 1024.
  const TableBuilder b(set, set.defaults, "calgary", {"paper5"});
  const Value v = b.value("paper5", Query{"lz77",
                                          "gpu",
                                          "compress",
                                          {{"design", "thread"}, {"work_items", "2048"}},
                                          Quantity::time});
  EXPECT_EQ(display_value(v, Unit::seconds, {}), "n/a (one launch block: as at 1024)");
}

// Every table of a report has a title of its own; the thesis's numbers (T1..T7) are used once.
TEST(ThesisReport, TableTitlesAreUniqueAndOnlyTheThesisTablesAreNumbered) {
  ResultSet set;
  add_results(set, fixture());
  const std::vector<Table> tables = lz77_tables_of(set);
  std::set<std::string> titles, numbers;
  for (const Table& t : tables) {
    EXPECT_TRUE(titles.insert(t.title).second) << t.title;
    if (t.title.size() > 3 && t.title[0] == 'T' && t.title[2] == ':') {
      EXPECT_TRUE(numbers.insert(t.title.substr(0, 2)).second) << t.title;
    }
  }
  EXPECT_EQ(numbers, (std::set<std::string>{"T1", "T2", "T3", "T4", "T5", "T6", "T7"}));
  EXPECT_EQ(table(tables, "lz77_t1_auto").title.find("T1"), std::string::npos);
}

// gcbench-report --table: one table of a written report, by its id or its thesis number.
TEST(ThesisReport, OneTableIsPickedByIdOrNumber) {
  ResultSet set;
  add_results(set, fixture());
  const fs::path dir = fs::temp_directory_path() / "gcbench_thesis_pick_test";
  fs::remove_all(dir);
  write_report(set, ReportOptions{dir, set.defaults, {}, std::nullopt, studies::report_tables()});
  const PickedTables by_number = pick_tables(dir, "t7");
  EXPECT_EQ(by_number.markdown.find("# calgary\n\n## T7: sizes, calgary\n"), 0u)
      << by_number.markdown;
  EXPECT_EQ(pick_tables(dir, "lz77_t7").markdown, by_number.markdown);
  const PickedTables none = pick_tables(dir, "T9");
  EXPECT_TRUE(none.markdown.empty());
  EXPECT_NE(std::find(none.names.begin(), none.names.end(), "lz77_t5"), none.names.end());
  fs::remove_all(dir);
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
  // A table already there from an earlier report of a GPU run must not survive as stale.
  fs::create_directories(dir / "calgary");
  std::ofstream(dir / "calgary" / "lz77_t1.csv") << "stale";
  write_report(set, ReportOptions{dir, set.defaults, {}, std::nullopt, studies::report_tables()});
  // T1 and T3 are GPU-only: not written; the others are, in all three formats.
  for (const char* id : {"lz77_t1", "lz77_t3"}) {
    for (const char* ext : {".md", ".csv", ".tex"}) {
      EXPECT_FALSE(fs::exists(dir / "calgary" / (std::string(id) + ext))) << id << ext;
    }
  }
  for (const char* id : {"lz77_t2", "lz77_t4", "lz77_t5", "lz77_t6", "lz77_t7"}) {
    for (const char* ext : {".md", ".csv", ".tex"}) {
      EXPECT_TRUE(fs::exists(dir / "calgary" / (std::string(id) + ext))) << id << ext;
    }
  }
  std::stringstream index, md;
  index << std::ifstream(dir / "report.md").rdbuf();
  EXPECT_NE(index.str().find("Not measured (no table written): T1: LZ77 hash compression kernel "
                             "time on GPU, calgary (no device); T3: LZ77 compression time per "
                             "match finder on GPU, calgary (no device)."),
            std::string::npos)
      << index.str();
  // T5 keeps the CPU and gzip columns (times in ms) and names the GPU ones it leaves out.
  md << std::ifstream(dir / "calgary" / "lz77_t5.md").rdbuf();
  EXPECT_NE(md.str().find("Not shown, no value: GPU hash end-to-end, GPU brute end-to-end, GPU z "
                          "end-to-end (no device)."),
            std::string::npos)
      << md.str();
  EXPECT_NE(md.str().find("| file | CPU hash [ms] | CPU brute [ms] | CPU z [ms] | gzip [ms] |\n"
                          "|---|---:|---:|---:|---:|\n"
                          "| paper5 | 7.36 | 7.92 | 22.3 | 1.7 |"),
            std::string::npos)
      << md.str();
  // The CSV keeps the whole layout: the GPU column empty, with its reason.
  std::stringstream csv;
  csv << std::ifstream(dir / "calgary" / "lz77_t5.csv").rdbuf();
  EXPECT_EQ(first_lines(csv.str(), 2),
            "file,gpu_hash_e2e_s,gpu_brute_e2e_s,gpu_z_e2e_s,cpu_hash_s,cpu_brute_s,cpu_z_s,gzip_s,"
            "reason\n"
            "paper5,,,,0.007357,0.007915,0.02228,0.001699,no device");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace gcbench::reports
