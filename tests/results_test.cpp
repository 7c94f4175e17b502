// The results library: cell names, result documents (faults, an entry's cell), the folder
// export and how readers recognize it, and the listing of result files and shard plans.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "src/results/cell_name.hpp"
#include "src/results/folder_export.hpp"
#include "src/results/result_document.hpp"
#include "src/results/result_files.hpp"
#include "src/results/shard_plan.hpp"
#include "support/test_folder.hpp"

namespace gcbench::results {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// A result document of one cell, with `context`.
json result(const std::string& cell, const json& context = json::object()) {
  const json entry = {{"name", cell}, {"run_name", cell}, {"real_time", 1.0}};
  return {{"context", context}, {"benchmarks", json::array({entry})}};
}

// A fresh folder of the test's own, removed at the end of the test.
class TempFolder : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = gcbench::testing::fresh_test_folder("gcbench-results-test");
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  fs::path root_;
};

TEST(CellName, FormatsAndParsesBackThroughBenchmarkSuffixes) {
  CellId id{"lz77",       "gpu",         "compress",
            "canterbury", "alice29.txt", {{"finder", "hash"}, {"threads", "0"}}};
  std::string name = format_cell_name(id);
  EXPECT_EQ(name, "lz77/gpu/compress/canterbury/alice29.txt/finder:hash/threads:0");
  EXPECT_EQ(parse_cell_name(name + "/manual_time"), id);
  EXPECT_EQ(parse_cell_name(name + "/min_time:0.020/repeats:3/real_time"), id);
  EXPECT_EQ(*parse_cell_name(name)->param("finder"), "hash");
  EXPECT_EQ(parse_cell_name(name)->param("chunk"), nullptr);
}

TEST(CellName, EscapesSeparatorsAndRejectsOtherNames) {
  CellId id{"fl", "cpu", "decompress", "synthetic", "runs:1/2", {}};
  EXPECT_EQ(format_cell_name(id), "fl/cpu/decompress/synthetic/runs%3A1%2F2");
  EXPECT_EQ(parse_cell_name(format_cell_name(id)), id);
  EXPECT_FALSE(parse_cell_name("BM_Something/8"));
  EXPECT_FALSE(parse_cell_name("fl/tpu/compress/c/f"));
  EXPECT_FALSE(parse_cell_name("fl/cpu/squash/c/f"));
  EXPECT_FALSE(parse_cell_name("fl/cpu/compress/c/f/noaxis"));
}

TEST(CellName, ParamsAloneFormatAndParseBack) {
  const std::vector<std::pair<std::string, std::string>> params = {{"finder", "hash"},
                                                                   {"design", "thread"}};
  EXPECT_EQ(format_params(params), "finder:hash/design:thread");
  EXPECT_EQ(parse_params(format_params(params)), params);
  EXPECT_EQ(parse_params(""), (std::vector<std::pair<std::string, std::string>>{}));
  EXPECT_FALSE(parse_params("finder:hash/noaxis"));
}

TEST(ResultDocument, NamesWhatKeepsADocumentFromBeingOne) {
  const auto kind = [](const char* text) {
    const std::optional<DocumentFault> fault = fault_of(json::parse(text, nullptr, false));
    return fault ? std::optional<FaultKind>(fault->kind) : std::nullopt;
  };
  EXPECT_EQ(kind("{"), FaultKind::not_json);
  EXPECT_EQ(kind(R"({"context": {}})"), FaultKind::no_benchmarks);
  EXPECT_EQ(kind(R"({"benchmarks": {}})"), FaultKind::no_benchmarks);
  EXPECT_EQ(kind(R"({"benchmarks": [1]})"), FaultKind::bad_entry);
  EXPECT_EQ(kind(R"({"benchmarks": []})"), std::nullopt);
  EXPECT_EQ(fault_tag(FaultKind::not_json), "not-json");
  EXPECT_EQ(fault_tag(FaultKind::no_benchmarks), "no-benchmarks");
  EXPECT_EQ(fault_tag(FaultKind::bad_entry), "bad-entry");
  EXPECT_EQ(fault_tag(FaultKind::bad_field), "bad-field");
}

// A field that a reader reads, of another type than every writer gives it, is a fault naming
// the field and the entry (readers would otherwise stop at nlohmann's type_error).
TEST(ResultDocument, AFieldOfTheWrongTypeIsAFaultNamingIt) {
  const auto text = [](const char* doc) {
    const std::optional<DocumentFault> fault = fault_of(json::parse(doc));
    return fault ? fault->text : std::string("none");
  };
  EXPECT_EQ(text(R"({"benchmarks": [{"run_name": "a"}, {"run_name": 5}]})"),
            R"(field "run_name" of benchmarks[1]: expected a string, got a number)");
  EXPECT_EQ(text(R"({"benchmarks": [{"error_occurred": "yes"}]})"),
            R"(field "error_occurred" of benchmarks[0]: expected a boolean, got a string)");
  EXPECT_EQ(text(R"({"benchmarks": [{"real_time": null}]})"),
            R"(field "real_time" of benchmarks[0]: expected a number, got null)");
  EXPECT_EQ(text(R"({"benchmarks": [{"provenance": []}]})"),
            R"(field "provenance" of benchmarks[0]: expected an object, got an array)");
  EXPECT_EQ(text(R"({"context": 1, "benchmarks": []})"),
            R"(field "context": expected an object, got a number)");
  EXPECT_EQ(fault_of(json::parse(R"({"benchmarks": [{"run_name": "a", "real_time": 1,
      "iterations": 3, "error_occurred": false, "my_counter": "x"}]})")),
            std::nullopt);
}

// A measured entry's times and counters are measurements or the document is damaged: a negative,
// zero or absurd time, a negative or non-finite counter, is never read as a result. An entry of a
// failed cell carries none.
TEST(ResultDocument, TimesAndCountersNoMeasurementGivesAreFaults) {
  const auto kind = [](json entry) {
    entry["run_name"] = "fl/cpu/compress/c/f";
    const std::optional<DocumentFault> fault = fault_of({{"benchmarks", {entry}}});
    return fault ? std::optional<FaultKind>(fault->kind) : std::nullopt;
  };
  EXPECT_EQ(kind({{"real_time", 1.5}, {"time_unit", "ms"}, {"ratio", 2.0}}), std::nullopt);
  for (const double t : {-1.0, 0.0, 1e300}) {
    EXPECT_EQ(kind({{"real_time", t}, {"time_unit", "ns"}}), FaultKind::bad_value) << t;
  }
  EXPECT_EQ(kind({{"real_time", 1.0}, {"time_unit", "fortnights"}}), FaultKind::bad_value);
  EXPECT_EQ(kind({{"real_time", 1.0}, {"compressed_bytes", -5}}), FaultKind::bad_value);
  EXPECT_EQ(kind({{"real_time", 1.0}, {"ratio", std::nan("")}}), FaultKind::bad_value);
  EXPECT_EQ(kind({{"real_time", 1.0}, {"ratio", 1e19}}), FaultKind::bad_value);
  EXPECT_EQ(kind({{"error_occurred", true}, {"real_time", 0.0}}), std::nullopt);
  EXPECT_EQ(fault_tag(FaultKind::bad_value), "bad-value");
  EXPECT_EQ(fault_tag(FaultKind::duplicate), "duplicate");
}

// Two entries of one cell's run (name, run type, repetition and GPU alike) are damage, not two
// repetitions; repetitions and a cell's runs on two GPUs are not.
TEST(ResultDocument, AnEntryRepeatedIsAFault) {
  const json one = {{"run_name", "fl/cpu/compress/c/f"},
                    {"run_type", "iteration"},
                    {"real_time", 1.0},
                    {"repetition_index", 0}};
  json second = one;
  EXPECT_EQ(fault_of({{"benchmarks", {one, second}}})->kind, FaultKind::duplicate);
  second["repetition_index"] = 1;
  EXPECT_EQ(fault_of({{"benchmarks", {one, second}}}), std::nullopt);
  json gpu0 = one, gpu1 = one;
  gpu0["gpu"] = {{"index", 0}};
  gpu1["gpu"] = {{"index", 1}};
  EXPECT_EQ(fault_of({{"benchmarks", {gpu0, gpu1}}}), std::nullopt);
  EXPECT_EQ(fault_of({{"benchmarks", {gpu0, gpu0}}})->text,
            "benchmarks[1] repeats benchmarks[0] (the same cell, run and GPU)");
}

// Names as any output can hold them: control and non-UTF-8 bytes as \xNN, UTF-8 kept; and for
// Markdown, what would read as markup escaped.
TEST(CellName, PrintableAndMarkdownText) {
  EXPECT_EQ(printable("a b-c_d.txt"), "a b-c_d.txt");
  EXPECT_EQ(printable("new\nline\r"), "new\\x0aline\\x0d");
  EXPECT_EQ(printable(std::string("bad\xff") + "\x1b[31m"), "bad\\xff\\x1b[31m");
  EXPECT_EQ(printable("caf\xc3\xa9"), "caf\xc3\xa9");
  EXPECT_EQ(markdown_text("a_b-c.txt"), "a_b-c.txt");
  EXPECT_EQ(markdown_text("p|q"), "p\\|q");
  EXPECT_EQ(markdown_text("<b>[x](y)`z`"), "\\<b\\>\\[x\\](y)\\`z\\`");
  EXPECT_EQ(markdown_text("a\nb"), "a\\\\x0ab");
}

// A corpus name is one folder inside the folder it is written into, whatever it decodes to.
TEST(CellName, AFolderNameNeverLeadsOutOfItsFolder) {
  EXPECT_EQ(folder_name("silesia"), "silesia");
  EXPECT_EQ(folder_name(".."), "%2E%2E");
  EXPECT_EQ(folder_name("."), "%2E");
  EXPECT_EQ(folder_name("/abs/path"), "%2Fabs%2Fpath");
  EXPECT_EQ(folder_name("../../x"), "..%2F..%2Fx");
  EXPECT_EQ(folder_name(""), "%00");
  for (const char* name : {"..", ".", "/abs/path", "../../x", "", "a\\b", "-x"}) {
    const fs::path inside = fs::path("/out") / folder_name(name);
    EXPECT_EQ(inside.parent_path(), fs::path("/out")) << name;
    EXPECT_TRUE(is_plain_file_name(folder_name(name))) << name;
  }
  EXPECT_FALSE(is_plain_file_name("../x.svg"));
  EXPECT_FALSE(is_plain_file_name("/etc/passwd"));
  EXPECT_FALSE(is_plain_file_name(".."));
  EXPECT_TRUE(is_plain_file_name("ratio.svg"));
}

TEST(ResultDocument, AnEntrysCellComesFromItsRunNameElseItsName) {
  const std::string cell = "fl/cpu/compress/c/f/frame_size:64";
  EXPECT_EQ(format_cell_name(*cell_of({{"run_name", cell + "/real_time"}, {"name", "x"}})), cell);
  EXPECT_EQ(format_cell_name(*cell_of({{"name", cell + "/manual_time"}})), cell);
  EXPECT_EQ(cell_of({{"run_name", "BM_Other/8"}}), std::nullopt);
  EXPECT_EQ(cell_of(json::object()), std::nullopt);
}

// The export's own marker, and exports written before it; a shard merge's files are results.
TEST(FolderExport, IsRecognizedByItsContent) {
  EXPECT_TRUE(is_folder_export(result("a", {{kExportKey, "x"}})));
  EXPECT_TRUE(is_folder_export(
      result("a", {{"merged_from", "2 result files under d"}, {"merged_context_differs", ""}})));
  EXPECT_FALSE(is_folder_export(result("a", {{"merged_from", "2 inputs"}})));
  EXPECT_FALSE(is_folder_export(result("a")));
  EXPECT_FALSE(is_folder_export(json::array()));
}

TEST_F(TempFolder, AnExportInsideItsFolderIsNotExportedAgain) {
  write_json_file(root_ / "c" / "a.json", result("fl/cpu/compress/c/a", {{"k", "1"}}));
  write_json_file(root_ / "c" / "b.json", result("fl/cpu/compress/c/b", {{"k", "2"}}));
  const json exported = export_folder(root_);
  EXPECT_EQ(exported["benchmarks"].size(), 2u);
  EXPECT_TRUE(is_folder_export(exported));
  EXPECT_EQ(exported["context"]["merged_from"], "2 result files under " + root_.string());
  EXPECT_EQ(exported["context"]["merged_context_differs"], "k");
  write_json_file(root_ / "z.json", exported);  // sorts after the results
  EXPECT_EQ(export_folder(root_), exported);

  // An export alone is no result file; nor is an empty folder.
  fs::remove_all(root_ / "c");
  EXPECT_THROW(export_folder(root_), std::runtime_error);
  fs::remove(root_ / "z.json");
  EXPECT_THROW(export_folder(root_), std::runtime_error);
}

TEST_F(TempFolder, ListsResultFilesAndPlanFoldersRecursivelyAndSorted) {
  for (const char* name : {"b/x.json", "a.json", "b/notes.txt", "b/a.json.damaged-not-json"})
    write_file_atomically(root_ / name, "{}");
  fs::create_directories(root_ / "dir.json");  // a folder, not a file
  EXPECT_EQ(json_files_under(root_), (std::vector<fs::path>{root_ / "a.json", root_ / "b/x.json"}));
  EXPECT_EQ(read_json_file(root_ / "a.json"), json::object());
  EXPECT_THROW(read_json_file(root_ / "nowhere.json"), std::runtime_error);

  write_plan(root_ / "s2", {{2, 2}, {}});
  write_plan(root_, {{1, 2}, {}});
  EXPECT_EQ(plan_folders_under(root_), (std::vector<fs::path>{root_, root_ / "s2"}));
  EXPECT_EQ(read_plan(root_ / "s2")->shard, (Shard{2, 2}));
}

TEST(ShardPlan, RoundTripsAndRejectsForeignFiles) {
  const fs::path dir = gcbench::testing::fresh_test_folder("gcbench-shard-test");
  EXPECT_FALSE(read_plan(dir));
  const ShardPlan plan{{2, 3}, {{"a/cpu/compress/c/f", 1}, {"b/cpu/compress/c/f", 2}}};
  write_plan(dir, plan);
  const auto back = read_plan(dir);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->shard, plan.shard);
  EXPECT_EQ(back->cells, plan.cells);
  std::ofstream(dir / kPlanFileName) << "{\"benchmarks\": []}";
  try {
    read_plan(dir);
    ADD_FAILURE() << "a foreign file read as a plan";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("not a gcbench shard plan"), std::string::npos);
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace gcbench::results
