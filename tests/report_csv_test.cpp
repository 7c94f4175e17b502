// The report's CSV files are for programs: every field between the row label (and the text
// columns) and the last column, `reason`, is a number or empty, and a row has a reason exactly
// when it has an empty field. Checked on every CSV of a real GPU run's report (Calgary's paper5,
// tests/data/thesis) with a file that is not available, and of a CPU-only run.
#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "reports/report.hpp"
#include "reports/results.hpp"
#include "studies/study.hpp"

namespace gcbench::reports {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// Columns that hold text by design, besides the first (the row label) and `reason`.
const std::set<std::string> kTextColumns = {"direction"};

json fixture() {
  std::ifstream in(fs::path(GCBENCH_TEST_DATA) / "thesis" / "calgary" / "paper5.json");
  json doc = json::parse(in);
  doc["context"]["missing_file:calgary/paper6"] = "not in any mirror";
  return doc;
}

// One CSV record per line (the report quotes fields with commas, never with newlines).
std::vector<std::string> split_record(const std::string& line) {
  std::vector<std::string> fields{""};
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char ch = line[i];
    if (ch == '"') {
      if (quoted && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else {
        quoted = !quoted;
      }
    } else if (ch == ',' && !quoted) {
      fields.emplace_back();
    } else {
      fields.back() += ch;
    }
  }
  return fields;
}

bool is_number(const std::string& s) {
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && end == s.data() + s.size() && std::isfinite(v);
}

// Returns how many numeric fields were checked.
std::size_t check_csv(const fs::path& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> header = split_record(line);
  EXPECT_GE(header.size(), 3u) << path;
  EXPECT_EQ(header.back(), "reason") << path;
  std::size_t numbers = 0;
  while (std::getline(in, line)) {
    const std::vector<std::string> fields = split_record(line);
    EXPECT_EQ(fields.size(), header.size()) << path << ": " << line;
    if (fields.size() != header.size()) continue;
    bool empty = false;
    for (std::size_t i = 1; i + 1 < fields.size(); ++i) {
      if (kTextColumns.count(header[i])) continue;
      if (fields[i].empty()) {
        empty = true;
        continue;
      }
      EXPECT_TRUE(is_number(fields[i])) << path << " column " << header[i] << ": " << fields[i];
      ++numbers;
    }
    EXPECT_EQ(empty, !fields.back().empty()) << path << ": " << line;
  }
  return numbers;
}

std::size_t check_report(const ResultSet& set, const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("gcbench_report_csv_test_" + name);
  fs::remove_all(dir);
  write_report(set, ReportOptions{dir, set.defaults, {}, std::nullopt, studies::report_tables()});
  std::size_t files = 0, numbers = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.path().extension() != ".csv") continue;
    ++files;
    numbers += check_csv(e.path());
  }
  EXPECT_GE(files, 5u);
  fs::remove_all(dir);
  return numbers;
}

TEST(ReportCsv, NumericColumnsHoldNumbersOrAreEmptyWithAReason) {
  ResultSet set;
  add_results(set, fixture());
  ASSERT_TRUE(set.gpu_present);
  EXPECT_GT(check_report(set, "gpu"), 50u);
}

TEST(ReportCsv, ACpuOnlyRunsBlanksAreEmptyFieldsWithTheirReason) {
  json doc = fixture();
  json cpu = json::array();
  for (const json& b : doc["benchmarks"]) {
    if (b["name"].get<std::string>().find("/gpu/") == std::string::npos) cpu.push_back(b);
  }
  doc["benchmarks"] = cpu;
  doc["context"]["gpu"] = "none: built without CUDA";
  ResultSet set;
  add_results(set, doc);
  EXPECT_GT(check_report(set, "cpu"), 10u);
}

}  // namespace
}  // namespace gcbench::reports
