// The CPU cells of a --gpus run as a queue that several workers share (bench/driver/
// cell_queue.hpp): claims, their order, the helpers' folders folded into the CPU worker's
// (src/results/fold_results.hpp), and two gcbench programs sharing one queue.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/driver/cell_queue.hpp"
#include "bench/driver/cells.hpp"
#include "bench/driver/estimate.hpp"
#include "bench/driver/options.hpp"
#include "gcbench/registry.hpp"
#include "src/results/fold_results.hpp"
#include "src/results/result_files.hpp"
#include "support/shell.hpp"
#include "support/test_folder.hpp"

namespace gcbench::driver {
namespace {
namespace fs = std::filesystem;
using json = nlohmann::json;

struct Sweep {
  std::vector<InputFile> inputs;
  std::vector<CellSpec> cells;
};

// The CPU cells of FL and RLE over three inputs of different sizes.
Sweep small_sweep() {
  Sweep s;
  for (std::uint64_t size : {1000u, 3000000u, 90000u}) {
    InputFile f;
    f.corpus = "test";
    f.name = "file" + std::to_string(size);
    f.size = size;
    s.inputs.push_back(f);
  }
  const std::vector<const Codec*> all = registered_codecs();
  s.cells =
      enumerate_cells(select_codecs(all, {"fl", "rle"}, "cpu"), all, s.inputs, parse_options({}));
  return s;
}

TEST(CellQueue, EachUnitGoesToTheFirstWorkerThatClaimsIt) {
  const fs::path dir = testing::fresh_test_folder("gcbench-queue");
  const Sweep sweep = small_sweep();
  CellQueue first(dir, "first"), second(dir, "second");
  std::set<std::string> units;
  for (const CellSpec& cell : sweep.cells) {
    // The first worker reaches every cell first: it takes every unit, the second none.
    EXPECT_TRUE(first.mine(cell)) << cell.name;
    EXPECT_FALSE(second.mine(cell)) << cell.name;
    units.insert(queue_unit(cell));
  }
  EXPECT_EQ(units.size(), 6u);  // 3 files x 2 codecs
  std::size_t claims = 0;
  for (const fs::directory_entry& claim : fs::directory_iterator(dir)) {
    std::ifstream in(claim.path());
    std::string unit, worker;
    std::getline(in, unit);
    std::getline(in, worker);
    EXPECT_TRUE(units.count(unit)) << unit;
    EXPECT_EQ(worker, "first");
    ++claims;
  }
  EXPECT_EQ(claims, units.size());
  fs::remove_all(dir);
}

TEST(CellQueue, OrdersUnitsCostliestFirstKeepingEachUnitsCellsTogether) {
  Sweep sweep = small_sweep();
  const std::vector<CellSpec> enumerated = sweep.cells;
  order_for_queue(sweep.cells, sweep.inputs);
  ASSERT_EQ(sweep.cells.size(), enumerated.size());
  std::vector<std::string> order;  // units in the order first met
  std::map<std::string, double> cost;
  for (const CellSpec& cell : sweep.cells) {
    const std::string unit = queue_unit(cell);
    if (order.empty() || order.back() != unit) {
      EXPECT_EQ(std::count(order.begin(), order.end(), unit), 0) << unit << " split";
      order.push_back(unit);
    }
    cost[unit] += estimate_cell_s(cell, sweep.inputs[cell.input].size, kPlanThreads);
  }
  for (std::size_t i = 1; i < order.size(); ++i) EXPECT_GE(cost[order[i - 1]], cost[order[i]]);
  EXPECT_NE(order.front().find("file3000000"), std::string::npos) << order.front();
  // Within a unit, the enumerated order (a decompression cell after its compression cell).
  std::vector<std::string> enumerated_of_front, ordered_of_front;
  for (const CellSpec& c : enumerated)
    if (queue_unit(c) == order.front()) enumerated_of_front.push_back(c.name);
  for (const CellSpec& c : sweep.cells)
    if (queue_unit(c) == order.front()) ordered_of_front.push_back(c.name);
  EXPECT_EQ(ordered_of_front, enumerated_of_front);
}

json entry(const std::string& cell, double time) {
  return {{"name", cell}, {"run_name", cell}, {"real_time", time}};
}

void write_results(const fs::path& file, const std::string& revision, const json& benchmarks) {
  fs::create_directories(file.parent_path());
  std::ofstream(file)
      << json{{"context", {{"git_revision", revision}}}, {"benchmarks", benchmarks}}.dump();
}

TEST(FoldResults, MovesEveryCellReplacingTheSameCellsAndRemovesTheFolder) {
  const fs::path dir = testing::fresh_test_folder("gcbench-fold");
  const std::string a = "fl/cpu/compress/cant/a.txt/element_width:1";
  const std::string b = "fl/cpu/decompress/cant/a.txt/element_width:1";
  const std::string c = "rle/cpu/compress/cant/c.txt/element_width:1";
  write_results(dir / "cpu/cant/a.txt.json", "old", json::array({entry(a, 1), entry(b, 2)}));
  write_results(dir / "helper/cant/a.txt.json", "new", json::array({entry(a, 10)}));
  write_results(dir / "helper/cant/c.txt.json", "new", json::array({entry(c, 30)}));

  EXPECT_EQ(results::fold_results(dir / "helper", dir / "cpu"), 2u);
  EXPECT_FALSE(fs::exists(dir / "helper"));
  const json kept = results::read_json_file(dir / "cpu/cant/a.txt.json");
  EXPECT_EQ(kept["context"]["git_revision"], "old") << "an existing file keeps its context";
  ASSERT_EQ(kept["benchmarks"].size(), 2u);
  EXPECT_EQ(kept["benchmarks"][0]["run_name"], b);
  EXPECT_EQ(kept["benchmarks"][1]["real_time"], 10);
  const json added = results::read_json_file(dir / "cpu/cant/c.txt.json");
  EXPECT_EQ(added["context"]["git_revision"], "new");
  EXPECT_EQ(added["benchmarks"].size(), 1u);
  EXPECT_EQ(results::fold_results(dir / "helper", dir / "cpu"), 0u) << "nothing left to fold";
  fs::remove_all(dir);
}

#ifdef GCBENCH_DRIVER
std::set<std::string> recorded_cells(const fs::path& dir) {
  std::set<std::string> cells;
  for (const fs::path& file : results::json_files_under(dir)) {
    const json doc = results::read_json_file(file);
    for (const json& b : doc["benchmarks"]) cells.insert(b["run_name"].get<std::string>());
  }
  return cells;
}

// Two gcbench programs started together on one claim folder: every cell of the sweep is
// recorded by exactly one of them, and a third run on the same folder finds every unit taken.
// Inputs of three sizes: the costliest units go first, so both programs get work.
TEST(CellQueue, TwoProgramsShareOneQueueAndMeasureEveryCellOnce) {
  const fs::path dir = testing::fresh_test_folder("gcbench-queue-run");
  fs::create_directories(dir / "in");
  for (int i = 0; i < 3; ++i) {
    std::ofstream(dir / "in" / ("f" + std::to_string(i) + ".txt"))
        << std::string(static_cast<std::size_t>(20000 * (i + 1)), static_cast<char>('a' + i));
  }
  const std::string common = "'" + (dir / "in").string() +
                             "' --codecs fl,rle --device cpu --no-progress "
                             "--benchmark_min_time=0.001 --claim-dir '" +
                             (dir / "claims").string() + "' --out-dir ";
  int status = 0;
  const std::string both = testing::run_output(
      "('" + std::string(GCBENCH_DRIVER) + "' " + common + "'" + (dir / "a").string() + "' & '" +
          GCBENCH_DRIVER + "' " + common + "'" + (dir / "b").string() + "'; wait)",
      status);
  ASSERT_EQ(status, 0) << both;
  const std::set<std::string> a = recorded_cells(dir / "a"), b = recorded_cells(dir / "b");
  EXPECT_FALSE(a.empty());
  EXPECT_FALSE(b.empty()) << "the second program took no unit:\n" << both;
  std::set<std::string> shared;
  for (const std::string& cell : a) EXPECT_EQ(b.count(cell), 0u) << cell << " measured twice";
  shared.insert(a.begin(), a.end());
  shared.insert(b.begin(), b.end());
  // A third program on the same claims finds every unit taken: it measures nothing.
  const std::string late =
      testing::run_driver(common + "'" + (dir / "late").string() + "'", status);
  EXPECT_EQ(status, 0) << late;
  EXPECT_TRUE(recorded_cells(dir / "late").empty()) << late;
  // The same cells as one plain run of the sweep.
  const std::string plain = testing::run_driver(
      "'" + (dir / "in").string() +
          "' --codecs fl,rle --device cpu --no-progress --benchmark_min_time=0.001 --out-dir '" +
          (dir / "plain").string() + "'",
      status);
  ASSERT_EQ(status, 0) << plain;
  EXPECT_EQ(shared, recorded_cells(dir / "plain"));
  fs::remove_all(dir);
}
#endif

}  // namespace
}  // namespace gcbench::driver
