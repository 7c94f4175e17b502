// The report tool: reading Google Benchmark JSON into cells, table layouts (T7's exact CSV
// columns and total row), blanks with reasons, medians, and the written report.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "reports/measured.hpp"
#include "reports/render.hpp"
#include "reports/report.hpp"
#include "reports/results.hpp"
#include "reports/tables.hpp"
#include "reports/variants.hpp"
#include "src/results/cell_name.hpp"
#include "studies/main_job.hpp"
#include "studies/study.hpp"
#include "studies/thesis_tables.hpp"

namespace gcbench::reports {
namespace {

using json = nlohmann::json;

const Defaults kDefaults = {
    {"lz77/cpu", {{"finder", "hash"}, {"work_items", "1024"}, {"decode_mode", "parallel"}}},
    {"lz77/gpu", {{"finder", "hash"}, {"work_items", "1024"}, {"decode_mode", "auto"}}},
    {"zlib/cpu", {{"level", "6"}}}};

json row(const std::string& name, double time_ms, json counters) {
  json r = {{"name", name + "/real_time"},
            {"run_name", name + "/real_time"},
            {"run_type", "iteration"},
            {"iterations", 10},
            {"real_time", time_ms},
            {"cpu_time", time_ms},
            {"time_unit", "ms"}};
  for (auto& [k, v] : counters.items()) r[k] = v;
  return r;
}

json error_row(const std::string& name, const std::string& message) {
  return {{"name", name},
          {"run_name", name},
          {"run_type", "iteration"},
          {"error_occurred", true},
          {"error_message", message}};
}

// Canterbury-like: two files measured, one missing; no GPU.
json sample() {
  json b = json::array();
  for (auto [file, size, gz, ent] : std::vector<std::tuple<std::string, double, double, double>>{
           {"a.txt", 1000, 400, 500}, {"b.txt", 3000, 1000, 1500}}) {
    b.push_back(row("zlib/cpu/compress/cant/" + file + "/level:6", 2,
                    {{"input_bytes", size}, {"compressed_bytes", gz}, {"verified", 1}}));
    for (std::string wi : {"1024", "2048"}) {
      b.push_back(row("lz77/cpu/compress/cant/" + file + "/finder:hash/work_items:" + wi +
                          "/decode_mode:parallel",
                      wi == "1024" ? 3 : 4,
                      {{"input_bytes", size},
                       {"compressed_bytes", 2 * ent},
                       {"entropy_bytes", wi == "1024" ? ent : 1.0}}));
    }
  }
  // b.txt with the brute finder failed verification.
  b.push_back(
      error_row("lz77/cpu/compress/cant/b.txt/finder:brute/work_items:1024/decode_mode:parallel",
                "decompressed output differs from the input at byte 7"));
  return {{"context",
           {{"gpu", "none: built without CUDA"}, {"missing_file:cant/c.txt", "not in any mirror"}}},
          {"benchmarks", b}};
}

ResultSet sample_set() {
  ResultSet set;
  add_results(set, sample());
  return set;
}

TEST(Results, ReadsCellsContextAndMissingFiles) {
  ResultSet set = sample_set();
  EXPECT_EQ(set.cells.size(), 7u);
  EXPECT_FALSE(set.gpu_present);
  EXPECT_EQ(set.missing_files.at("cant/c.txt"), "not in any mirror");
  EXPECT_EQ(set.files_of("cant"), (std::vector<std::string>{"a.txt", "b.txt", "c.txt"}));
  EXPECT_EQ(set.files_of("cant", {"c.txt", "a.txt"}),
            (std::vector<std::string>{"c.txt", "a.txt", "b.txt"}));
  EXPECT_EQ(set.corpora(), std::vector<std::string>{"cant"});
}

TEST(Results, TakesMediansOverRepetitionsAndRejectsOtherDocuments) {
  json doc = {{"benchmarks", json::array()}};
  int repetition = 0;
  for (double t : {1.0, 5.0, 2.0}) {
    doc["benchmarks"].push_back(row("fl/cpu/compress/c/f/element_width:1", t,
                                    {{"input_bytes", 10}, {"repetition_index", repetition++}}));
  }
  doc["benchmarks"].push_back(row("BM_NotACell", 9, json::object()));
  ResultSet set;
  add_results(set, doc);
  ASSERT_EQ(set.cells.size(), 1u);
  EXPECT_DOUBLE_EQ(set.cells[0].time_s, 0.002);
  EXPECT_EQ(set.cells[0].repetitions, 3u);
  EXPECT_GT(set.cells[0].cv, 0.5);
  EXPECT_THROW(add_results(set, json{{"context", json::object()}}), std::runtime_error);
}

// A cell whose mean's error stayed over its target is marked; results written before the
// target's counter was named max_error_pct name it max_noise_pct.
TEST(Results, AnErrorOverItsTargetIsMarkedUnderEitherName) {
  Measurement m;
  m.counters = {{"error_pct", 2.0}, {"max_error_pct", 1.0}};
  EXPECT_TRUE(m.over_error_target());
  m.counters = {{"error_pct", 0.5}, {"max_error_pct", 1.0}};
  EXPECT_FALSE(m.over_error_target());
  m.counters = {{"error_pct", 2.0}, {"max_noise_pct", 1.0}};
  EXPECT_TRUE(m.over_error_target());
  m.counters = {{"error_pct", 2.0}};  // no target recorded
  EXPECT_FALSE(m.over_error_target());
  EXPECT_DOUBLE_EQ(*m.uncertainty(), 0.02);
}

TEST(Results, AnEmptyDirectoryIsAnErrorNotAnEmptyReport) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("gcbench-empty-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  EXPECT_THROW(load_results({dir}), std::runtime_error);
  std::filesystem::remove_all(dir);
}

// Another program's Google Benchmark JSON is valid, but holds no gcbench cell: refused in one
// line (gcbench-report exits 2), not a report of nothing with a plotting error.
TEST(Results, AFolderOfAnotherProgramsBenchmarkJsonIsRefused) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("gcbench-foreign-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  json doc = {{"context", json::object()}, {"benchmarks", json::array()}};
  doc["benchmarks"].push_back(row("BM_Other/8", 9, json::object()));
  std::ofstream(dir / "bm.json") << doc.dump();
  try {
    load_results({dir});
    ADD_FAILURE() << "no error";
  } catch (const NoResults& e) {
    EXPECT_EQ(std::string(e.what()),
              dir.string() + " holds no gcbench cells: 1 JSON file, none of them gcbench results");
  }
  std::filesystem::remove_all(dir);
}

TEST(Results, AGoodRerunReplacesAnErrorButNotTheOtherWayRound) {
  const std::string name = "fl/cpu/compress/c/f/element_width:1";
  ResultSet set;
  add_results(set, json{{"benchmarks", {error_row(name, "boom")}}});
  add_results(set, json{{"benchmarks", {row(name, 1, {{"input_bytes", 10}})}}});
  add_results(set, json{{"benchmarks", {error_row(name, "boom again")}}});
  ASSERT_EQ(set.cells.size(), 1u);
  EXPECT_FALSE(set.cells[0].error);
}

TEST(Tables, T7HasTheExactCsvColumnsAndATotalOverAvailableFiles) {
  ResultSet set = sample_set();
  TableBuilder b(set, kDefaults, "cant", set.files_of("cant"));
  std::vector<Table> tables = studies::lz77_tables(b);
  const Table& t7 = tables.back();
  ASSERT_EQ(t7.id, "lz77_t7");
  EXPECT_EQ(to_csv(t7),
            "file,size_bytes,zlib_bytes,zlib_ratio,lz77_hash_entropy_bytes,"
            "lz77_hash_entropy_ratio,reason\n"
            "a.txt,1000,400,2.500,500,2.000,\n"
            "b.txt,3000,1000,3.000,1500,2.000,\n"
            "c.txt,,,,,,file not available\n"
            "total (2 of 3 files),4000,1400,2.857,2000,2.000,\n");
}

// A user's folder's entries skipped on purpose (a FIFO, a file found twice) are no files of the
// total's count: only a file that is lost is "of" more files.
TEST(Tables, TheTotalCountsSkippedEntriesApartFromMissingFiles) {
  json doc = sample();
  doc["context"]["missing_file:cant/fifo"] = "skipped: a FIFO";
  doc["context"]["missing_file:cant/twice"] = "skipped: the same file as a.txt (measured once)";
  ResultSet set;
  add_results(set, doc);
  const auto label = [&](const std::vector<std::string>& files) {
    TableBuilder b(set, kDefaults, "cant", files);
    return studies::lz77_tables(b).back().total->label;
  };
  EXPECT_EQ(label({"a.txt", "b.txt", "c.txt", "fifo", "twice"}), "total (2 of 3 files; 2 skipped)");
  EXPECT_EQ(label({"a.txt", "b.txt", "fifo", "twice"}), "total (2 files; 2 skipped)");
  EXPECT_EQ(label({"a.txt", "b.txt", "c.txt"}), "total (2 of 3 files)");
  EXPECT_EQ(label({"a.txt", "b.txt"}), "total");
}

// With the gzip program's cells, the gzip columns are the program's and zlib keeps its own
// columns, named zlib; without them (above), zlib's columns are named zlib, never gzip.
TEST(Tables, GzipColumnsAreTheProgramsAndZlibKeepsItsOwn) {
  json doc = sample();
  for (auto [file, size, gz] : std::vector<std::tuple<std::string, double, double>>{
           {"a.txt", 1000, 410}, {"b.txt", 3000, 990}}) {
    doc["benchmarks"].push_back(row("gzip/cpu/compress/cant/" + file, 5,
                                    {{"input_bytes", size}, {"compressed_bytes", gz}}));
    doc["benchmarks"].push_back(row("gzip/cpu/decompress/cant/" + file, 1,
                                    {{"input_bytes", size}, {"compressed_bytes", gz}}));
  }
  ResultSet set;
  add_results(set, doc);
  TableBuilder b(set, kDefaults, "cant", set.files_of("cant"));
  std::vector<Table> tables = studies::lz77_tables(b);
  const Table& t7 = tables.back();
  ASSERT_EQ(t7.id, "lz77_t7");
  EXPECT_EQ(to_csv(t7).substr(0, to_csv(t7).find('\n')),
            "file,size_bytes,gzip_bytes,gzip_ratio,zlib_bytes,zlib_ratio,lz77_hash_entropy_bytes,"
            "lz77_hash_entropy_ratio,reason");
  EXPECT_NE(to_csv(t7).find("a.txt,1000,410,2.439,400,2.500,"), std::string::npos) << to_csv(t7);
  const Table summary = studies::summary_table(b);
  std::vector<std::string> headers;
  for (const Column& c : summary.columns) headers.push_back(c.header);
  EXPECT_NE(std::find(headers.begin(), headers.end(), "gzip time"), headers.end());
  EXPECT_NE(std::find(headers.begin(), headers.end(), "zlib ratio"), headers.end());
}

TEST(Tables, BlanksCarryTheirReason) {
  ResultSet set = sample_set();
  TableBuilder b(set, kDefaults, "cant", set.files_of("cant"));
  EXPECT_EQ(b.value("a.txt", Query{"lz77", "gpu", "compress", {}, Quantity::time}).reason,
            "no device");
  EXPECT_EQ(b.value("c.txt", Query{"lz77", "cpu", "compress", {}, Quantity::time}).reason,
            "file not available");
  EXPECT_EQ(b.value("a.txt", Query{"fl", "cpu", "compress", {}, Quantity::time}).reason,
            "not measured");
  EXPECT_EQ(
      b.value("b.txt", Query{"lz77", "cpu", "compress", {{"finder", "brute"}}, Quantity::time})
          .reason,
      "error: decompressed output differs from the input at byte 7");
  EXPECT_EQ(b.value("a.txt", Query{"zlib", "cpu", "compress", {}, Quantity::entropy_bytes}).reason,
            "no entropy_bytes counter");
  // Axes not fixed by the query take the codec's defaults: work_items 1024, not 2048.
  EXPECT_DOUBLE_EQ(*b.value("a.txt", Query{"lz77", "cpu", "compress", {}, Quantity::time}).value,
                   0.003);
  EXPECT_DOUBLE_EQ(
      *b.value("a.txt", Query{"lz77", "cpu", "compress", {{"work_items", "2048"}}, Quantity::time})
           .value,
      0.004);
}

// A GPU cell skipped because its buffers do not fit in device memory reads as skipped, with
// its reason, in the tables, and its variant as not measured on that file, not as failed.
TEST(Tables, ACellSkippedOnPurposeShowsItsReasonNotAnError) {
  json doc = sample();
  const std::string reason = "skipped: needs 150.2 GB on the device, 139.1 GB free";
  doc["benchmarks"].push_back(error_row(
      "lz77/gpu/compress/cant/a.txt/finder:hash/work_items:1024/decode_mode:auto", reason));
  ResultSet set;
  add_results(set, doc);
  TableBuilder b(set, kDefaults, "cant", set.files_of("cant"));
  EXPECT_EQ(b.value("a.txt", Query{"lz77", "gpu", "compress", {}, Quantity::time}).reason, reason);
  // Measured on no file: neither a row nor a variant left out as failed.
  const Table t = variants_table(set, "cant");
  EXPECT_EQ(t.caption.find("lz77/gpu"), std::string::npos) << t.caption;
  EXPECT_EQ(to_csv(t).find("lz77/gpu"), std::string::npos);
}

TEST(Tables, CpuAndGpuCellsEachMatchTheirOwnDefaults) {
  json doc = sample();
  doc["context"]["gpu"] = "NVIDIA H200";
  doc["benchmarks"].push_back(
      row("lz77/gpu/compress/cant/a.txt/finder:hash/work_items:1024/decode_mode:auto", 1,
          {{"input_bytes", 1000}, {"compressed_bytes", 900}}));
  ResultSet set;
  add_results(set, doc);
  TableBuilder b(set, kDefaults, "cant", set.files_of("cant"));
  EXPECT_DOUBLE_EQ(*b.value("a.txt", Query{"lz77", "gpu", "compress", {}, Quantity::time}).value,
                   0.001);
  EXPECT_DOUBLE_EQ(*b.value("a.txt", Query{"lz77", "cpu", "compress", {}, Quantity::time}).value,
                   0.003);
}

// sample() plus GPU LZ77 cells of two designs on a.txt (end to end: thread 0.5 s, warp 0.02 s).
json with_gpu_designs() {
  json doc = sample();
  doc["context"]["gpu"] = "NVIDIA H200";
  for (auto [design, e2e] :
       std::vector<std::pair<std::string, double>>{{"thread", 0.5}, {"warp", 0.02}}) {
    doc["benchmarks"].push_back(
        row("lz77/gpu/compress/cant/a.txt/finder:hash/work_items:1024/design:" + design +
                "/decode_mode:auto",
            1, {{"input_bytes", 1000}, {"compressed_bytes", 900}, {"e2e_s", e2e}}));
  }
  return doc;
}

TEST(Tables, SummaryShowsEachMeasuredGpuDesignBesideTheDefaultOne) {
  ResultSet set;
  add_results(set, with_gpu_designs());
  Defaults defaults = kDefaults;
  defaults["lz77/gpu"]["design"] = "thread";
  const Table t = studies::summary_table(TableBuilder(set, defaults, "cant", set.files_of("cant")));
  auto column = [&](const std::string& header) {
    for (std::size_t i = 0; i < t.columns.size(); ++i) {
      if (t.columns[i].header == header) return static_cast<int>(i);
    }
    return -1;
  };
  const int thesis = column("lz77 GPU end-to-end time"),
            warp = column("lz77 GPU warp end-to-end time");
  ASSERT_GE(thesis, 0);
  ASSERT_GE(warp, 0);
  EXPECT_EQ(column("lz77 GPU thread end-to-end time"), -1);
  ASSERT_EQ(t.rows[0].label, "a.txt");
  EXPECT_DOUBLE_EQ(*t.rows[0].values[thesis].value, 0.5);
  EXPECT_DOUBLE_EQ(*t.rows[0].values[warp].value, 0.02);
}

// A report built without CUDA has no GPU codecs, so no GPU defaults of its own: it takes the
// ones the measuring gcbench recorded in the context.
TEST(Report, UsesTheDefaultsRecordedWithTheResults) {
  json doc = with_gpu_designs();
  doc["context"]["defaults:lz77/gpu"] =
      "finder:hash/work_items:1024/design:thread/decode_mode:auto";
  ResultSet set;
  add_results(set, doc);
  EXPECT_EQ(set.defaults.at("lz77/gpu").at("design"), "thread");
  EXPECT_EQ(set.defaults.at("lz77/gpu").at("work_items"), "1024");
  const auto dir = std::filesystem::temp_directory_path() / "gcbench_report_defaults_test";
  std::filesystem::remove_all(dir);
  Defaults without_gpu = kDefaults;
  without_gpu.erase("lz77/gpu");
  const std::string summary =
      write_report(set, ReportOptions{dir, without_gpu, {}, std::nullopt, studies::report_tables()})
          .summaries.at("cant");
  // End-to-end times of 0.5 s and 0.02 s, each column in ms (its median is below 1 s).
  EXPECT_NE(summary.find("| lz77 GPU end-to-end time [ms] | lz77 GPU warp end-to-end time [ms] |"),
            std::string::npos)
      << summary;
  EXPECT_NE(summary.find("| a.txt | 500 | 20 |"), std::string::npos) << summary;
  std::filesystem::remove_all(dir);
}

TEST(Variants, CorpusTotalsPerVariantWithFailedOrPartialOnesLeftOut) {
  const Table t = variants_table(sample_set(), "cant");
  EXPECT_EQ(t.label_header, "variant");
  // zlib: 4000 bytes in 2 files, 1400 out, 2 ms each: 4000 B / 4 ms = 0.001 GB/s. LZ77's
  // container ratio is the raw container's, its entropy-coded ratio beside it (the cells'
  // entropy_bytes); zlib has no entropy stage of its own recorded.
  EXPECT_EQ(to_csv(t),
            "variant,container_ratio,entropy_ratio,compress_gbps,compress_e2e_gbps,"
            "decompress_gbps,decompress_e2e_gbps,reason\n"
            "lz77/cpu/finder:hash/work_items:1024/decode_mode:parallel,1.000,2.000,0.0006667,"
            "0.0006667,,,not measured\n"
            "lz77/cpu/finder:hash/work_items:2048/decode_mode:parallel,1.000,2000.000,0.0005,"
            "0.0005,,,not measured\n"
            "zlib/cpu/level:6,2.857,,0.001,0.001,,,no entropy stage (entropy_ratio); not measured "
            "(decompress_gbps decompress_e2e_gbps)\n");
  EXPECT_NE(t.caption.find("Left out (failed on a file): "
                           "lz77/cpu/finder:brute/work_items:1024/decode_mode:parallel"),
            std::string::npos);
}

TEST(Variants, DecompressionOnlyVariantsAreNotCalledFailed) {
  json doc = sample();
  doc["benchmarks"].push_back(
      row("lz77/cpu/decompress/cant/a.txt/finder:hash/work_items:1024/decode_mode:sequential", 1,
          {{"input_bytes", 1000}}));
  ResultSet set;
  add_results(set, doc);
  const Table t = variants_table(set, "cant");
  EXPECT_NE(t.caption.find("Left out (not compressed on all of these files): "
                           "lz77/cpu/finder:hash/work_items:1024/decode_mode:sequential."),
            std::string::npos)
      << t.caption;
  EXPECT_EQ(t.caption.find("failed on a file): lz77/cpu/finder:hash/work_items:1024/decode_mode:"
                           "sequential"),
            std::string::npos);
}

// A GPU cell timed kernel-only (--timing kernel) has no e2e_s: its end-to-end columns are
// blanks that say so, never its kernel time passed off as end-to-end.
TEST(Variants, KernelOnlyGpuCellsHaveNoEndToEndFigure) {
  json doc = sample();
  for (const char* file : {"a.txt", "b.txt"}) {
    for (const char* direction : {"compress", "decompress"}) {
      doc["benchmarks"].push_back(
          row(std::string("rle/gpu/") + direction + "/cant/" + file + "/element_width:1", 1,
              {{"input_bytes", 1000}, {"compressed_bytes", 500}, {"kernel_s", 0.001}}));
    }
  }
  ResultSet set;
  add_results(set, doc);
  const Table t = variants_table(set, "cant");
  const auto gpu = std::find_if(t.rows.begin(), t.rows.end(),
                                [](const Row& r) { return r.label == "rle/gpu/element_width:1"; });
  ASSERT_NE(gpu, t.rows.end()) << to_csv(t);
  EXPECT_DOUBLE_EQ(*gpu->values[2].value, 2000.0 / 2e-3 * 1e-9);
  for (std::size_t column : {3u, 5u}) {
    EXPECT_FALSE(gpu->values[column].value) << column;
    EXPECT_EQ(gpu->values[column].reason, "timed kernel-only (--timing kernel)");
  }
  EXPECT_TRUE(gpu->values[4].value);
}

TEST(Variants, TotalsCoverOnlyTheFilesEveryVariantCompressed) {
  json doc = sample();
  doc["benchmarks"].push_back(row("zlib/cpu/compress/cant/c2.txt/level:6", 2,
                                  {{"input_bytes", 5000}, {"compressed_bytes", 100}}));
  ResultSet set;
  add_results(set, doc);
  const Table t = variants_table(set, "cant");
  EXPECT_NE(t.caption.find("Over the 2 file(s) every variant measured on most of the corpus "
                           "compressed: a.txt, b.txt."),
            std::string::npos)
      << t.caption;
  ASSERT_EQ(t.rows.size(), 3u);
  EXPECT_DOUBLE_EQ(*t.rows[2].values[0].value, 4000.0 / 1400.0);  // zlib without c2.txt
}

// A slow variant measured on the first file only (a preset's thread design) is left out and
// named, instead of narrowing every other variant's total to that file.
TEST(Variants, AVariantOfAFewFilesDoesNotNarrowTheOthersTotals) {
  json doc = {{"context", {{"git_revision", "abc"}}}, {"benchmarks", json::array()}};
  for (const char* file : {"a.txt", "b.txt", "c.txt", "d.txt"}) {
    for (const char* codec : {"fl/cpu/compress/cant/", "zlib/cpu/compress/cant/"}) {
      doc["benchmarks"].push_back(row(std::string(codec) + file + "/level:6", 1,
                                      {{"input_bytes", 1000}, {"compressed_bytes", 500}}));
    }
  }
  doc["benchmarks"].push_back(row("lz77/cpu/compress/cant/a.txt/finder:z", 9,
                                  {{"input_bytes", 1000}, {"compressed_bytes", 700}}));
  ResultSet set;
  add_results(set, doc);
  const Table t = variants_table(set, "cant");
  EXPECT_NE(t.caption.find("compressed: a.txt, b.txt, c.txt, d.txt."), std::string::npos)
      << t.caption;
  EXPECT_NE(t.caption.find("Left out (not compressed on all of these files): "
                           "lz77/cpu/finder:z."),
            std::string::npos)
      << t.caption;
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_DOUBLE_EQ(*t.rows[0].values[0].value, 2.0);
}

TEST(Tables, T2HasAColumnPerWorkItemCountAndT1IsBlankWithoutADevice) {
  ResultSet set = sample_set();
  TableBuilder b(set, kDefaults, "cant", set.files_of("cant"));
  std::vector<Table> tables = studies::lz77_tables(b);
  const Table& t1 = tables[0];
  const Table& t2 = tables[1];
  ASSERT_EQ(t2.columns.size(), 2u);
  EXPECT_EQ(t2.columns[0].csv, "work_items_1024_s");
  EXPECT_EQ(to_csv(t2).substr(0, to_csv(t2).find("b.txt")),
            "file,work_items_1024_s,work_items_2048_s,reason\na.txt,0.003,0.004,\n");
  EXPECT_EQ(csv_number(t2.total->values[1], Unit::seconds), "0.008");
  EXPECT_EQ(display_value(t2.total->values[1], Unit::seconds, DisplayUnit{"ms", 1e3}), "8");
  EXPECT_EQ(display_value(t1.rows[0].values[0], Unit::seconds, {}), "n/a (no device)");
  EXPECT_EQ(csv_number(t1.total->values[0], Unit::seconds), "");
  // Nothing in T1 has a value: the report writes no T1, only why.
  const MeasuredPart shown = measured_part(t1);
  EXPECT_FALSE(shown.any);
  EXPECT_EQ(shown.note, "no device, file not available");
}

TEST(Render, MarkdownAndLatexShowBlanksAndEscape) {
  Table t{"x_t", "A_title", "cap", {Column{"a_b", "a_b", Unit::bytes, {}}}, {}, std::nullopt};
  t.rows.push_back(Row{"f_1", {Value::of(12)}});
  t.rows.push_back(Row{"f_2", {Value::blank("no device")}});
  EXPECT_EQ(to_markdown(t),
            "| file | a_b |\n|---|---:|\n| f_1 | 12 |\n| f_2 | n/a (no device) |\n");
  std::string tex = to_latex(t);
  EXPECT_NE(tex.find("f\\_1 & 12 \\\\"), std::string::npos) << tex;
  EXPECT_NE(tex.find("\\textit{n/a (no device)}"), std::string::npos) << tex;
  EXPECT_NE(tex.find("\\caption{A\\_title. cap}"), std::string::npos) << tex;
}

TEST(Render, TimesInTheColumnsUnitWithTheirSpread) {
  Table t{"x_t", "title",     "cap", {Column{"gzip time", "gzip_s", Unit::seconds, {}}},
          {},    std::nullopt};
  Value timed = Value::of(0.0123);
  timed.spread = 0.021;
  t.rows.push_back(Row{"f_1", {timed}});
  t.rows.push_back(Row{"f_2", {Value::of(0.5)}});
  EXPECT_EQ(to_markdown(t),
            "| file | gzip time [ms] |\n|---|---:|\n| f_1 | 12.3 ±2.1% |\n| f_2 | 500 |\n");
  EXPECT_EQ(to_csv(t), "file,gzip_s,reason\nf_1,0.0123,\nf_2,0.5,\n");
  EXPECT_NE(to_latex(t).find("12.3 {\\footnotesize$\\pm$2.1\\%}"), std::string::npos)
      << to_latex(t);
}

// One unit per quantity per table: a column of fast times and one of slow times share theirs,
// and a GPU's throughput beside a CPU's does not turn MB/s into five-digit numbers.
TEST(Render, OneUnitPerQuantityPerTableChosenForTheRange) {
  Table t{"x_t",
          "title",
          "cap",
          {Column{"fast", "fast_s", Unit::seconds, {}}, Column{"slow", "slow_s", Unit::seconds, {}},
           Column{"cpu", "cpu_gbps", Unit::gb_per_s, {}},
           Column{"gpu", "gpu_gbps", Unit::gb_per_s, {}}},
          {},
          std::nullopt};
  t.rows.push_back(Row{"f_1", {Value::of(0.002), Value::of(1.2), Value::of(0.05), Value::of(160)}});
  t.rows.push_back(Row{"f_2", {Value::of(0.004), Value::of(2.5), Value::of(0.08), Value::of(150)}});
  EXPECT_EQ(
      to_markdown(t),
      "| file | fast [ms] | slow [ms] | cpu [GB/s] | gpu [GB/s] |\n|---|---:|---:|---:|---:|\n"
      "| f_1 | 2 | 1200 | 0.05 | 160 |\n| f_2 | 4 | 2500 | 0.08 | 150 |\n");
  // All times above ten seconds' worth: seconds.
  t.rows[1].values[1] = Value::of(12);
  EXPECT_NE(to_markdown(t).find("| file | fast [s] | slow [s] |"), std::string::npos)
      << to_markdown(t);
}

// A column with a value in one row of many is named under the table, not shown as a column of
// blanks; the CSV keeps it.
TEST(Measured, AColumnWithAValueInNearlyNoRowIsNamedUnderTheTable) {
  Table t{"x_t",
          "title",
          "cap",
          {Column{"hash", "hash_s", Unit::seconds, {}},
           Column{"brute", "brute_s", Unit::seconds, {}}, Column{"z", "z_s", Unit::seconds, {}}},
          {},
          std::nullopt};
  for (int i = 0; i < 10; ++i) {
    const bool first = i == 0;
    t.rows.push_back(Row{"f" + std::to_string(i),
                         {Value::of(0.001), first ? Value::of(0.5) : Value::blank("not measured"),
                          first ? Value::of(0.9) : Value::blank("not measured")}});
  }
  const MeasuredPart shown = measured_part(t);
  ASSERT_TRUE(shown.any);
  ASSERT_EQ(shown.table.columns.size(), 1u);
  EXPECT_EQ(shown.table.columns[0].header, "hash");
  EXPECT_EQ(shown.note,
            "Not shown, a value for f0 only (the others: not measured), in the CSV: brute, z.");
  EXPECT_NE(to_csv(t).find("f0,0.001,0.5,0.9,"), std::string::npos) << to_csv(t);
  // A short table keeps such a column.
  t.rows.resize(3);
  EXPECT_EQ(measured_part(t).table.columns.size(), 3u);
}

// Corpus names from a result file that a path would read as other folders ("..", an absolute
// path, "../../x") give folders of their own inside --out: nothing is written or removed
// outside it.
TEST(Report, NoCorpusNameLeadsOutsideTheReportFolder) {
  const auto root = std::filesystem::temp_directory_path() /
                    ("gcbench_report_confined_" + std::to_string(::getpid()));
  std::filesystem::remove_all(root);
  const auto out = root / "out";
  const std::string absolute = (root / "abs").string();
  json doc = {{"benchmarks", json::array()}};
  for (const std::string& corpus : {std::string(".."), std::string("../../x"), absolute}) {
    doc["benchmarks"].push_back(
        row("zlib/cpu/compress/" + results::escape_name_part(corpus) + "/a.txt/level:6", 2,
            {{"input_bytes", 1000}, {"compressed_bytes", 400}}));
  }
  ResultSet set;
  add_results(set, doc);
  ASSERT_EQ(set.corpora().size(), 3u);
  write_report(set, ReportOptions{out, kDefaults, {}, std::nullopt, studies::report_tables()});
  std::vector<std::string> in_root;
  for (const auto& entry : std::filesystem::directory_iterator(root)) {
    in_root.push_back(entry.path().filename().string());
  }
  EXPECT_EQ(in_root, std::vector<std::string>{"out"});
  EXPECT_FALSE(std::filesystem::exists(absolute));
  EXPECT_TRUE(std::filesystem::exists(out / "%2E%2E" / "variants.md"));
  EXPECT_TRUE(std::filesystem::exists(out / results::folder_name(absolute) / "variants.md"));
  std::filesystem::remove_all(root);
}

// Names that would break a table: a pipe, a newline, a byte that is not UTF-8, HTML and a link;
// and an empty file. Every Markdown table row has its header's column count, every CSV row the
// header's field count, nothing but valid UTF-8 is written, nothing renders as HTML or a link,
// and the totals have figures (the empty file's ratio is left out, and named).
TEST(Report, NamesThatWouldBreakATableAreEscaped) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("gcbench_report_names_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  json doc = {{"benchmarks", json::array()}};
  const std::vector<std::string> names = {"pipe|table|.txt", "new\nline\r.txt",
                                          std::string("bad\xff\xfe.txt"),
                                          "<b>x</b>[y](javascript:alert(1)).txt", "empty.txt"};
  for (const std::string& file : names) {
    const double in = file == "empty.txt" ? 0 : 1000;
    doc["benchmarks"].push_back(
        row("zlib/cpu/compress/cant/" + results::escape_name_part(file) + "/level:6", 2,
            {{"input_bytes", in}, {"compressed_bytes", 20 + in / 4}, {"verified", 1}}));
  }
  ResultSet set;
  add_results(set, doc);
  write_report(set, ReportOptions{dir, kDefaults, {}, std::nullopt, studies::report_tables()});
  std::size_t tables = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path());
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    for (const unsigned char c : text) {
      EXPECT_TRUE(c >= 0x20 || c == '\n') << entry.path() << " holds byte " << int(c);
    }
    const auto ext = entry.path().extension();
    if (ext == ".md") {  // no raw HTML, and no link: its ']' escaped
      EXPECT_EQ(text.find("<b>"), std::string::npos) << entry.path();
      for (std::size_t at = text.find("](javascript"); at != std::string::npos;
           at = text.find("](javascript", at + 1)) {
        EXPECT_EQ(text[at - 1], '\\') << entry.path() << ": " << text.substr(at - 20, 40);
      }
    }
    std::istringstream lines(text);
    std::optional<std::size_t> columns;
    for (std::string line; std::getline(lines, line);) {
      if (ext == ".md") {
        if (!line.starts_with("|")) {
          columns.reset();
          continue;
        }
        std::size_t bars = 0;  // unescaped '|'
        for (std::size_t i = 0; i < line.size(); ++i)
          bars += line[i] == '|' && (i == 0 || line[i - 1] != '\\');
        if (!columns) {
          columns = bars;
          ++tables;
        }
        EXPECT_EQ(bars, *columns) << entry.path() << ": " << line;
        if (line.starts_with("| **total")) {
          EXPECT_EQ(line.find("n/a"), std::string::npos) << line;
          EXPECT_NE(line.find("without empty.txt (empty)"), std::string::npos) << line;
        }
      } else if (ext == ".csv") {
        std::size_t fields = 1;
        bool quoted = false;
        for (const char c : line) {
          if (c == '"') quoted = !quoted;
          fields += c == ',' && !quoted;
        }
        if (!columns) columns = fields;
        EXPECT_EQ(fields, *columns) << entry.path() << ": " << line;
      }
    }
  }
  EXPECT_GT(tables, 2u);
  std::filesystem::remove_all(dir);
}

// Folders of two GPUs and a CPU-only machine together: each GPU's cells kept (tables split
// them by model), a cell found twice named, and the header names every machine.
TEST(Report, FoldersOfSeveralMachinesKeepEachGpusCellsAndNameDuplicates) {
  const auto gpu_doc = [](const std::string& model, const std::string& context_gpu) {
    json doc = {{"context", {{"gpu", context_gpu}}}, {"benchmarks", json::array()}};
    json r = row("fl/gpu/compress/cant/a.txt/element_width:1", 1, {{"input_bytes", 1000}});
    r["gpu"] = {{"index", 0}, {"name", model}};
    doc["benchmarks"].push_back(r);
    doc["benchmarks"].push_back(row("zlib/cpu/compress/cant/a.txt/level:6", 2,
                                    {{"input_bytes", 1000}, {"compressed_bytes", 400}}));
    return doc;
  };
  ResultSet set;
  add_results(set, gpu_doc("NVIDIA H100", "NVIDIA H100 80GB"), "h100/a.json");
  add_results(set, gpu_doc("NVIDIA H200", "NVIDIA H200"), "h200/a.json");
  json cpu_only = {{"context", {{"gpu", "none: built without CUDA"}}},
                   {"benchmarks", json::array()}};
  cpu_only["benchmarks"].push_back(row("zlib/cpu/decompress/cant/a.txt/level:6", 1,
                                       {{"input_bytes", 1000}, {"compressed_bytes", 400}}));
  add_results(set, cpu_only, "cpu/a.json");
  EXPECT_EQ(std::count_if(set.cells.begin(), set.cells.end(),
                          [](const Measurement& m) { return m.id.device == "gpu"; }),
            2);
  ASSERT_EQ(set.duplicates.size(), 1u);
  EXPECT_EQ(
      set.duplicates[0],
      "zlib/cpu/compress/cant/a.txt/level:6 in h100/a.json and h200/a.json: h200/a.json's kept");
  const auto dir = std::filesystem::temp_directory_path() /
                   ("gcbench_report_machines_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  const WrittenReport w =
      write_report(set, ReportOptions{dir, kDefaults, {}, std::nullopt, studies::report_tables()});
  std::ifstream in(w.index);
  const std::string md((std::istreambuf_iterator<char>(in)), {});
  EXPECT_NE(md.find("NVIDIA H100 (1 cells), NVIDIA H200 (1 cells)"), std::string::npos) << md;
  EXPECT_NE(md.find("## Cells found twice"), std::string::npos) << md;
  std::filesystem::remove_all(dir);
}

// Results of two builds are named, for the tool to refuse unless allowed.
TEST(Report, SeveralBuildsAreNamed) {
  ResultSet set;
  for (const char* revision : {"aaaa", "bbbb (2 cells); aaaa (1 cells)"}) {
    json doc = {{"context", {{"git_revision", revision}, {"build_type", "Release"}}},
                {"benchmarks", json::array()}};
    doc["benchmarks"].push_back(
        row("zlib/cpu/compress/cant/a.txt/level:6", 2, {{"input_bytes", 10}}));
    add_results(set, doc);
  }
  EXPECT_EQ(mixed_builds(set), "git_revision aaaa, bbbb");
}

TEST(Report, WritesIndexAndTheTablesThatHaveValues) {
  const auto dir = std::filesystem::temp_directory_path() / "gcbench_report_test";
  std::filesystem::remove_all(dir);
  ResultSet set = sample_set();
  WrittenReport w =
      write_report(set, ReportOptions{dir, kDefaults, {}, std::nullopt, studies::report_tables()});
  std::ifstream in(w.index);
  std::string md((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(md.find("## cant"), std::string::npos);
  EXPECT_NE(md.find("T7: sizes"), std::string::npos);
  EXPECT_NE(md.find("## Failed cells"), std::string::npos);
  EXPECT_NE(md.find("Not measured (no table written): T1: LZ77 hash compression kernel time on "
                    "GPU, cant (no device, file not available);"),
            std::string::npos)
      << md;
  EXPECT_TRUE(std::filesystem::exists(dir / "cant" / "lz77_t7.csv"));
  EXPECT_TRUE(std::filesystem::exists(dir / "cant" / "lz77_t7.tex"));
  EXPECT_FALSE(std::filesystem::exists(dir / "cant" / "lz77_t1.csv"));
  // The summary shows what was measured and names the rest: no column of "n/a (no device)".
  const std::string& summary = w.summaries.at("cant");
  EXPECT_EQ(summary.find("n/a"), std::string::npos) << summary;
  EXPECT_NE(summary.find("| a.txt | 3 | 2.000 | 2 | 2.500 |"), std::string::npos) << summary;
  EXPECT_NE(summary.find("Not shown, no value: c.txt (file not available); lz77 GPU "
                         "end-to-end time, lz77 GPU memory (no device); lz77 CPU memory (no "
                         "memory_host_bytes counter)."),
            std::string::npos)
      << summary;
  EXPECT_EQ(md.find("Plots"), std::string::npos);  // no plot setup, no plot section
  std::filesystem::remove_all(dir);
}

// Typed arrays of two dtypes: each file's fl cells at its own width (the driver's
// input_element_width counter), not the axis's default of 1, are its default cells: the
// summary shows fl's figures for both files, and the variants table totals them as one
// variant, "element_width:dtype".
TEST(Report, TypedArraysOfSeveralWidthsAreShownAtTheirOwnWidths) {
  json b = json::array();
  for (const auto& [file, width] : {std::pair{"col16.npy", 2}, std::pair{"col32.npy", 4}}) {
    for (const std::string direction : {"compress", "decompress"}) {
      b.push_back(row("fl/cpu/" + direction + "/data/" + file +
                          "/element_width:" + std::to_string(width) + "/frame_size:1024",
                      2,
                      {{"input_bytes", 1000},
                       {"compressed_bytes", 500},
                       {"input_element_width", width},
                       {"memory_host_bytes", 4096}}));
    }
  }
  ResultSet set;
  add_results(set, {{"context", {{"typed_corpus:data", "2 typed inputs"}}}, {"benchmarks", b}});
  const Defaults defaults = {{"fl/cpu", {{"element_width", "1"}, {"frame_size", "1024"}}}};
  const TableBuilder builder(set, defaults, "data", set.files_of("data"));
  const std::string summary = to_markdown(studies::summary_table(builder));
  // fl's CPU time, memory and ratio; its GPU columns blank (no device), gzip not measured.
  for (const char* file : {"col16.npy", "col32.npy"}) {
    EXPECT_NE(summary.find(std::string("| ") + file +
                           " | n/a (no device) | n/a (no device) | 2 | "
                           "4096 | 2.000 |"),
              std::string::npos)
        << summary;
  }
  const std::string variants = to_markdown(variants_table(set, "data"));
  EXPECT_NE(variants.find("| fl/cpu/frame_size:1024/element_width:dtype | 2.000 |"),
            std::string::npos)
      << variants;
}

}  // namespace
}  // namespace gcbench::reports
