// gcbench-report --merge-shards on small hand-made shard folders: the merged files (rows in the
// plan's order, contexts marked), an export of a shard folder skipped, and every refusal (different
// builds, duplicates, a shard given twice or planned differently, missing shards and cells, empty
// and missing inputs, an output folder that holds results or overlaps an input), each writing
// nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "src/results/folder_export.hpp"
#include "src/results/result_files.hpp"
#include "src/results/shard_merge.hpp"
#include "src/results/shard_plan.hpp"
#include "support/test_folder.hpp"

namespace gcbench::reports {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

std::string cell(const std::string& file, const std::string& direction) {
  return "fl/cpu/" + direction + "/cant/" + file + "/element_width:1/frame_size:1024";
}

class ShardMerge : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = gcbench::testing::fresh_test_folder("gcbench-merge-test");
    // Two shards of four cells over two files; the plan in run order.
    plan_ = {{1, 2},
             {{cell("a.txt", "compress"), 2},
              {cell("a.txt", "decompress"), 1},
              {cell("b.txt", "compress"), 1},
              {cell("b.txt", "decompress"), 2}}};
  }
  void TearDown() override { fs::remove_all(root_); }

  // Shard `index` with its plan and its cells' results (a cell may be left out).
  fs::path shard(int index, const std::string& name, const std::string& revision = "abc",
                 const std::string& skip = "") {
    const fs::path dir = root_ / name;
    results::ShardPlan plan = plan_;
    plan.shard.index = index;
    results::write_plan(dir, plan);
    for (const auto& [c, k] : plan_.cells) {
      if (k == index && c != skip) add_row(dir, c, revision, "gpu " + std::to_string(index));
    }
    return dir;
  }

  void add_row(const fs::path& dir, const std::string& c, const std::string& revision,
               const std::string& gpu) {
    const std::string file = c.find("a.txt") != std::string::npos ? "a.txt" : "b.txt";
    const fs::path path = dir / "cant" / (file + ".json");
    json doc = {{"context", {{"git_revision", revision}, {"gpu", gpu}, {"shard", "x/2"}}},
                {"benchmarks", json::array()}};
    if (fs::exists(path)) doc = json::parse(std::ifstream(path));
    doc["benchmarks"].push_back({{"name", c + "/real_time"},
                                 {"run_name", c + "/real_time"},
                                 {"run_type", "iteration"},
                                 {"real_time", 1.0},
                                 {"time_unit", "ms"},
                                 {"compressed_bytes", 10}});
    fs::create_directories(path.parent_path());
    std::ofstream(path) << doc.dump(2);
  }

  // The results::ShardMergeError's message, or "" when the merge succeeded.
  std::string refusal(const std::vector<fs::path>& inputs,
                      const results::ShardMergeOptions& options = {}) {
    try {
      results::merge_shards(inputs, out(), options);
    } catch (const results::ShardMergeError& e) {
      EXPECT_FALSE(fs::exists(out())) << "a refused merge wrote something";
      return e.what();
    }
    return "";
  }

  fs::path out() const { return root_ / "merged"; }
  json merged(const std::string& file) const {
    return json::parse(std::ifstream(out() / "cant" / (file + ".json")));
  }

  fs::path root_;
  results::ShardPlan plan_;
};

TEST_F(ShardMerge, WritesOneResultSetInThePlansOrder) {
  const results::ShardMergeResult r =
      results::merge_shards({shard(2, "s2"), shard(1, "s1")}, out(), {});
  EXPECT_EQ(r.cells, 4u);
  EXPECT_EQ(r.files, 2u);
  EXPECT_EQ(r.shards, (std::vector<std::string>{"1/2", "2/2"}));
  EXPECT_TRUE(r.missing_cells.empty());
  const json a = merged("a.txt");
  ASSERT_EQ(a["benchmarks"].size(), 2u);
  EXPECT_EQ(a["benchmarks"][0]["run_name"], cell("a.txt", "compress") + "/real_time");
  EXPECT_EQ(a["benchmarks"][1]["run_name"], cell("a.txt", "decompress") + "/real_time");
  EXPECT_EQ(a["context"]["git_revision"], "abc");
  EXPECT_FALSE(a["context"].contains("shard"));
  EXPECT_EQ(a["context"]["merged_differs:gpu"], "gpu 1 | gpu 2");
  // The GPUs differ: said as a note.
  ASSERT_FALSE(r.notes.empty());
  EXPECT_NE(r.notes.front().find("differ in gpu"), std::string::npos) << r.notes.front();
}

// Shards of a job array on several nodes: the merged context and a note say which ran where.
TEST_F(ShardMerge, SaysWhichNodeRanEachShard) {
  const std::vector<fs::path> inputs = {shard(1, "s1"), shard(2, "s2")};
  for (int k : {1, 2}) {
    for (const char* file : {"a.txt", "b.txt"}) {
      const fs::path path =
          inputs[static_cast<std::size_t>(k - 1)] / "cant" / (file + std::string(".json"));
      json doc = json::parse(std::ifstream(path));
      doc["context"]["slurm_node"] = "node" + std::to_string(k);
      doc["context"]["host_name"] = "vm";
      std::ofstream(path) << doc.dump();
    }
  }
  const results::ShardMergeResult r = results::merge_shards(inputs, out(), {});
  EXPECT_EQ(merged("a.txt")["context"]["merged_differs:slurm_node"], "node1 | node2");
  EXPECT_FALSE(merged("a.txt")["context"].contains("merged_differs:host_name"));
  const std::string note = "the inputs differ in slurm_node: 'node1' in " + inputs[0].string() +
                           "; 'node2' in " + inputs[1].string();
  EXPECT_NE(std::find(r.notes.begin(), r.notes.end(), note), r.notes.end())
      << ::testing::PrintToString(r.notes);
}

TEST_F(ShardMerge, RefusesDifferentRevisionsUnlessAllowed) {
  const std::vector<fs::path> in{shard(1, "s1", "abc"), shard(2, "s2", "def")};
  const std::string e = refusal(in);
  EXPECT_NE(e.find("different builds: git_revision is 'abc' in"), std::string::npos) << e;
  EXPECT_NE(e.find("--allow-different-revisions"), std::string::npos) << e;
  results::ShardMergeOptions allow;
  allow.allow_different_revisions = true;
  results::merge_shards(in, out(), allow);
  EXPECT_EQ(merged("a.txt")["context"]["git_revision"],
            "mixed (--allow-different-revisions): abc | def");
}

TEST_F(ShardMerge, RefusesDuplicatesAndShardsGivenTwice) {
  const fs::path s1 = shard(1, "s1");
  const fs::path s2 = shard(2, "s2");
  const fs::path again = shard(2, "again");
  const std::string e = refusal({s1, s2, again});
  EXPECT_NE(e.find("shard 2/2 is given twice"), std::string::npos) << e;
  EXPECT_NE(e.find("duplicated cell " + cell("a.txt", "compress")), std::string::npos) << e;
  // Without plans, the duplicates alone.
  fs::remove(again / results::kPlanFileName);
  EXPECT_NE(refusal({s1, s2, again}).find("duplicated cell"), std::string::npos);
}

TEST_F(ShardMerge, RefusesPlansOfDifferentSweeps) {
  const fs::path s1 = shard(1, "s1");
  plan_.cells.pop_back();
  const std::string e = refusal({s1, shard(2, "s2")});
  EXPECT_NE(e.find("the shard plans of"), std::string::npos) << e;
}

TEST_F(ShardMerge, NamesMissingShardsAndCells) {
  const fs::path s1 = shard(1, "s1", "abc", cell("b.txt", "compress"));
  std::string e = refusal({s1});
  EXPECT_NE(e.find("shard 2/2 is missing (no input holds its plan): its 2 cells"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("shard 1/2 (" + s1.string() + ") is missing 1 of its 2 cells"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find(cell("b.txt", "compress")), std::string::npos) << e;
  results::ShardMergeOptions allow;
  allow.allow_missing = true;
  const results::ShardMergeResult r = results::merge_shards({s1}, out(), allow);
  EXPECT_EQ(r.missing_cells.size(), 3u);
  // Per shard: the one that ran part of its cells names its input, the other none.
  ASSERT_EQ(r.missing_shards.size(), 2u);
  EXPECT_EQ(r.missing_shards[0].shard, (results::Shard{1, 2}));
  EXPECT_EQ(r.missing_shards[0].input, s1);
  EXPECT_EQ(r.missing_shards[0].planned, 2u);
  EXPECT_EQ(r.missing_shards[0].cells, (std::vector<std::string>{cell("b.txt", "compress")}));
  EXPECT_EQ(r.missing_shards[1].shard, (results::Shard{2, 2}));
  EXPECT_FALSE(r.missing_shards[1].input);
  EXPECT_EQ(r.missing_shards[1].cells,
            (std::vector<std::string>{cell("a.txt", "compress"), cell("b.txt", "decompress")}));
  EXPECT_TRUE(fs::exists(out() / "missing-cells.txt"));
  EXPECT_NE(merged("a.txt")["context"].value("merge_missing_cells", "").find("3"),
            std::string::npos);
}

TEST_F(ShardMerge, RefusesEmptyMissingAndOverlappingFolders) {
  fs::create_directories(root_ / "empty");
  EXPECT_NE(refusal({root_ / "empty"}).find("holds no gcbench results"), std::string::npos);
  EXPECT_NE(refusal({root_ / "nowhere"}).find("no such folder"), std::string::npos);
  EXPECT_NE(refusal({}).find("no input folders"), std::string::npos);
  const fs::path s1 = shard(1, "s1");
  EXPECT_THROW(results::merge_shards({s1}, s1 / "merged", {}), results::ShardMergeError);
  EXPECT_THROW(results::merge_shards({s1}, root_, {}), results::ShardMergeError);
  const fs::path s2 = shard(2, "s2");
  results::merge_shards({s1, s2}, out(), {});
  try {
    results::merge_shards({s1, s2}, out(), {});
    ADD_FAILURE() << "merged into a folder holding results";
  } catch (const results::ShardMergeError& e) {
    EXPECT_NE(std::string(e.what()).find("already holds results"), std::string::npos);
  }
}

// An export written inside a shard folder (gcbench --export DIR --benchmark_out=DIR/all.json)
// holds cells of the shard's own files: it is skipped with a note, not merged a second time.
TEST_F(ShardMerge, SkipsAnExportInsideAShardFolder) {
  const fs::path s1 = shard(1, "s1");
  results::write_json_file(s1 / "all.json", results::export_folder(s1));
  const results::ShardMergeResult r = results::merge_shards({s1, shard(2, "s2")}, out(), {});
  EXPECT_EQ(r.cells, 4u);
  EXPECT_EQ(r.files, 2u);
  EXPECT_FALSE(fs::exists(out() / "all.json"));
  ASSERT_FALSE(r.notes.empty());
  EXPECT_NE(r.notes.front().find((s1 / "all.json").string() + " skipped: an export"),
            std::string::npos)
      << r.notes.front();
}

}  // namespace
}  // namespace gcbench::reports
