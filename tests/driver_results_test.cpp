// What the driver records (--out-dir): one Google Benchmark JSON per input file, resumed
// only for cells recorded under this run's provenance, one run per directory (the lock),
// damaged files set aside, the folder's export (--benchmark_out: Google Benchmark JSON that
// readers of the folder skip, or one row per cell as CSV or JSON lines), times in nanoseconds that
// the report tool reads (older files in milliseconds too), and the context's CPU and NVML fields.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <tuple>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/driver/benchmark_out.hpp"
#include "bench/driver/context.hpp"
#include "bench/driver/export_rows.hpp"
#include "bench/driver/recorder.hpp"
#include "bench/driver/reporter.hpp"
#include "bench/driver/resume.hpp"
#include "reports/results.hpp"
#include "src/results/cell_name.hpp"
#include "src/results/folder_export.hpp"
#include "src/results/result_files.hpp"
#include "support/driver_fixture.hpp"

namespace gcbench::driver {
namespace {
using fixture::DriverRun;
using fixture::FakeCodec;
using json = nlohmann::json;
namespace fs = std::filesystem;

// What the tests' recorders record their cells under.
const RunProvenance kThisRun{"rev1",       "Release", "",    {{"a/cpu", "test"}, {"b/cpu", "test"}},
                             std::nullopt, false,     false, {}};

json read_json(const fs::path& path) {
  std::ifstream in(path);
  return json::parse(in);
}

// A fresh directory under the temp directory, removed at the end of the test.
class TempDir {
 public:
  explicit TempDir(const std::string& name) : path_(fs::temp_directory_path() / name) {
    fs::remove_all(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// Google Benchmark's cv of a counter that is 0 in every repetition is 0 / 0: its JSON reporter
// writes NaN, which is no JSON, so the aggregate goes without that counter (a GPU cell's
// cold_l2, warm, lost the whole run's aggregates and ended it with exit status 2).
TEST(Recorder, AnAggregateGoesWithoutCountersThatAreNotNumbers) {
  benchmark::BenchmarkReporter::Run cv;
  cv.run_name.function_name = "a/cpu/compress/c/f";
  cv.run_type = benchmark::BenchmarkReporter::Run::RT_Aggregate;
  cv.aggregate_name = "cv";
  cv.counters["cold_l2"] = benchmark::Counter(std::nan(""));
  cv.counters["ratio"] = benchmark::Counter(0.25);
  const json doc = runs_to_json(benchmark::BenchmarkReporter::Context(), {cv});
  ASSERT_EQ(doc.at("benchmarks").size(), 1u);
  EXPECT_FALSE(doc["benchmarks"][0].contains("cold_l2"));
  EXPECT_EQ(doc["benchmarks"][0].at("ratio"), 0.25);
}

TEST_F(DriverRun, RecorderWritesOneJsonPerFileAndResumes) {
  const auto dir = std::filesystem::temp_directory_path() / "gcbench_driver_test_results";
  std::filesystem::remove_all(dir);
  FakeCodec good("a", {}), bad("b", {.corrupt_decode = true});
  {
    Recorder recorder(dir, kThisRun);
    EXPECT_TRUE(recorder.recorded().empty());
    SweepReporter reporter(std::nullopt, &recorder);
    run({&good, &bad}, {&good, &bad}, reporter);
    EXPECT_TRUE(reporter.any_error());
    // Every cell is tallied, failed ones with their wall time but no timed seconds.
    EXPECT_EQ(reporter.tally().cells(), 8);
    EXPECT_GT(reporter.tally().timed_s(), 0);
    EXPECT_GE(reporter.tally().cells_wall_s(), reporter.tally().timed_s());
    EXPECT_EQ(reporter.tally().groups().at("b/cpu/compress").timed_s, 0);
    EXPECT_TRUE(reporter.cells_began().has_value());
    recorder.add_context({{"peak_rss_bytes", "123"}});
  }
  ASSERT_TRUE(std::filesystem::exists(dir / "test" / "a.bin.json"));
  ASSERT_TRUE(std::filesystem::exists(dir / "test" / "b.bin.json"));
  std::ifstream in(dir / "test" / "a.bin.json");
  auto doc = nlohmann::json::parse(in);
  EXPECT_TRUE(doc["context"].contains("host_name"));
  EXPECT_EQ(doc["context"]["peak_rss_bytes"], "123");  // added at the run's end
  EXPECT_EQ(doc["benchmarks"].size(), 4u);             // a and b, compress and decompress

  Recorder again(dir, kThisRun);
  // Good cells are recorded; failed ones are not, so that a rerun retries them.
  EXPECT_EQ(again.recorded().size(), 4u);
  EXPECT_TRUE(again.recorded().count("a/cpu/compress/test/a.bin/element_width:2/work_items:1024"));
  EXPECT_FALSE(again.recorded().count("b/cpu/compress/test/a.bin/element_width:2/work_items:1024"));
  std::filesystem::remove_all(dir);
}

TEST(RecorderLock, SecondRecorderOnOneDirectoryGetsAClearError) {
  const auto dir = std::filesystem::temp_directory_path() / "gcbench_driver_test_lock";
  std::filesystem::remove_all(dir);
  {
    Recorder first(dir, kThisRun);
    try {
      Recorder second(dir, kThisRun);
      FAIL() << "two recorders hold one directory";
    } catch (const std::runtime_error& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("in use by another gcbench run"), std::string::npos) << what;
      EXPECT_NE(what.find("pid " + std::to_string(::getpid())), std::string::npos) << what;
      EXPECT_NE(what.find("started "), std::string::npos) << what;
    }
  }
  // Released with the first recorder.
  EXPECT_NO_THROW(Recorder again(dir, kThisRun));
  std::filesystem::remove_all(dir);
}

// An --out-dir the run cannot write (here a path through a regular file) fails when the
// recorder is made, before any cell runs, and the message names the path.
TEST(RecorderLock, UnusableOutDirFailsBeforeAnyCell) {
  const auto file = std::filesystem::temp_directory_path() / "gcbench_driver_test_not_a_dir";
  std::ofstream(file) << "x";
  try {
    Recorder recorder(file / "results", kThisRun);
    ADD_FAILURE() << "a recorder under a regular file";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos) << e.what();
  }
  std::filesystem::remove(file);
}

TEST(RecorderLock, ConcurrentDriverProcessGetsAClearError) {
  const auto dir = std::filesystem::temp_directory_path() / "gcbench_driver_test_lock_fork";
  std::filesystem::remove_all(dir);
  int ready[2], done[2];
  ASSERT_EQ(pipe(ready), 0);
  ASSERT_EQ(pipe(done), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {  // the other run: holds the lock until told to stop
    Recorder holder(dir, kThisRun);
    char c = 1;
    if (::write(ready[1], &c, 1) != 1) _exit(1);
    if (::read(done[0], &c, 1) != 1) _exit(1);
    _exit(0);
  }
  char c = 0;
  ASSERT_EQ(::read(ready[0], &c, 1), 1);
  try {
    Recorder mine(dir, kThisRun);
    ADD_FAILURE() << "two processes hold one directory";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("pid " + std::to_string(child)), std::string::npos)
        << e.what();
  }
  ASSERT_EQ(::write(done[1], &c, 1), 1);
  int status = 0;
  waitpid(child, &status, 0);
  EXPECT_EQ(status, 0);
  EXPECT_NO_THROW(Recorder after(dir, kThisRun));
  for (int fd : {ready[0], ready[1], done[0], done[1]}) ::close(fd);
  std::filesystem::remove_all(dir);
}

TEST_F(DriverRun, DamagedResultFileIsSetAsideAndItsCellsMeasuredAgain) {
  const auto dir = std::filesystem::temp_directory_path() / "gcbench_driver_test_damaged";
  std::filesystem::remove_all(dir);
  FakeCodec good("a", {});
  {
    Recorder recorder(dir, kThisRun);
    SweepReporter reporter(std::nullopt, &recorder);
    run({&good}, {&good}, reporter);
  }
  const auto a = dir / "test" / "a.bin.json";
  ASSERT_TRUE(std::filesystem::exists(a));
  std::size_t all_cells = Recorder(dir, kThisRun).recorded().size();
  ASSERT_GT(all_cells, 0u);
  // A truncated write, as a full disk or a crash of another tool leaves it.
  std::filesystem::resize_file(a, std::filesystem::file_size(a) / 2);
  std::ostringstream log;
  {
    Recorder recorder(dir, kThisRun, &log);
    ASSERT_EQ(recorder.set_aside().size(), 1u);
    EXPECT_EQ(recorder.set_aside()[0].second, dir / "test" / "a.bin.json.damaged-not-json");
    EXPECT_TRUE(std::filesystem::exists(recorder.set_aside()[0].second));
    EXPECT_FALSE(std::filesystem::exists(a));
    EXPECT_LT(recorder.recorded().size(), all_cells);  // a.bin's cells run again
    EXPECT_NE(log.str().find("a.bin.json is damaged (not valid JSON): set aside as "
                             "a.bin.json.damaged-not-json, its cells will be measured again"),
              std::string::npos)
        << log.str();
    const std::string said = log.str();
    EXPECT_EQ(std::count(said.begin(), said.end(), '\n'), 1);  // one line
    benchmark::ClearRegisteredBenchmarks();
    SweepReporter reporter(std::nullopt, &recorder);
    run({&good}, {&good}, reporter);
  }
  EXPECT_TRUE(std::filesystem::exists(a));
  EXPECT_EQ(Recorder(dir, kThisRun).recorded().size(), all_cells);
  // Valid JSON without results is set aside too, with its own reason; no temp file is left.
  std::ofstream(a) << "{\"context\": {}}\n";
  Recorder again(dir, kThisRun, &log);
  ASSERT_EQ(again.set_aside().size(), 1u);
  EXPECT_EQ(again.set_aside()[0].second.filename(), "a.bin.json.damaged-no-benchmarks");
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
    EXPECT_EQ(e.path().string().find(".tmp"), std::string::npos) << e.path();
  std::filesystem::remove_all(dir);
}

// A field of another type than gcbench writes, in valid JSON, is damage like any other: named
// with the file and the entry, set aside, measured again; never an exception that stops every
// later run (nlohmann's type_error).
TEST_F(DriverRun, AFieldOfTheWrongTypeIsDamageNamingTheField) {
  TempDir dir("gcbench_driver_test_wrong_type");
  FakeCodec good("a", {});
  const auto measure = [&](Recorder& recorder) {
    benchmark::ClearRegisteredBenchmarks();
    SweepReporter reporter(std::nullopt, &recorder);
    run({&good}, {&good}, reporter);
  };
  {
    Recorder recorder(dir.path(), kThisRun);
    measure(recorder);
  }
  const fs::path a = dir.path() / "test" / "a.bin.json";
  const std::size_t all_cells = Recorder(dir.path(), kThisRun).recorded().size();
  for (const auto& [field, value, said] :
       {std::tuple{"run_name", json(5),
                   "field \"run_name\" of benchmarks[0]: expected a string, "
                   "got a number"},
        std::tuple{
            "error_occurred", json("yes"),
            "field \"error_occurred\" of benchmarks[0]: expected a boolean, got a string"}}) {
    json doc = read_json(a);
    doc["benchmarks"][0][field] = value;
    std::ofstream(a) << doc.dump(2);
    std::ostringstream log;
    Recorder recorder(dir.path(), kThisRun, &log);
    ASSERT_EQ(recorder.set_aside().size(), 1u) << field;
    EXPECT_EQ(log.str(), "[gcbench] " + a.string() + " is damaged (" + said + "): set aside as " +
                             recorder.set_aside()[0].second.filename().string() +
                             ", its cells will be measured again\n");
    EXPECT_LT(recorder.recorded().size(), all_cells);
    measure(recorder);
  }
  EXPECT_EQ(Recorder(dir.path(), kThisRun).recorded().size(), all_cells);
}

// Each set-aside keeps its own name: the evidence of an earlier damage is never replaced.
TEST(Recorder, ASecondSetAsideNeverReplacesTheFirst) {
  TempDir dir("gcbench_driver_test_set_aside_twice");
  const fs::path a = dir.path() / "test" / "a.bin.json";
  std::vector<fs::path> aside;
  for (const char* text : {"first", "second", "third"}) {
    fs::create_directories(a.parent_path());
    std::ofstream(a) << text;
    std::ostringstream log;
    Recorder recorder(dir.path(), kThisRun, &log);
    ASSERT_EQ(recorder.set_aside().size(), 1u);
    aside.push_back(recorder.set_aside()[0].second);
  }
  EXPECT_EQ(aside, (std::vector<fs::path>{a.string() + ".damaged-not-json",
                                          a.string() + ".damaged-not-json-2",
                                          a.string() + ".damaged-not-json-3"}));
  for (const auto& [path, text] : {std::pair{aside[0], "first"}, std::pair{aside[2], "third"}}) {
    std::ifstream in(path);
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), text) << path;
  }
}

// Drops the file access rights of root (who reads any file) for its lifetime, so that a file
// of mode 000 is unreadable to the test as to any other user: root becomes user nobody.
class AsAnotherUser {
 public:
  AsAnotherUser() : root_(::geteuid() == 0) {
    if (root_) {
      EXPECT_EQ(::seteuid(65534), 0);
    }
  }
  ~AsAnotherUser() {
    if (root_) {
      EXPECT_EQ(::seteuid(0), 0);
    }
  }
  AsAnotherUser(const AsAnotherUser&) = delete;
  AsAnotherUser& operator=(const AsAnotherUser&) = delete;

 private:
  bool root_;
};

// A result file that cannot be read is no damage: the run stops, naming the file and the
// system error, and the file stays as it is.
TEST(Recorder, AnUnreadableResultFileStopsTheRunAndStays) {
  TempDir dir("gcbench_driver_test_unreadable");
  const fs::path a = dir.path() / "test" / "a.bin.json";
  fs::create_directories(a.parent_path());
  std::ofstream(a) << R"({"benchmarks": []})";
  fs::permissions(a, fs::perms::none);
  for (const fs::path& folder : {dir.path(), a.parent_path()})
    fs::permissions(folder, fs::perms::all);  // usable by the other user
  std::string error;
  {
    const AsAnotherUser other;
    try {
      Recorder recorder(dir.path(), kThisRun);
    } catch (const std::runtime_error& e) {
      error = e.what();
    }
  }
  EXPECT_EQ(error, "cannot read " + a.string() +
                       ": Permission denied; not damage, so it stays as it is and nothing is "
                       "measured: make it readable, or move it out of " +
                       dir.path().string() + ", and run again");
  EXPECT_TRUE(fs::exists(a));
  EXPECT_FALSE(fs::exists(a.string() + ".damaged-not-json"));
  EXPECT_FALSE(fs::exists(dir.path() / ".gcbench.lock"));  // released on the way out
}

// A writer killed between its temp file and the rename leaves the temp file: the next run in
// the folder removes it (a live writer's is left), and a run that ends removes its lock file.
TEST(Recorder, RemovesADeadWritersTempFilesAndItsOwnLockAtTheEnd) {
  TempDir dir("gcbench_driver_test_temp_files");
  const fs::path a = dir.path() / "test" / "a.bin.json";
  const pid_t dead = ::fork();
  if (dead == 0) ::_exit(0);
  ASSERT_GT(dead, 0);
  ::waitpid(dead, nullptr, 0);
  const fs::path left = a.string() + ".tmp." + std::to_string(dead) + ".0";
  const fs::path live = a.string() + ".tmp." + std::to_string(::getppid()) + ".0";
  for (const fs::path& path : {left, live}) {
    fs::create_directories(path.parent_path());
    std::ofstream(path) << "{";
  }
  std::ostringstream log;
  {
    Recorder recorder(dir.path(), kThisRun, &log);
    EXPECT_TRUE(fs::exists(dir.path() / ".gcbench.lock"));
  }
  EXPECT_EQ(log.str(), "[gcbench] removed 1 temp file left by a run killed while writing (" +
                           left.string() + "): unfinished writes, no result lost\n");
  EXPECT_FALSE(fs::exists(left));
  EXPECT_TRUE(fs::exists(live));
  EXPECT_FALSE(fs::exists(dir.path() / ".gcbench.lock"));
}

// Runs `codecs` (compress and decompress, both inputs) into `dir` under `provenance`.
class ResumeRun : public DriverRun {
 protected:
  void record(const fs::path& dir, const RunProvenance& provenance,
              const std::vector<const Codec*>& codecs) {
    benchmark::ClearRegisteredBenchmarks();
    Recorder recorder(dir, provenance);
    SweepReporter reporter(std::nullopt, &recorder);
    run(codecs, codecs, reporter);
  }
};

TEST_F(ResumeRun, AcceptsCellsRecordedUnderTheSameProvenance) {
  TempDir dir("gcbench_driver_test_resume_same");
  FakeCodec a("a", {}), b("b", {});
  record(dir.path(), kThisRun, {&a, &b});
  Recorder again(dir.path(), kThisRun);
  EXPECT_EQ(again.recorded().size(), 8u);
  EXPECT_TRUE(again.stale().empty());
  std::vector<CellSpec> cells = cells_;
  std::ostringstream log;
  skip_recorded(cells, again, log);
  EXPECT_TRUE(cells.empty());
  EXPECT_EQ(log.str(), "[gcbench] 8 cells already recorded in " + dir.path().string() +
                           " under this revision, build type, codec versions and GPU: skipped\n");
}

TEST_F(ResumeRun, RefusesAChangedRevisionOrCodecVersionAndSaysWhyOncePerReason) {
  TempDir dir("gcbench_driver_test_resume_changed");
  FakeCodec a("a", {}), b("b", {});
  record(dir.path(), kThisRun, {&a, &b});

  RunProvenance rebuilt = kThisRun;
  rebuilt.git_revision = "rev2";
  rebuilt.codec_versions["b/cpu"] = "2";
  std::vector<CellSpec> cells = cells_;
  std::ostringstream log;
  {
    Recorder again(dir.path(), rebuilt);
    EXPECT_TRUE(again.recorded().empty());
    EXPECT_EQ(again.stale().size(), 8u);
    skip_recorded(cells, again, log);
  }
  EXPECT_EQ(cells.size(), 8u);  // all measured again
  EXPECT_EQ(log.str(),
            "[gcbench] 4 recorded cells measured again: git revision rev1, now rev2\n"
            "[gcbench] 4 recorded cells measured again: git revision rev1, now rev2; codec "
            "version test, now 2\n");

  // Measured again, the cells replace their old entries, which no context claims any more.
  record(dir.path(), rebuilt, {&a, &b});
  const json doc = read_json(dir.path() / "test" / "a.bin.json");
  EXPECT_EQ(doc["benchmarks"].size(), 4u);
  for (const json& entry : doc["benchmarks"]) {
    EXPECT_EQ(entry["provenance"]["git_revision"], "rev2") << entry.dump();
  }
  EXPECT_EQ(doc["context"]["cells_from_earlier_runs"], "0");
  EXPECT_EQ(Recorder(dir.path(), rebuilt).recorded().size(), 8u);
}

TEST_F(ResumeRun, FileContextNamesEveryProvenanceOfItsCells) {
  TempDir dir("gcbench_driver_test_resume_context");
  FakeCodec a("a", {}), b("b", {});
  record(dir.path(), kThisRun, {&a, &b});
  // A later revision measures only a's cells: b's stay, recorded under rev1.
  RunProvenance later = kThisRun;
  later.git_revision = "rev2";
  benchmark::ClearRegisteredBenchmarks();
  {
    Recorder recorder(dir.path(), later);
    SweepReporter reporter(std::nullopt, &recorder);
    run({&a}, {&a}, reporter);
    recorder.add_context({{"git_revision", "rev2"}, {"build_type", "Release"}});
  }
  const json doc = read_json(dir.path() / "test" / "a.bin.json");
  EXPECT_EQ(doc["benchmarks"].size(), 4u);
  EXPECT_EQ(doc["context"]["git_revision"], "rev1 (2 cells); rev2 (2 cells)");
  EXPECT_EQ(doc["context"]["build_type"], "Release");  // as stated: every cell's
  EXPECT_EQ(doc["context"]["cells_from_earlier_runs"], "2");
  std::set<std::string> b_revisions;
  for (const json& entry : doc["benchmarks"]) {
    if (entry["run_name"].get<std::string>().starts_with("b/"))
      b_revisions.insert(entry["provenance"]["git_revision"].get<std::string>());
  }
  EXPECT_EQ(b_revisions, std::set<std::string>{"rev1"});
}

TEST_F(ResumeRun, EntriesWithoutProvenanceAreMeasuredAgain) {
  TempDir dir("gcbench_driver_test_resume_old");
  FakeCodec a("a", {});
  record(dir.path(), kThisRun, {&a});
  // As a gcbench before provenance wrote them.
  for (const char* file : {"a.bin.json", "b.bin.json"}) {
    const fs::path path = dir.path() / "test" / file;
    json doc = read_json(path);
    for (json& entry : doc["benchmarks"]) entry.erase("provenance");
    std::ofstream(path) << doc.dump(2);
  }
  Recorder again(dir.path(), kThisRun);
  EXPECT_TRUE(again.recorded().empty());
  ASSERT_EQ(again.stale().size(), 4u);
  EXPECT_EQ(again.stale().begin()->second, "recorded without provenance (by an older gcbench)");
}

TEST(Provenance, ReadsBackWhatItWritesAndDescribesChanges) {
  const Provenance p{"abc", "Release", "3", "GPU-1", "", "", ""};
  EXPECT_EQ(provenance_of(json{{"provenance", to_json(p)}}), p);
  EXPECT_EQ(provenance_of(json{{"name", "x"}}), std::nullopt);
  EXPECT_EQ(provenance_of(json{{"provenance", {{"git_revision", 1}}}}), std::nullopt);
  EXPECT_EQ(describe_change(p, p), "");
  EXPECT_EQ(describe_change(p, Provenance{"abc", "Debug", "3", "", "", "", ""}),
            "build type Release, now Debug; GPU GPU-1, now (none)");
  // --cold-l2: a cell measured with a warm L2 is not the cold one asked for, and back.
  // A changed input is a change; an entry without a digest (older gcbench) is not compared.
  Provenance with_input = p;
  with_input.input_sha256 = std::string(64, 'a');
  Provenance changed_input = p;
  changed_input.input_sha256 = std::string(64, 'b');
  EXPECT_EQ(describe_change(with_input, changed_input),
            "the input file changed (sha256 aaaaaaaaaaaa, now bbbbbbbbbbbb)");
  EXPECT_EQ(describe_change(p, changed_input), "");
  EXPECT_EQ(provenance_of(json{{"provenance", to_json(with_input)}}), with_input);
  const Provenance cold{"abc", "Release", "3", "GPU-1", "cold", "", ""};
  EXPECT_EQ(provenance_of(json{{"provenance", to_json(cold)}}), cold);
  EXPECT_EQ(describe_change(p, cold), "L2 warm, now cold");
  EXPECT_EQ(describe_change(cold, p), "L2 cold, now warm");
  EXPECT_FALSE(to_json(p).contains("l2"));  // entries of warm runs read as before
  EXPECT_EQ(provenance_of(json{{"provenance",
                                {{"git_revision", "a"},
                                 {"build_type", "b"},
                                 {"codec_version", "c"},
                                 {"gpu_uuid", "d"},
                                 {"l2", 1}}}}),
            std::nullopt);
  const GpuIdentity gpu{2, "H200", "0000:1B:00.0", "GPU-1"};
  RunProvenance run{"abc", "Release", "GPU-1", {{"lz77/gpu", "4"}}, gpu, false, false, {}};
  EXPECT_EQ(
      to_json(gpu),
      (json{{"index", 2}, {"name", "H200"}, {"pci_bus_id", "0000:1B:00.0"}, {"uuid", "GPU-1"}}));
  EXPECT_EQ(run.of(*results::parse_cell_name("lz77/gpu/compress/c/f/finder:hash")),
            (Provenance{"abc", "Release", "4", "GPU-1", "", "", ""}));
  // CPU cells carry no GPU: a CPU cell's numbers do not depend on the GPU (nor on its L2).
  EXPECT_EQ(run.of(*results::parse_cell_name("zlib/cpu/compress/c/f/level:6")).gpu_uuid, "");
  run.cold_l2 = true;
  EXPECT_EQ(run.of(*results::parse_cell_name("lz77/gpu/compress/c/f/finder:hash")).l2, "cold");
  EXPECT_EQ(run.of(*results::parse_cell_name("zlib/cpu/compress/c/f/level:6")).l2, "");
  run.kernel_only = true;
  EXPECT_EQ(run.of(*results::parse_cell_name("lz77/gpu/compress/c/f/finder:hash")).timing,
            "kernel");
  EXPECT_EQ(run.of(*results::parse_cell_name("zlib/cpu/compress/c/f/level:6")).timing, "");
}

// A revision this run cannot read (another user's checkout: git refuses it) is no evidence of
// a change: recorded cells are kept, and the run says once that it did not compare them.
TEST_F(ResumeRun, AnUnknownRevisionNowIsNoChangeAndIsSaidOnce) {
  TempDir dir("gcbench_driver_test_resume_unknown_revision");
  FakeCodec a("a", {});
  record(dir.path(), kThisRun, {&a});
  RunProvenance unknown = kThisRun;
  unknown.git_revision = "unknown (git rev-parse failed: fatal: detected dubious ownership)";
  std::vector<CellSpec> cells = cells_;
  std::ostringstream log;
  {
    Recorder again(dir.path(), unknown);
    EXPECT_EQ(again.recorded().size(), 4u);
    EXPECT_TRUE(again.stale().empty());
    skip_recorded(cells, again, log);
  }
  EXPECT_EQ(log.str(), "[gcbench] 4 cells already recorded in " + dir.path().string() +
                           " under this revision, build type, codec versions and GPU: skipped\n"
                           "[gcbench] the git revision is " +
                           unknown.git_revision +
                           ": recorded cells were not compared by revision\n");
  // Recorded under an unknown revision, now known: measured again under one that says what.
  const Provenance was_unknown{unknown.git_revision, "Release", "test", "", "", "", ""};
  EXPECT_EQ(describe_change(was_unknown,
                            kThisRun.of(*results::parse_cell_name("a/cpu/compress/test/a.bin"))),
            "git revision " + unknown.git_revision + ", now rev1");
}

// --timing kernel: a GPU cell measured kernel-only has no end-to-end figures, so a run asking
// for every timing measures it again; one recorded with every timing serves a kernel-only run.
TEST(Provenance, KernelOnlyTimingIsASubsetOfEveryTiming) {
  const Provenance all{"abc", "Release", "3", "GPU-1", "cold", "", ""};
  const Provenance kernel{"abc", "Release", "3", "GPU-1", "cold", "kernel", ""};
  EXPECT_EQ(provenance_of(json{{"provenance", to_json(kernel)}}), kernel);
  EXPECT_EQ(to_json(kernel)["timing"], "kernel");
  EXPECT_FALSE(to_json(all).contains("timing"));  // entries of full runs read as before
  EXPECT_EQ(describe_change(kernel, all), "timing kernel, now all");
  EXPECT_EQ(describe_change(all, kernel), "");
  EXPECT_EQ(describe_change(kernel, kernel), "");
  json bad = to_json(all);
  bad["timing"] = 1;
  EXPECT_EQ(provenance_of(json{{"provenance", bad}}), std::nullopt);
}

TEST_F(ResumeRun, KernelOnlyGpuCellsAreMeasuredAgainForEveryTiming) {
  TempDir dir("gcbench_driver_test_resume_timing");
  RunProvenance kernel_run{"rev1",       "Release", "GPU-1", {{"g/gpu", "1"}},
                           std::nullopt, false,     false,   {}};
  kernel_run.kernel_only = true;
  RunProvenance full_run = kernel_run;
  full_run.kernel_only = false;
  const std::string kernel_cell = "g/gpu/compress/test/k.bin/element_width:4";
  const std::string full_cell = "g/gpu/compress/test/f.bin/element_width:4";
  auto entry = [](const std::string& name, const Provenance& p) {
    return json{{"name", name},         {"run_name", name},        {"run_type", "iteration"},
                {"iterations", 1},      {"real_time", 1.0},        {"time_unit", "ns"},
                {"kernel_gbps", 100.0}, {"provenance", to_json(p)}};
  };
  fs::create_directories(dir.path() / "test");
  for (const auto& [file, name, run] : {std::tuple{"k.bin.json", kernel_cell, kernel_run},
                                        std::tuple{"f.bin.json", full_cell, full_run}}) {
    const results::CellId id = *results::parse_cell_name(name);
    std::ofstream(dir.path() / "test" / file) << json{
        {"context", json::object()},
        {"benchmarks",
         json::array({entry(name, run.of(id))})}}.dump();
  }
  {
    const Recorder again(dir.path(), kernel_run);
    EXPECT_EQ(again.recorded(), (std::set<std::string>{kernel_cell, full_cell}));
  }
  const Recorder full(dir.path(), full_run);
  EXPECT_EQ(full.recorded(), std::set<std::string>{full_cell});
  EXPECT_EQ(full.stale().at(kernel_cell), "timing kernel, now all");
}

// Like bench/run_suite.sh: a sweep into DIR and a second run into DIR/lz77-sequential; the
// export holds every cell of both.
TEST_F(DriverRun, ExportHoldsEveryCellRecordedUnderTheDirectory) {
  TempDir dir("gcbench_driver_test_merged");
  FakeCodec a("a", {}), b("b", {});
  std::set<std::string> run_names;
  for (const auto& [sub, codec] : {std::pair{fs::path(), &a}, std::pair{fs::path("sub"), &b}}) {
    benchmark::ClearRegisteredBenchmarks();
    Recorder recorder(dir.path() / sub, kThisRun);
    SweepReporter reporter(std::nullopt, &recorder);
    run({codec}, {codec}, reporter);
    recorder.add_context({{"git_revision", "rev1"}, {"peak_rss_bytes", sub.empty() ? "1" : "2"}});
    for (const CellSpec& cell : cells_) run_names.insert(cell.name);
  }
  const fs::path out = dir.path() / "all.json";
  results::write_json_file(out, results::export_folder(dir.path()));
  const json merged = read_json(out);
  std::set<std::string> merged_names;
  for (const json& entry : merged["benchmarks"]) {
    merged_names.insert(
        results::format_cell_name(*results::parse_cell_name(entry["run_name"].get<std::string>())));
    EXPECT_EQ(entry["time_unit"], "ns");
  }
  EXPECT_EQ(merged_names, run_names);
  EXPECT_EQ(run_names.size(), 8u);
  EXPECT_EQ(merged["context"]["merged_from"], "4 result files under " + dir.path().string());
  EXPECT_NE(merged["context"]["merged_context_differs"].get<std::string>().find("peak_rss_bytes"),
            std::string::npos);
  EXPECT_FALSE(merged["context"].contains("peak_rss_bytes"));  // not every file's
  EXPECT_EQ(merged["context"]["git_revision"], "rev1");        // every file's
  EXPECT_TRUE(merged["context"].contains(results::kExportKey));

  // The export, written inside the directory, is neither exported again nor resumed from.
  EXPECT_EQ(results::export_folder(dir.path())["benchmarks"].size(), merged["benchmarks"].size());
  EXPECT_EQ(Recorder(dir.path(), kThisRun).recorded().size(), 8u);

  // Nor does the report tool read it as one more result file: a stale export that sorts after
  // the results (its times 1000 s) changes no cell, nor the context. Named alone, it is read.
  json stale = merged;
  for (json& entry : stale["benchmarks"]) entry["real_time"] = 1e12;
  results::write_json_file(dir.path() / "zz.json", stale);
  const reports::ResultSet set = reports::load_results({dir.path()});
  EXPECT_EQ(set.cells.size(), 8u);
  for (const reports::Measurement& m : set.cells) EXPECT_LT(m.time_s, 1) << m.id.codec;
  EXPECT_EQ(set.context.count(results::kExportKey), 0u);
  EXPECT_GT(reports::load_results({dir.path() / "zz.json"}).cells.front().time_s, 999);

  // Nothing to export is an error, not an empty file.
  fs::create_directories(dir.path() / "empty");
  EXPECT_THROW(results::export_folder(dir.path() / "empty"), std::runtime_error);
}

TEST(BenchmarkOut, TakesGoogleBenchmarksOutputFlagsOutOfTheArguments) {
  std::string prog = "gcbench", out = "--benchmark_out=r/all.json",
              format = "--benchmark_out_format=json", filter = "--benchmark_filter=x";
  std::vector<char*> args{prog.data(), out.data(), filter.data(), format.data()};
  EXPECT_EQ(take_benchmark_out(args), (ExportTarget{"r/all.json", ExportFormat::json}));
  EXPECT_EQ(args, (std::vector<char*>{prog.data(), filter.data()}));
  EXPECT_EQ(take_benchmark_out(args), std::nullopt);

  // The format given, else the file's extension.
  std::string csv = "--benchmark_out_format=csv", jsonl = "--benchmark_out_format=jsonl",
              csv_file = "--benchmark_out=r/cells.csv", jsonl_file = "--benchmark_out=cells.jsonl";
  std::vector<char*> with_csv{prog.data(), out.data(), csv.data()};
  EXPECT_EQ(take_benchmark_out(with_csv), (ExportTarget{"r/all.json", ExportFormat::csv}));
  std::vector<char*> with_jsonl{prog.data(), csv_file.data(), jsonl.data()};
  EXPECT_EQ(take_benchmark_out(with_jsonl), (ExportTarget{"r/cells.csv", ExportFormat::jsonl}));
  std::vector<char*> csv_named{prog.data(), csv_file.data()};
  EXPECT_EQ(take_benchmark_out(csv_named), (ExportTarget{"r/cells.csv", ExportFormat::csv}));
  std::vector<char*> jsonl_named{prog.data(), jsonl_file.data()};
  EXPECT_EQ(take_benchmark_out(jsonl_named), (ExportTarget{"cells.jsonl", ExportFormat::jsonl}));

  std::string console = "--benchmark_out_format=console";
  std::vector<char*> with_console{prog.data(), out.data(), console.data()};
  try {
    take_benchmark_out(with_console);
    ADD_FAILURE() << "console accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("json, csv or jsonl"), std::string::npos) << e.what();
  }
  std::vector<char*> format_alone{prog.data(), format.data()};
  EXPECT_THROW(take_benchmark_out(format_alone), std::invalid_argument);
}

// One CSV line's fields: quoted fields may hold commas and doubled quotes.
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

std::vector<std::string> lines_of(const fs::path& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// --benchmark_out=FILE.csv and FILE.jsonl: one row per cell recorded under the folder, read
// back here; every row's counters are those the result files hold.
TEST_F(DriverRun, CsvAndJsonLinesExportsHoldOneRowPerCell) {
  TempDir dir("gcbench_driver_test_rows");
  FakeCodec a("a", {}), b("b", {});
  {
    Recorder recorder(dir.path(), kThisRun);
    SweepReporter reporter(std::nullopt, &recorder);
    run({&a, &b}, {&a, &b}, reporter);
  }
  std::ostringstream log;
  write_export(dir.path(), {dir.path() / "cells.jsonl", ExportFormat::jsonl}, log);
  write_export(dir.path(), {dir.path() / "cells.csv", ExportFormat::csv}, log);
  EXPECT_NE(log.str().find("8 cells recorded under"), std::string::npos) << log.str();
  const reports::ResultSet set = reports::load_results({dir.path()});  // the exports not read
  ASSERT_EQ(set.cells.size(), 8u);

  std::map<std::string, json> by_name;  // the JSON lines
  for (const std::string& line : lines_of(dir.path() / "cells.jsonl")) {
    const json row = json::parse(line);  // throws on a line that is not JSON
    by_name[row["name"]] = row;
  }
  ASSERT_EQ(by_name.size(), 8u);
  for (const reports::Measurement& m : set.cells) {
    const json& row = by_name.at(results::format_cell_name(m.id));
    EXPECT_EQ(row["status"], "ok");
    EXPECT_EQ(row["codec"], m.id.codec);
    EXPECT_EQ(row["params"].size(), m.id.params.size());
    EXPECT_DOUBLE_EQ(row["time_s"].get<double>(), m.time_s);
    EXPECT_DOUBLE_EQ(row["ratio"].get<double>(), m.counter("ratio"));
    EXPECT_DOUBLE_EQ(row["gbps"].get<double>(), m.counter("input_bytes") / m.time_s / 1e9);
    EXPECT_EQ(row["repetitions"], 1);
    EXPECT_FALSE(row.contains("cv")) << "no spread from one repetition";
  }

  const std::vector<std::string> lines = lines_of(dir.path() / "cells.csv");
  ASSERT_EQ(lines.size(), 9u);
  const std::vector<std::string> header = csv_fields(lines[0]);
  const auto column = [&](const std::string& name) {
    return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin());
  };
  for (const char* name : {"name", "params", "time_s", "gbps", "cv", "ratio", "input_bytes",
                           "compressed_bytes", "verified"}) {
    ASSERT_LT(column(name), header.size()) << name << " in " << lines[0];
  }
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const std::vector<std::string> fields = csv_fields(lines[i]);
    ASSERT_EQ(fields.size(), header.size()) << lines[i];
    const json& row = by_name.at(fields[column("name")]);
    EXPECT_DOUBLE_EQ(std::stod(fields[column("ratio")]), row["ratio"].get<double>());
    EXPECT_DOUBLE_EQ(std::stod(fields[column("time_s")]), row["time_s"].get<double>());
    EXPECT_EQ(fields[column("cv")], "");
    const auto params = results::parse_params(fields[column("params")]);
    ASSERT_TRUE(params) << fields[column("params")];
    EXPECT_EQ(params->size(), row["params"].size());
  }
}

// Noise over repetitions, and a failed cell's row: its error, no numbers.
TEST(ExportRows, RepetitionsGiveTheSpreadAndAFailedCellItsError) {
  const results::CellId timed{"zlib",       "cpu",          "compress",
                              "canterbury", "a, \"b\".txt", {{"level", "6"}}};
  const results::CellId failed{"zlib", "cpu", "decompress", "canterbury", "c", {{"level", "6"}}};
  json doc{{"context", json::object()}, {"benchmarks", json::array()}};
  for (int repetition = 0; repetition < 3; ++repetition) {
    const double ms = 1.0 + repetition;
    doc["benchmarks"].push_back({{"name", results::format_cell_name(timed)},
                                 {"run_name", results::format_cell_name(timed)},
                                 {"run_type", "iteration"},
                                 {"repetition_index", repetition},
                                 {"real_time", ms},
                                 {"time_unit", "ms"},
                                 {"input_bytes", 2e6},
                                 {"ratio", 2.5}});
  }
  doc["benchmarks"].push_back({{"name", results::format_cell_name(failed)},
                               {"run_name", results::format_cell_name(failed)},
                               {"error_occurred", true},
                               {"error_message", "mismatch at byte 7"}});
  reports::ResultSet set;
  reports::add_results(set, doc);
  const std::vector<nlohmann::ordered_json> rows = cell_rows(set);
  ASSERT_EQ(rows.size(), 2u);
  const auto& ok = rows[0]["status"] == "ok" ? rows[0] : rows[1];
  const auto& bad = rows[0]["status"] == "ok" ? rows[1] : rows[0];
  EXPECT_EQ(ok["repetitions"], 3);
  EXPECT_DOUBLE_EQ(ok["time_s"].get<double>(), 2e-3);
  EXPECT_DOUBLE_EQ(ok["time_min_s"].get<double>(), 1e-3);
  EXPECT_DOUBLE_EQ(ok["time_max_s"].get<double>(), 3e-3);
  EXPECT_DOUBLE_EQ(ok["cv"].get<double>(), 0.5);  // stddev 1 ms over a mean of 2 ms
  EXPECT_DOUBLE_EQ(ok["gbps"].get<double>(), 1.0);
  EXPECT_EQ(bad["status"], "error");
  EXPECT_EQ(bad["error"], "mismatch at byte 7");
  EXPECT_FALSE(bad.contains("time_s"));

  const std::string csv = rows_csv(rows);
  const std::string first = csv.substr(0, csv.find('\n'));
  const std::string second =
      csv.substr(first.size() + 1, csv.find('\n', first.size() + 1) - first.size() - 1);
  EXPECT_EQ(csv_fields(second).size(), csv_fields(first).size()) << csv;
  EXPECT_NE(csv.find("\"a, \"\"b\"\".txt\""), std::string::npos) << csv;  // quoted as CSV
  const std::string jsonl = rows_jsonl(rows);
  EXPECT_EQ(std::count(jsonl.begin(), jsonl.end(), '\n'), 2);
}

// The report tool reads the recorded nanoseconds, and result files of older runs (in ms).
TEST_F(DriverRun, TimesAreNanosecondsAndTheReportReadsEachEntrysUnit) {
  TempDir dir("gcbench_driver_test_units");
  FakeCodec a("a", {});
  {
    Recorder recorder(dir.path(), kThisRun);
    SweepReporter reporter(std::nullopt, &recorder);
    run({&a}, {&a}, reporter);
  }
  const json doc = read_json(dir.path() / "test" / "a.bin.json");
  const json& entry = doc["benchmarks"][0];
  ASSERT_EQ(entry["time_unit"], "ns");
  const reports::ResultSet set = reports::load_results({dir.path()});
  const auto id = results::parse_cell_name(entry["run_name"].get<std::string>());
  const auto m = std::find_if(set.cells.begin(), set.cells.end(),
                              [&](const reports::Measurement& c) { return c.id == *id; });
  ASSERT_NE(m, set.cells.end());
  EXPECT_DOUBLE_EQ(m->time_s, entry["real_time"].get<double>() * 1e-9);
  EXPECT_GT(m->time_s, 0);
  EXPECT_LT(m->time_s, 0.01);  // a copy of a few hundred bytes

  json old = doc;  // as an older gcbench wrote it
  for (json& e : old["benchmarks"]) {
    e["real_time"] = e["real_time"].get<double>() * 1e-6;
    e["time_unit"] = "ms";
  }
  reports::ResultSet older;
  reports::add_results(older, old);
  const auto o = std::find_if(older.cells.begin(), older.cells.end(),
                              [&](const reports::Measurement& c) { return c.id == *id; });
  ASSERT_NE(o, older.cells.end());
  EXPECT_NEAR(o->time_s, m->time_s, 1e-12);
}

// On a machine without a usable GPU (CI), every NVML field is there and says why it is not
// measured; with one, they hold values (the device run checks those).
TEST(Context, GpuFieldsSayWhyTheyAreAbsent) {
  const GpuStatus gpu = probe_gpu(false);
  std::map<std::string, std::string> context(gpu.context.begin(), gpu.context.end());
  for (const char* field : kNvmlFields) {
    ASSERT_TRUE(context.count(field)) << field;
    if (!gpu.usable) {
      EXPECT_TRUE(context[field].starts_with("unavailable: ")) << field << ": " << context[field];
      EXPECT_GT(context[field].size(), std::string("unavailable: ").size()) << field;
    }
  }
  if (gpu.usable) {
    EXPECT_TRUE(gpu.uuid.starts_with("GPU-")) << gpu.uuid;
    EXPECT_EQ(context["gpu_uuid"], gpu.uuid);
    EXPECT_FALSE(context["nvidia_driver_version"].starts_with("unavailable"))
        << context["nvidia_driver_version"];
  } else {
    EXPECT_TRUE(context["gpu"].starts_with("none: ")) << context["gpu"];
    EXPECT_EQ(gpu.uuid, "");
  }
}

// The model name in full, as /proc/cpuinfo has it, and the build the cells ran under.
TEST(Context, CpuModelIsTheKernelsFullNameAndTheBuildTypeIsStated) {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line, model = "unknown";
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0) {
      model = line.substr(line.find(':') + 2);
      break;
    }
  }
  const ContextEntries c = host_context(Inputs{}, {});
  const std::map<std::string, std::string> context(c.begin(), c.end());
  EXPECT_EQ(context.at("cpu_model"), model);
  EXPECT_FALSE(context.at("build_type").empty());
  EXPECT_EQ(context.at("build_type"), run_provenance(GpuStatus{}).build_type);
  EXPECT_EQ(context.at("git_revision"), run_provenance(GpuStatus{}).git_revision);
  EXPECT_TRUE(context.count("cpu_family_model_stepping"));
}

// A Slurm task records its node (several nodes may share one host name) and its job.
TEST(Context, SlurmTasksRecordTheirNodeAndJob) {
  const auto lookup = [](std::map<std::string, std::string> env) {
    return [env = std::move(env)](const char* name) -> const char* {
      const auto it = env.find(name);
      return it == env.end() ? nullptr : it->second.c_str();
    };
  };
  EXPECT_TRUE(slurm_context(lookup({})).empty());
  EXPECT_EQ(slurm_context(lookup({{"SLURMD_NODENAME", "node2"},
                                  {"SLURM_JOB_ID", "20"},
                                  {"SLURM_ARRAY_JOB_ID", "17"},
                                  {"SLURM_ARRAY_TASK_ID", "3"}})),
            (ContextEntries{{"slurm_node", "node2"}, {"slurm_job", "17_3 (job 20)"}}));
  EXPECT_EQ(slurm_context(lookup({{"SLURMD_NODENAME", "n1"}, {"SLURM_JOB_ID", "5"}})),
            (ContextEntries{{"slurm_node", "n1"}, {"slurm_job", "5"}}));
}

}  // namespace
}  // namespace gcbench::driver
