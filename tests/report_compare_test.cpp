// gcbench-report --compare: the statistics against hand-computed values; verdicts on small
// fixtures with repetitions and on many-cell runs drawn from fixed seeds (identical runs, a codec
// 1.5x slower, a noisy cell); exit statuses; bad input.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "reports/compare.hpp"
#include "reports/compare_page.hpp"
#include "reports/compare_run.hpp"
#include "reports/stats.hpp"

namespace gcbench::reports {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// --- the statistics ---

TEST(Stats, MannWhitneyUCompleteSeparation) {
  // U = 0, mean 12.5, sigma^2 = 5*5/12 * 11 = 22.9167; z = (12.5 - 0.5) / 4.78714 = 2.50672;
  // p = erfc(z / sqrt 2) = 0.0121858.
  const stats::UTest t = stats::mann_whitney_u({1, 2, 3, 4, 5}, {6, 7, 8, 9, 10});
  EXPECT_DOUBLE_EQ(t.u, 0);
  EXPECT_NEAR(t.z, 2.50672, 1e-5);
  EXPECT_NEAR(t.p, 0.0121858, 1e-6);
  // Symmetric: the other order gives U = 25 and the same p.
  const stats::UTest r = stats::mann_whitney_u({6, 7, 8, 9, 10}, {1, 2, 3, 4, 5});
  EXPECT_DOUBLE_EQ(r.u, 25);
  EXPECT_NEAR(r.p, t.p, 1e-12);
}

TEST(Stats, MannWhitneyUWithTies) {
  // Ranks of 1 2 2 2 3 3 3 4: 1, 3 3 3, 6 6 6, 8. x = {1,2,2,3}: R = 13, U = 13 - 10 = 3.
  // Ties: two groups of 3, sum(t^3 - t) = 48; sigma^2 = 16/12 * (9 - 48/56) = 10.857143;
  // z = (|3 - 8| - 0.5) / 3.295018 = 1.365698; p = 0.172034.
  const stats::UTest t = stats::mann_whitney_u({1, 2, 2, 3}, {2, 3, 3, 4});
  EXPECT_DOUBLE_EQ(t.u, 3);
  EXPECT_NEAR(t.z, 1.365698, 1e-6);
  EXPECT_NEAR(t.p, 0.172034, 1e-6);
}

TEST(Stats, MannWhitneyUAllTiedOrIdenticalIsNotSignificant) {
  EXPECT_DOUBLE_EQ(stats::mann_whitney_u({3, 3, 3}, {3, 3, 3}).p, 1);
  EXPECT_DOUBLE_EQ(stats::mann_whitney_u({1, 2, 3, 4}, {1, 2, 3, 4}).p, 1);
}

TEST(Stats, EnoughRepetitionsMeansSomeOutcomeCouldBeSignificant) {
  // 3 a side: at best z = 4 / 2.2913 = 1.746, p = 0.081; 4 a side: p = 0.030.
  EXPECT_FALSE(stats::enough_for_u_test(3, 3, 0.05));
  EXPECT_TRUE(stats::enough_for_u_test(4, 4, 0.05));
  EXPECT_FALSE(stats::enough_for_u_test(1, 100, 0.05));
  EXPECT_TRUE(stats::enough_for_u_test(2, 10, 0.05));
  EXPECT_FALSE(stats::enough_for_u_test(0, 10, 0.05));
}

TEST(Stats, QuartilesAndGeometricMean) {
  EXPECT_DOUBLE_EQ(stats::median({4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(stats::quantile({1, 2, 3, 4}, 0.25), 1.75);
  EXPECT_DOUBLE_EQ(stats::iqr({1, 2, 3, 4}), 1.5);
  EXPECT_NEAR(*stats::geometric_mean({2, 8}), 4, 1e-12);
  EXPECT_FALSE(stats::geometric_mean({2, 0}));
  EXPECT_FALSE(stats::geometric_mean({}));
}

TEST(Stats, SignTestIsTwoSidedBinomial) {
  EXPECT_DOUBLE_EQ(stats::sign_test(0, 0), 1);
  EXPECT_NEAR(stats::sign_test(5, 0), 2.0 / 32, 1e-12);      // 2 * (1/2)^5
  EXPECT_NEAR(stats::sign_test(1, 4), 2.0 * 6 / 32, 1e-12);  // 2 * (1 + 5) / 32
  EXPECT_NEAR(stats::sign_test(3, 3), 1, 1e-12);             // capped at 1
  EXPECT_NEAR(stats::sign_test(60, 0), 2 * std::pow(0.5, 60), 1e-25);
}

TEST(Stats, CorrectionsForManyTests) {
  // Benjamini-Hochberg: p * m / rank, then the running minimum from the largest rank down.
  // Sorted 0.01 0.02 0.03 0.5 (m = 4): 0.04 0.04 0.04 0.5.
  const std::vector<double> bh = stats::benjamini_hochberg({0.03, 0.5, 0.01, 0.02});
  const std::vector<double> bh_expected = {0.04, 0.5, 0.04, 0.04};
  for (std::size_t i = 0; i < bh.size(); ++i) EXPECT_NEAR(bh[i], bh_expected[i], 1e-12) << i;
  // Holm: p * (m - rank + 1), then the running maximum, capped at 1: 0.04 0.06 0.06 0.5.
  const std::vector<double> h = stats::holm({0.03, 0.5, 0.01, 0.02});
  const std::vector<double> h_expected = {0.06, 0.5, 0.04, 0.06};
  for (std::size_t i = 0; i < h.size(); ++i) EXPECT_NEAR(h[i], h_expected[i], 1e-12) << i;
  EXPECT_TRUE(stats::holm({}).empty());
}

// --- fixtures: Google Benchmark JSON as gcbench writes it, one row per repetition ---

const std::string kFl = "fl/cpu/compress/cant/a.txt/element_width:1";
const std::string kRle = "rle/cpu/compress/cant/a.txt/element_width:1";
const std::string kGpu = "fl/gpu/compress/cant/a.txt/element_width:1";

void add_cell(json& doc, const std::string& name, const std::vector<double>& times_ms,
              json counters = json::object(), double on_cpu = 1.0) {
  if (!counters.contains("input_bytes")) counters["input_bytes"] = 1000;
  if (!counters.contains("ratio")) counters["ratio"] = 2.0;
  for (std::size_t i = 0; i < times_ms.size(); ++i) {
    json r = {{"name", name + "/real_time"},
              {"run_name", name + "/real_time"},
              {"run_type", "iteration"},
              {"repetitions", times_ms.size()},
              {"repetition_index", i},
              {"iterations", 10},
              {"real_time", times_ms[i]},
              {"cpu_time", times_ms[i] * on_cpu},
              {"time_unit", "ms"}};
    for (auto& [k, v] : counters.items()) r[k] = v;
    doc["benchmarks"].push_back(r);
  }
}

json new_doc(const std::string& manifest = "abc123") {
  return {{"context", {{"corpus_manifest_sha256", manifest}, {"gpu", "none: test"}}},
          {"benchmarks", json::array()}};
}

std::vector<double> scaled(const std::vector<double>& v, double f) {
  std::vector<double> out;
  for (double x : v) out.push_back(x * f);
  return out;
}

const std::vector<double> kBase = {10.0, 10.1, 9.9, 10.2, 9.8};

struct Dirs {
  fs::path root = fs::temp_directory_path() / ("gcbench-compare-" + std::to_string(::getpid()));
  fs::path base = root / "base", now = root / "new", out = root / "out";
  Dirs() {
    fs::remove_all(root);
    fs::create_directories(base);
    fs::create_directories(now);
  }
  ~Dirs() { fs::remove_all(root); }
};

void write(const fs::path& path, const json& doc) {
  std::ofstream(path) << doc.dump(1);
}

struct Outcome {
  int status;
  std::string out, err;
};

Outcome run(const Dirs& d, CompareOptions options = {}, bool with_out = false) {
  std::ostringstream out, err;
  int status =
      run_compare(d.base, d.now, options, with_out ? std::optional(d.out) : std::nullopt, out, err);
  return {status, out.str(), err.str()};
}

const CellComparison& cell(const Comparison& c, const std::string& name) {
  for (const CellComparison& x : c.cells) {
    if (x.name == name) return x;
  }
  throw std::runtime_error("no cell " + name);
}

Comparison compare_docs(const json& base, const json& now, CompareOptions options = {}) {
  ResultSet b, n;
  add_results(b, base);
  add_results(n, now);
  return compare(b, n, options);
}

// --- comparing ---

TEST(Compare, ASlowdownBeyondTheThresholdIsSlowerAndExitsOne) {
  json base = new_doc(), now = new_doc();
  add_cell(base, kFl, kBase);
  add_cell(now, kFl, scaled(kBase, 1.2));  // 20% slower, every repetition
  add_cell(base, kRle, kBase);
  add_cell(now, kRle, kBase);
  const Comparison c = compare_docs(base, now);
  const CellComparison& fl = cell(c, kFl);
  EXPECT_EQ(fl.verdict, Verdict::slower);
  EXPECT_NEAR(*fl.time_change_pct, 20, 1e-9);
  EXPECT_NEAR(*fl.p_value, 0.0121858, 1e-6);  // complete separation, 5 a side
  EXPECT_NEAR(*fl.base_iqr_pct, 2.0, 1e-9);   // q1 9.9, q3 10.1, median 10
  EXPECT_EQ(fl.base_reps, 5u);
  EXPECT_EQ(cell(c, kRle).verdict, Verdict::same);
  EXPECT_EQ(c.count(Verdict::slower), 1u);

  Dirs d;
  write(d.base / "a.json", base);
  write(d.now / "a.json", now);
  Outcome r = run(d);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.out.find("+20.0%"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("**SLOWER**"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Cells: 1 SLOWER, 0 FASTER, 0 UNCLEAR, 1 SAME."), std::string::npos)
      << r.out;
  // The same slowdown under a higher threshold is SAME.
  CompareOptions lenient;
  lenient.threshold_pct = 25;
  EXPECT_EQ(run(d, lenient).status, 0);
}

// compare.html's data: the sides, the verdict counts, and the groups and cells as the page's
// sortable tables take them ([text, number] per cell; a cell's verdict with its reason).
TEST(Compare, PageDataHoldsVerdictsGroupsAndCells) {
  json base = new_doc(), now = new_doc();
  add_cell(base, kFl, kBase);
  add_cell(now, kFl, scaled(kBase, 1.2));
  add_cell(base, kRle, kBase);
  add_cell(now, kRle, kBase);
  const CompareOptions options;
  const json page = compare_page_data(compare_docs(base, now), options, "runs/a", "runs/b");
  EXPECT_EQ(page["kind"], "compare");
  EXPECT_EQ(page["sides"], json::parse(R"([["BASE", "runs/a"], ["NEW", "runs/b"]])"));
  EXPECT_EQ(page["verdicts"]["cells"]["SLOWER"], 1);
  EXPECT_EQ(page["verdicts"]["cells"]["SAME"], 1);
  EXPECT_TRUE(page["failed"].get<bool>());
  const json& cells = page["cells"];
  ASSERT_EQ(cells["rows"].size(), 2u);
  EXPECT_EQ(cells["headers"].size(), cells["rows"][0]["cells"].size());
  const json* fl = nullptr;
  for (const json& row : cells["rows"]) {
    if (row["label"] == kFl) fl = &row;
  }
  ASSERT_NE(fl, nullptr);
  EXPECT_EQ((*fl)["texts"], json::array({"SLOWER"}));
  EXPECT_EQ((*fl)["cells"][2][0], "+20.0%");
  EXPECT_NEAR((*fl)["cells"][2][1].get<double>(), 20.0, 1e-9);
  EXPECT_EQ(page["groups"]["rows"].size(), 2u);
  EXPECT_TRUE(page["groups"]["rows"][0]["cells"].is_array());
}

// A run whose cells' timing threads were off the CPU much of the time (other work on the
// machine) is named, cell by cell and in one line, with the shares; the verdicts stand.
TEST(Compare, ABusierMachineIsNamedWithItsOnCpuShare) {
  json base = new_doc(), now = new_doc();
  add_cell(base, kFl, kBase);
  add_cell(now, kFl, scaled(kBase, 3), {}, 0.4);  // 3x slower, its thread on a CPU 40% of it
  add_cell(base, kRle, kBase);
  add_cell(now, kRle, kBase, {}, 0.95);
  const Comparison c = compare_docs(base, now);
  const CellComparison& fl = cell(c, kFl);
  EXPECT_EQ(fl.verdict, Verdict::slower);
  EXPECT_NEAR(*fl.new_on_cpu, 0.4, 1e-9);
  EXPECT_NE(fl.note.find("NEW's timing thread was on a CPU 40% of its wall time, the other's "
                         "100%: its machine was busier"),
            std::string::npos)
      << fl.note;
  EXPECT_EQ(cell(c, kRle).note.find("busier"), std::string::npos) << cell(c, kRle).note;
  EXPECT_NE(c.busy_note.find("1 of the CPU cells ran on a busier machine in NEW: their timing "
                             "threads were on a CPU 40% of their wall time (median), against "
                             "100%"),
            std::string::npos)
      << c.busy_note;
  EXPECT_NE(to_markdown(c, {}).find("**A busier machine**: 1 of the CPU cells"), std::string::npos);
  // GPU cells' real time is the kernel's: no share.
  json gb = new_doc(), gn = new_doc();
  add_cell(gb, kGpu, kBase);
  add_cell(gn, kGpu, kBase, {}, 0.2);
  EXPECT_FALSE(cell(compare_docs(gb, gn), kGpu).new_on_cpu);
}

TEST(Compare, NoiseAndImprovementsDoNotFail) {
  json base = new_doc(), now = new_doc();
  add_cell(base, kFl, kBase);
  add_cell(now, kFl, {10.2, 9.9, 10.0, 10.4, 9.7});  // overlapping: noise
  add_cell(base, kRle, kBase);
  add_cell(now, kRle, scaled(kBase, 0.7));  // 30% faster
  const Comparison c = compare_docs(base, now);
  EXPECT_EQ(cell(c, kFl).verdict, Verdict::same);
  EXPECT_GT(*cell(c, kFl).p_value, 0.5);
  EXPECT_EQ(cell(c, kRle).verdict, Verdict::faster);
  Dirs d;
  write(d.base / "a.json", base);
  write(d.now / "a.json", now);
  EXPECT_EQ(run(d).status, 0);
}

// What a CI gate must stop, each named and each failing the comparison: a cell of BASE that NEW
// lacks (and its group, when it was the group's only cell), one that fails in NEW, one whose
// container grew. A run compared with itself passes.
TEST(Compare, MissingFailedAndLargerContainersFail) {
  const std::string kZlib = "zlib/cpu/compress/cant/a.txt/level:6";
  const std::string kLz = "lz77/cpu/compress/cant/a.txt/finder:hash";
  json base = new_doc(), now = new_doc();
  for (const std::string& name : {kFl, kRle, kZlib, kLz}) {
    add_cell(base, name, kBase, {{"compressed_bytes", 500}});
  }
  add_cell(now, kFl, kBase, {{"compressed_bytes", 550}});  // 10% larger, as fast
  add_cell(now, kLz, kBase, {{"compressed_bytes", 450}});  // smaller: reported, no failure
  now["benchmarks"].push_back({{"name", kZlib},
                               {"run_name", kZlib},
                               {"error_occurred", true},
                               {"error_message", "decompressed output differs at byte 7"}});
  Dirs d;
  write(d.base / "a.json", base);
  write(d.now / "a.json", now);
  const Outcome r = run(d);
  EXPECT_EQ(r.status, 1) << r.out;
  const Comparison c = compare_docs(base, now);
  EXPECT_EQ(cell(c, kFl).verdict, Verdict::ratio_worse);
  EXPECT_NE(cell(c, kFl).note.find("compressed size +10.00% (500 -> 550 bytes)"),
            std::string::npos);
  EXPECT_EQ(cell(c, kRle).verdict, Verdict::missing);
  EXPECT_EQ(cell(c, kZlib).verdict, Verdict::failed);
  EXPECT_EQ(cell(c, kLz).verdict, Verdict::same);
  EXPECT_NE(cell(c, kLz).note.find("compressed size -10.00%"), std::string::npos);
  EXPECT_EQ(c.count_groups(Verdict::missing), 2u);  // rle's and zlib's groups: no cell left
  for (const char* shown : {"**RATIO WORSE**", "**MISSING**: measured in BASE, not in NEW",
                            "**FAILED**: NEW failed", "Result: FAIL"}) {
    EXPECT_NE(r.out.find(shown), std::string::npos) << shown << "\n" << r.out;
  }
  write(d.now / "a.json", base);
  EXPECT_EQ(run(d).status, 0);
}

// Memory that grew fails as MEMORY WORSE: a GPU cell's device memory by any byte, a CPU cell's
// heap peak beyond the threshold and 1 MiB; smaller moves are noted, and a side without the
// counter (an older gcbench) is not judged.
TEST(Compare, MemoryGrowthFails) {
  const std::string kNoisy = "lz77/cpu/compress/cant/a.txt/finder:hash";
  const std::string kOld = "zlib/cpu/compress/cant/a.txt/level:6";
  json base = new_doc(), now = new_doc();
  add_cell(base, kGpu, kBase, {{"memory_device_bytes", 4000000}});
  add_cell(now, kGpu, kBase, {{"memory_device_bytes", 4000001}});
  add_cell(base, kFl, kBase, {{"memory_host_bytes", 10e6}});
  add_cell(now, kFl, kBase, {{"memory_host_bytes", 12e6}});  // +20%, 2 MB
  add_cell(base, kNoisy, kBase, {{"memory_host_bytes", 10e6}});
  add_cell(now, kNoisy, kBase, {{"memory_host_bytes", 10.4e6}});  // +4%: within the threshold
  add_cell(base, kOld, kBase);
  add_cell(now, kOld, kBase, {{"memory_host_bytes", 10e6}});
  Dirs d;
  write(d.base / "a.json", base);
  write(d.now / "a.json", now);
  const Outcome r = run(d);
  EXPECT_EQ(r.status, 1) << r.out;
  const Comparison c = compare_docs(base, now);
  EXPECT_EQ(cell(c, kGpu).verdict, Verdict::memory_worse);
  EXPECT_EQ(cell(c, kFl).verdict, Verdict::memory_worse);
  EXPECT_NE(cell(c, kFl).note.find("memory_host_bytes +20.00% (10000000 -> 12000000 bytes)"),
            std::string::npos)
      << cell(c, kFl).note;
  EXPECT_EQ(cell(c, kNoisy).verdict, Verdict::same);
  EXPECT_NE(cell(c, kNoisy).note.find("memory_host_bytes +4.00%"), std::string::npos);
  EXPECT_EQ(cell(c, kOld).verdict, Verdict::same);
  EXPECT_NE(r.out.find("**MEMORY WORSE**"), std::string::npos) << r.out;
}

// UNCLEAR passes unless asked not to (a noisy runner then cannot pass a regression).
TEST(Compare, UnclearFailsOnRequest) {
  json base = new_doc(), now = new_doc();
  add_cell(base, kFl, {10, 10.1, 9.9});
  add_cell(now, kFl, {20, 20.1, 19.9});  // too few repetitions to tell: UNCLEAR
  Dirs d;
  write(d.base / "a.json", base);
  write(d.now / "a.json", now);
  EXPECT_EQ(run(d).status, 0);
  CompareOptions strict;
  strict.fail_on_unclear = true;
  const Outcome r = run(d, strict);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("**UNCLEAR**"), std::string::npos) << r.out;
}

TEST(Compare, TooFewRepetitionsGiveNoPValueAndAnUnclearVerdict) {
  json base = new_doc(), now = new_doc();
  add_cell(base, kFl, {10, 10.1, 9.9});
  add_cell(now, kFl, {20, 20.1, 19.9});  // twice as slow, but 3 a side cannot reach p < 0.05
  const CellComparison x = compare_docs(base, now).cells.at(0);
  EXPECT_FALSE(x.p_value);
  EXPECT_EQ(x.verdict, Verdict::unclear);
  EXPECT_EQ(x.note, "too few repetitions");
  EXPECT_NEAR(*x.time_change_pct, 100, 1e-9);
}

// A run of `files` x 4 codecs (CPU compress), 5 repetitions each, drawn from `seed`: each cell's
// true time times a log-normal noise of `noise` (sigma), `slow` times slower for `slow_codec`.
json many_cell_run(unsigned seed, double noise, const std::string& slow_codec = "", double slow = 1,
                   int files = 40) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> jitter(0, noise);
  json doc = new_doc();
  for (const std::string codec : {"fl", "rle", "lz77", "zlib"}) {
    for (int f = 0; f < files; ++f) {
      const double truth = 1 + f * 0.25;  // ms, the same in every run
      std::vector<double> times;
      for (int r = 0; r < 5; ++r)
        times.push_back(truth * (codec == slow_codec ? slow : 1) * std::exp(jitter(rng)));
      add_cell(doc, fmt::format("{}/cpu/compress/cant/f{}.txt/level:6", codec, f), times);
    }
  }
  return doc;
}

TEST(Compare, IdenticalRunsAreNeverSlowerAcrossManySeeds) {
  // 160 cells a run, noise of 3% and of 15% (a busy 2-core machine): pairs of runs of the same
  // code differ only by their draws. Uncorrected, about 5% of cells would pass p < 0.05.
  std::size_t uncorrected = 0;
  for (const double noise : {0.03, 0.15}) {
    for (unsigned seed = 1; seed <= 10; ++seed) {
      const Comparison c =
          compare_docs(many_cell_run(seed, noise), many_cell_run(seed + 1000, noise));
      EXPECT_EQ(c.count(Verdict::slower), 0u) << "noise " << noise << ", seed " << seed;
      EXPECT_EQ(c.count_groups(Verdict::slower), 0u) << "noise " << noise << ", seed " << seed;
      EXPECT_FALSE(c.failed(CompareOptions{}));
      for (const CellComparison& x : c.cells) uncorrected += *x.p_value < 0.05 ? 1 : 0;
    }
  }
  EXPECT_GT(uncorrected, 0u);  // the raw test would have cried wolf
}

TEST(Compare, ACodecOneAndAHalfTimesSlowerIsSlowerEvenInNoise) {
  for (const double noise : {0.03, 0.15}) {
    for (unsigned seed = 1; seed <= 5; ++seed) {
      const Comparison c =
          compare_docs(many_cell_run(seed, noise), many_cell_run(seed + 1000, noise, "zlib", 1.5));
      EXPECT_TRUE(c.failed(CompareOptions{}));
      for (const GroupComparison& g : c.groups) {
        EXPECT_EQ(g.verdict, g.codec == "zlib" ? Verdict::slower : Verdict::same)
            << g.codec << ", noise " << noise << ", seed " << seed;
      }
      for (const CellComparison& x : c.cells) {
        if (x.id.codec != "zlib") {
          EXPECT_NE(x.verdict, Verdict::slower) << x.name;
        }
      }
    }
  }
}

TEST(Compare, ANoisyCellIsUnclearNotSlower) {
  json base = new_doc(), now = new_doc();
  // The recorded shape of a threads:0 cell on a busy machine: the median doubled, the
  // repetitions spread over several times the median.
  add_cell(base, kFl, {0.13, 0.14, 0.13, 16.0, 0.15});
  add_cell(now, kFl, {0.27, 16.2, 0.26, 0.29, 15.9});
  const CellComparison x = compare_docs(base, now).cells.at(0);
  EXPECT_GT(*x.time_change_pct, 90);
  EXPECT_EQ(x.verdict, Verdict::unclear);
  EXPECT_NE(x.note.find("within the noise"), std::string::npos) << x.note;
}

TEST(Compare, ALoneSlowCellNeedsMoreRepetitionsAmongManyCells) {
  // One cell 20% slower with every repetition apart, among 160 that did not move: with 5
  // repetitions a side its p (0.012) does not survive the correction for 160 tests; with 15
  // it does.
  for (const auto& [reps, expected] : {std::pair{5, Verdict::unclear}, {15, Verdict::slower}}) {
    json base = many_cell_run(7, 0.0), now = many_cell_run(7, 0.0);
    std::vector<double> b, n;
    for (int r = 0; r < reps; ++r) {
      b.push_back(10 + 0.01 * r);
      n.push_back(12 + 0.01 * r);
    }
    add_cell(base, kFl, b);
    add_cell(now, kFl, n);
    const Comparison c = compare_docs(base, now);
    EXPECT_EQ(cell(c, kFl).verdict, expected) << reps << " repetitions: " << cell(c, kFl).note;
  }
}

TEST(Compare, AggregatesOnlyFilesHaveMediansButNoTest) {
  json base = new_doc(), now = new_doc();
  add_cell(base, kFl, kBase);
  // --benchmark_report_aggregates_only: a median and a cv row, no repetition rows.
  for (auto [aggregate, value] : {std::pair{"median", 12.0}, std::pair{"cv", 0.01}}) {
    now["benchmarks"].push_back({{"name", kFl + "/real_time_" + aggregate},
                                 {"run_name", kFl + "/real_time"},
                                 {"run_type", "aggregate"},
                                 {"aggregate_name", aggregate},
                                 {"real_time", value},
                                 {"time_unit", "ms"},
                                 {"input_bytes", 1000}});
  }
  const CellComparison x = compare_docs(base, now).cells.at(0);
  EXPECT_NEAR(*x.time_change_pct, 20, 1e-9);
  EXPECT_FALSE(x.p_value);
  EXPECT_EQ(x.note, "no repetitions recorded (aggregates only)");
}

TEST(Compare, GpuCellsCompareKernelAndEndToEndTimesAndRatios) {
  json base = new_doc(), now = new_doc();
  add_cell(base, kGpu, kBase, {{"kernel_s", 0.010}, {"e2e_s", 0.020}, {"ratio", 2.0}});
  add_cell(now, kGpu, kBase, {{"kernel_s", 0.011}, {"e2e_s", 0.030}, {"ratio", 2.5}});
  const CellComparison x = compare_docs(base, now).cells.at(0);
  EXPECT_NEAR(*x.kernel_change_pct, 10, 1e-9);
  EXPECT_NEAR(*x.e2e_change_pct, 50, 1e-9);
  EXPECT_NEAR(*x.ratio_change_pct, 25, 1e-9);
}

// A GPU cell whose kernel times are kBase on both sides and whose end-to-end times, one per
// repetition, are `e2e_ms`.
void add_gpu_cell(json& doc, const std::vector<double>& e2e_ms) {
  for (std::size_t i = 0; i < kBase.size(); ++i) {
    json one = new_doc();
    add_cell(one, kGpu, {kBase[i]}, {{"kernel_s", kBase[i] / 1e3}, {"e2e_s", e2e_ms[i] / 1e3}});
    json row = one["benchmarks"][0];
    row["repetitions"] = kBase.size();
    row["repetition_index"] = i;
    doc["benchmarks"].push_back(row);
  }
}

const std::vector<double> kE2eBase = {20.0, 20.2, 19.8, 20.4, 19.6};

// That GPU cell with kE2eBase (or `base_ms` in every repetition) against the same with
// end-to-end times `e2e_ms`.
Comparison compare_end_to_end(const std::vector<double>& e2e_ms,
                              std::optional<double> base_ms = std::nullopt) {
  json base = new_doc(), now = new_doc();
  add_gpu_cell(base, base_ms ? std::vector<double>(kBase.size(), *base_ms) : kE2eBase);
  add_gpu_cell(now, e2e_ms);
  return compare_docs(base, now);
}

TEST(Compare, AnEndToEndSlowdownFailsWhereTheKernelDidNotMove) {
  const Comparison c = compare_end_to_end(scaled(kE2eBase, 1.2));
  const CellComparison& x = c.cells.at(0);
  EXPECT_NEAR(*x.time_change_pct, 0, 1e-9);
  EXPECT_NEAR(*x.e2e_change_pct, 20, 1e-9);
  ASSERT_TRUE(x.e2e_verdict);
  EXPECT_EQ(*x.e2e_verdict, Verdict::slower);
  EXPECT_EQ(x.verdict, Verdict::slower);
  EXPECT_NE(x.note.find("end to end SLOWER (+20.0%)"), std::string::npos) << x.note;
  EXPECT_TRUE(c.failed({}));
}

// gcbench before each repetition timed its own end-to-end runs wrote one cell's single figure
// into every repetition's row: nine copies of one number a side are one measurement, not a
// sample the U test may read (it gave such a 5% difference p = 0.00005 and SLOWER).
TEST(Compare, AnEndToEndFigureInEveryRepetitionIsOneMeasurementAndUntested) {
  const Comparison copied = compare_end_to_end(std::vector<double>(kBase.size(), 21.2), 20.0);
  const CellComparison& x = copied.cells.at(0);
  EXPECT_NEAR(*x.e2e_change_pct, 6, 1e-9);
  EXPECT_FALSE(x.e2e_p_value);
  EXPECT_FALSE(x.e2e_noise_pct);
  EXPECT_EQ(x.verdict, Verdict::unclear);
  EXPECT_NE(x.note.find("end to end UNCLEAR (+6.0%, measured once a run"), std::string::npos)
      << x.note;
  EXPECT_FALSE(copied.failed({}));
  EXPECT_EQ(compare_end_to_end(std::vector<double>(kBase.size(), 20.4), 20.0).cells.at(0).verdict,
            Verdict::same);
}

TEST(Compare, AnEndToEndGainIsFasterAndNoiseInItIsUnclear) {
  const Comparison gain = compare_end_to_end(scaled(kE2eBase, 0.8));
  EXPECT_EQ(gain.cells.at(0).verdict, Verdict::faster);
  EXPECT_FALSE(gain.failed({}));
  // 6% slower in the median, but the runs overlap: UNCLEAR, which fails only on request.
  const Comparison unclear = compare_end_to_end({21.2, 18.0, 24.0, 21.6, 19.0});
  EXPECT_EQ(*unclear.cells.at(0).e2e_verdict, Verdict::unclear);
  EXPECT_EQ(unclear.cells.at(0).verdict, Verdict::unclear);
  EXPECT_FALSE(unclear.failed({}));
  CompareOptions strict;
  strict.fail_on_unclear = true;
  EXPECT_TRUE(unclear.failed(strict));
}

TEST(Compare, GeometricMeanPerCorpusCodecDeviceAndDirection) {
  json base = new_doc(), now = new_doc();
  const std::string other = "fl/cpu/compress/cant/b.txt/element_width:1";
  add_cell(base, kFl, {10});
  add_cell(now, kFl, {20});  // x2
  add_cell(base, other, {10});
  add_cell(now, other, {5});  // x0.5
  add_cell(base, kRle, {10});
  add_cell(now, kRle, {12});
  const Comparison c = compare_docs(base, now);
  ASSERT_EQ(c.groups.size(), 2u);
  EXPECT_EQ(c.groups[0].codec, "fl");
  EXPECT_EQ(c.groups[0].cells, 2u);
  EXPECT_NEAR(c.groups[0].time_ratio, 1.0, 1e-12);
  EXPECT_NEAR(c.groups[1].time_ratio, 1.2, 1e-12);
}

TEST(Compare, CsvNumericColumnsHoldNumbersOnly) {
  json base = new_doc(), now = new_doc();
  add_cell(base, kFl, {10, 11, 12});
  add_cell(now, kFl, {10, 11, 12});  // too few repetitions: blank p, text in the note
  add_cell(base, kRle, kBase);
  add_cell(now, kRle, scaled(kBase, 1.2));
  Dirs d;
  write(d.base / "a.json", base);
  write(d.now / "a.json", now);
  ASSERT_EQ(run(d, {}, true).status, 1);
  EXPECT_TRUE(fs::exists(d.out / "compare.md"));
  EXPECT_TRUE(fs::exists(d.out / "compare_groups.csv"));
  std::ifstream csv(d.out / "compare.csv");
  std::string header, line;
  std::getline(csv, header);
  EXPECT_TRUE(header.starts_with("cell,base_time_s,new_time_s,time_change_pct,")) << header;
  EXPECT_TRUE(header.ends_with(",verdict,note")) << header;
  int rows = 0;
  while (std::getline(csv, line)) {
    ++rows;
    std::vector<std::string> fields;
    std::stringstream ss(line);
    for (std::string f; std::getline(ss, f, ',');) fields.push_back(f);
    ASSERT_GE(fields.size(), 20u) << line;  // an empty note adds no field
    for (std::size_t i = 1; i < 18; ++i) {  // between the name and e2e_verdict, verdict, note
      if (fields[i].empty()) continue;
      std::size_t used = 0;
      std::stod(fields[i], &used);
      EXPECT_EQ(used, fields[i].size()) << "column " << i << " of " << line;
    }
  }
  EXPECT_EQ(rows, 2);
}

// --- bad input: exit 2 with one line ---

void expect_bad(const Outcome& r, const std::string& message) {
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

// A cell measured on other bytes is NOT COMPARABLE and fails the comparison, named; allowed, it
// is compared. Other bytes: another input digest, else another size or corpus manifest.
TEST(Compare, DifferentInputsAreNotComparableUnlessAllowed) {
  json base = new_doc(), now = new_doc();
  add_cell(base, kFl, kBase);
  add_cell(now, kFl, kBase, {{"input_bytes", 2000}});
  Dirs d;
  write(d.base / "a.json", base);
  write(d.now / "a.json", now);
  Outcome r = run(d);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("| " + kFl), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("**NOT COMPARABLE**: the input differs (1000 bytes in BASE, 2000 in NEW)"),
            std::string::npos)
      << r.out;
  CompareOptions allow;
  allow.allow_different_inputs = true;
  r = run(d, allow);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("**Different inputs** (allowed)"), std::string::npos) << r.out;

  json other_manifest = new_doc("def456");
  add_cell(other_manifest, kFl, kBase);
  write(d.now / "a.json", other_manifest);
  r = run(d);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("NOT COMPARABLE**: the corpus manifests differ"), std::string::npos)
      << r.out;

  // Same sizes, other bytes: the digests tell.
  json digest_a = new_doc(), digest_b = new_doc();
  add_cell(digest_a, kFl, kBase);
  add_cell(digest_b, kFl, kBase);
  digest_a["benchmarks"][0]["provenance"] = {{"input_sha256", std::string(64, 'a')}};
  digest_b["benchmarks"][0]["provenance"] = {{"input_sha256", std::string(64, 'b')}};
  write(d.base / "a.json", digest_a);
  write(d.now / "a.json", digest_b);
  r = run(d);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("the input differs (sha256 aaaaaaaaaaaa in BASE, bbbbbbbbbbbb in NEW)"),
            std::string::npos)
      << r.out;
}

TEST(Compare, ZeroOverlapIsAnError) {
  json base = new_doc(), now = new_doc();
  add_cell(base, kFl, kBase);
  add_cell(now, kRle, kBase);
  Dirs d;
  write(d.base / "a.json", base);
  write(d.now / "a.json", now);
  expect_bad(run(d), "no cell is in both BASE (1 cells) and NEW (1 cells)");
}

TEST(Compare, MissingPathsAndOtherJsonAreErrors) {
  Dirs d;
  json base = new_doc();
  add_cell(base, kFl, kBase);
  write(d.base / "a.json", base);
  fs::remove_all(d.now);
  expect_bad(run(d), "NEW: no such file or directory: " + d.now.string());
  fs::create_directories(d.now);
  write(d.now / "a.json", json{{"something", "else"}});
  expect_bad(run(d), "not a Google Benchmark JSON document");
  // Google Benchmark's JSON, but no gcbench cell in it.
  json other = new_doc();
  other["benchmarks"].push_back({{"name", "BM_Other"}, {"run_type", "iteration"}});
  write(d.now / "a.json", other);
  expect_bad(run(d), "holds no gcbench cells");
}

}  // namespace
}  // namespace gcbench::reports
