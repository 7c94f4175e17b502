// The user's own files as inputs (bench/driver/path_inputs.hpp, npy.hpp): a folder of every
// awkward kind of entry, names that survive cells, result files and the report, typed .npy
// arrays, and a rerun that measures a changed file again (the gcbench program itself).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/driver/cells.hpp"
#include "bench/driver/context.hpp"
#include "bench/driver/npy.hpp"
#include "bench/driver/path_inputs.hpp"
#include "bench/driver/run_status.hpp"
#include "src/results/cell_name.hpp"
#include "src/results/counters.hpp"
#include "src/results/result_document.hpp"
#include "src/results/result_files.hpp"
#include "support/driver_fixture.hpp"
#include "support/shell.hpp"
#include "support/test_folder.hpp"

namespace gcbench::driver {
namespace {
namespace fs = std::filesystem;
using fixture::DriverRun;

void write(const fs::path& path, const std::string& bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << bytes;
}

std::string random_bytes(std::size_t n) {
  std::mt19937 rng(7);
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>(rng());
  return s;
}

// A .npy file as NumPy writes it (format 1.0, the header padded to 64 bytes).
std::string npy(const std::string& descr, const std::string& shape, const std::string& body,
                const char* fortran = "False") {
  std::string header =
      "{'descr': '" + descr + "', 'fortran_order': " + fortran + ", 'shape': " + shape + ", }";
  header += std::string(64 - (10 + header.size() + 1) % 64, ' ') + "\n";
  std::string out = "\x93NUMPY\x01";
  out += '\0';
  out += static_cast<char>(header.size() & 0xFF);
  out += static_cast<char>(header.size() >> 8);
  return out + header + body;
}

// The folder of the issue: nested files, an empty one, one byte, a non-ASCII name, a name
// with spaces and a comma, a symlink to a file, a symlink loop, a FIFO, 3 MB of random bytes.
fs::path make_user_folder() {
  const fs::path root = gcbench::testing::fresh_test_folder("gcbench-user") / "my data";
  write(root / "empty.bin", "");
  write(root / "one.bin", "x");
  write(root / "sub" / "naïve résumé.txt", "déjà vu, déjà vu, déjà vu\n");
  write(root / "sub" / "a b,c.log", "spaces and a comma\n");
  write(root / "sub" / "deeper" / "random.bin", random_bytes(3'000'000));
  fs::create_directories(root / "links");
  fs::create_symlink("../one.bin", root / "links" / "to-one");
  fs::create_symlink("..", root / "links" / "loop");
  fs::create_symlink("nowhere", root / "links" / "broken");
  EXPECT_EQ(::mkfifo((root / "links" / "fifo").c_str(), 0644), 0);
  return root;
}

std::vector<std::string> names_of(const std::vector<InputFile>& files) {
  std::vector<std::string> names;
  for (const InputFile& f : files) names.push_back(f.corpus + "/" + f.name);
  return names;
}

std::string reason_of(const UserFiles& user, const std::string& name) {
  for (const MissingInput& m : user.skipped) {
    if (m.name == name) return m.reason;
  }
  return "(not skipped)";
}

TEST(CellName, EscapesWhatWouldBreakANameAndParsesBack) {
  const std::vector<std::string> names = {
      "sub/dir/a b,c.txt",        "x:y%z",        "naïve résumé.txt", "tab\there",
      std::string("bad\xff\xfe"), "%41 is not A", "line\nbreak"};
  for (const std::string& file : names) {
    const results::CellId id{"fl", "cpu", "compress", "my data", file, {{"element_width", "2"}}};
    const std::string cell = results::format_cell_name(id);
    EXPECT_EQ(std::count(cell.begin(), cell.end(), '/'), 5) << cell;
    EXPECT_EQ(cell.find(','), std::string::npos) << cell;
    const auto back = results::parse_cell_name(cell + "/real_time");
    ASSERT_TRUE(back.has_value()) << cell;
    EXPECT_EQ(*back, id) << cell;
    EXPECT_TRUE(nlohmann::json::accept(nlohmann::json(cell).dump())) << cell;
  }
  // Names of the standard corpora and synthetic inputs are unchanged by the escaping.
  for (const char* plain : {"alice29.txt", "x-ray", "runs-geo64-1GiB-w4", "all-12-of-12"})
    EXPECT_EQ(results::escape_name_part(plain), plain);
  EXPECT_EQ(results::escape_name_part("a/b:c,d%"), "a%2Fb%3Ac%2Cd%25");
}

TEST(CellName, ResultFileNamesFitAFileSystemAndStayApart) {
  const std::string long_a = std::string(300, 'a') + "1";
  const std::string long_b = std::string(300, 'a') + "2";
  EXPECT_LE(results::result_file_name(long_a).size(), 255u);
  EXPECT_NE(results::result_file_name(long_a), results::result_file_name(long_b));
  std::string accents;
  for (int i = 0; i < 150; ++i) accents += "é";  // never cut inside a character
  EXPECT_TRUE(nlohmann::json::accept(nlohmann::json(results::result_file_name(accents)).dump()));
  EXPECT_EQ(results::result_file_name("sub/a.txt"), "sub%2Fa.txt.json");
}

TEST(UserFiles, EveryRegularFileIsAnInputAndTheRestIsSkippedWithItsReason) {
  const fs::path root = make_user_folder();
  std::ostringstream log;
  const UserFiles user = gather_user_files({root.string()}, {}, log);
  EXPECT_EQ(
      names_of(user.present),
      (std::vector<std::string>{"my data/empty.bin", "my data/one.bin", "my data/sub/a b,c.log",
                                "my data/sub/deeper/random.bin", "my data/sub/naïve résumé.txt"}));
  EXPECT_EQ(user.present[3].size, 3'000'000u);
  EXPECT_EQ(user.present[0].sha256,
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(fixture::loaded(user.present[2]),
            Bytes({'s', 'p', 'a', 'c', 'e', 's', ' ', 'a', 'n', 'd', ' ', 'a', ' ', 'c', 'o', 'm',
                   'm', 'a', '\n'}));
  EXPECT_EQ(user.skipped.size(), 4u);
  EXPECT_EQ(reason_of(user, "links/fifo"), "skipped: a FIFO");
  EXPECT_EQ(reason_of(user, "links/broken"), "skipped: a broken symlink");
  EXPECT_EQ(reason_of(user, "links/to-one"),
            "skipped: the same file as my data/one.bin (measured once)");
  EXPECT_NE(reason_of(user, "links/loop").find("symlink loop"), std::string::npos);
  EXPECT_NE(log.str().find("5 files, 3000052 bytes, corpus my data; 4 skipped"), std::string::npos)
      << log.str();
}

TEST(UserFiles, IncludeExcludeAndANameOfOnesOwn) {
  const fs::path root = make_user_folder();
  std::ostringstream log;
  PathFilter filter{{"*.txt", "*.log"}, {"deeper"}, "mine", {}};
  const UserFiles user = gather_user_files({root.string()}, filter, log);
  EXPECT_EQ(names_of(user.present),
            (std::vector<std::string>{"mine/sub/a b,c.log", "mine/sub/naïve résumé.txt"}));
  filter = {{}, {"sub/*", "links"}, "", {}};
  EXPECT_EQ(names_of(gather_user_files({root.string()}, filter, log).present),
            (std::vector<std::string>{"my data/empty.bin", "my data/one.bin"}));
  EXPECT_TRUE(glob_matches("*.txt", "a/b/c.txt"));
  EXPECT_FALSE(glob_matches("a/*.txt", "b/c.txt"));
}

TEST(UserFiles, FilesGivenOneByOneAndTheSameFileTwiceAreMeasuredOnce) {
  const fs::path root = make_user_folder();
  std::ostringstream log;
  const UserFiles user = gather_user_files(
      {(root / "one.bin").string(), (root / "links" / "to-one").string(), root.string()}, {}, log);
  ASSERT_GE(user.present.size(), 1u);
  EXPECT_EQ(user.present[0].corpus + "/" + user.present[0].name, "files/one.bin");
  EXPECT_EQ(std::count_if(user.present.begin(), user.present.end(),
                          [](const InputFile& f) { return f.name == "one.bin"; }),
            1);
  EXPECT_NE(log.str().find("given before: measured once"), std::string::npos) << log.str();
}

TEST(UserFiles, BadPathsStopTheRunBeforeAnyCellWithOneClearError) {
  const fs::path root = gcbench::testing::fresh_test_folder("gcbench-user-bad");
  fs::create_directories(root / "empty");
  fs::create_directories(root / "only-fifo");
  ASSERT_EQ(::mkfifo((root / "only-fifo" / "f").c_str(), 0644), 0);
  const auto error_of = [](const std::string& path) {
    std::ostringstream log;
    try {
      gather_user_files({path}, {}, log);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_EQ(error_of((root / "nope").string()),
            (root / "nope").string() + ": no such file or folder");
  EXPECT_EQ(error_of((root / "empty").string()), (root / "empty").string() + ": an empty folder");
  EXPECT_EQ(
      error_of((root / "only-fifo").string()),
      (root / "only-fifo").string() +
          ": holds no regular file to measure (1 skipped, 0 excluded by --include/--exclude)");
  EXPECT_EQ(error_of((root / "only-fifo" / "f").string()),
            (root / "only-fifo" / "f").string() + ": a FIFO, not a regular file or a folder");
  EXPECT_EQ(error_of(""), "an empty path");
}

TEST(UserFiles, AFileThatChangesOrVanishesFailsItsOwnLoad) {
  const fs::path root = gcbench::testing::fresh_test_folder("gcbench-user-change");
  write(root / "a.bin", "abc");
  write(root / "b.bin", "def");
  std::ostringstream log;
  const UserFiles user = gather_user_files({root.string()}, {}, log);
  ASSERT_EQ(user.present.size(), 2u);
  write(root / "a.bin", "abd");
  fs::remove(root / "b.bin");
  EXPECT_THROW(
      {
        try {
          user.present[0].load();
        } catch (const std::runtime_error& e) {
          EXPECT_NE(std::string(e.what()).find("changed since the run began"), std::string::npos);
          throw;
        }
      },
      std::runtime_error);
  EXPECT_THROW(user.present[1].load(), std::runtime_error);
}

// A user's file is mapped, not read into memory, and a round trip from its mapping verifies.
// Truncated after it was mapped, its cells fail with the reason: no read past the file's new
// end, which would kill the run with SIGBUS.
TEST_F(DriverRun, AFileIsMappedAndATruncatedOneFailsItsCellsNotTheRun) {
  const fs::path root = gcbench::testing::fresh_test_folder("gcbench-user-mapped");
  std::string bytes(std::size_t{1} << 20, '\0');
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 131 % 251);
  write(root / "big.bin", bytes);
  std::ostringstream log;
  inputs_ = gather_user_files({root.string()}, {}, log).present;  // the fixture's workspace's
  ASSERT_EQ(inputs_.size(), 1u);
  EXPECT_EQ(workspace_.input(0).size(), bytes.size());
  EXPECT_TRUE(workspace_.input_mapped());

  fixture::FakeCodec codec("a", {});
  fixture::Capture verified;
  run({&codec}, {&codec}, verified);
  ASSERT_EQ(verified.got.size(), 2u);
  for (const auto& r : verified.got) {
    EXPECT_FALSE(run_failed(r)) << run_message(r);
    EXPECT_EQ(r.counters.at("verified"), 1);
  }

  fs::resize_file(root / "big.bin", 4096);
  try {
    workspace_.input(0);
    ADD_FAILURE() << "a truncated mapping was read";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("was truncated since the run began (1048576 bytes "
                                         "then, 4096 now)"),
              std::string::npos)
        << e.what();
  }
  benchmark::ClearRegisteredBenchmarks();
  fixture::Capture failed;
  run({&codec}, {&codec}, failed);
  ASSERT_EQ(failed.got.size(), 2u);
  for (const auto& r : failed.got) {
    EXPECT_TRUE(run_failed(r));
    EXPECT_NE(run_message(r).find("was truncated since the run began"), std::string::npos)
        << run_message(r);
  }
}

// A file written in place while its cells run (same size, new bytes) fails the cell during which
// it changed and every cell after it: none measures other bytes than the run found.
TEST_F(DriverRun, AFileWrittenWhileMeasuredFailsItsCells) {
  const fs::path root = gcbench::testing::fresh_test_folder("gcbench-user-written");
  write(root / "data.bin", std::string(std::size_t{1} << 16, 'a'));
  std::ostringstream log;
  inputs_ = gather_user_files({root.string()}, {}, log).present;
  ASSERT_EQ(inputs_.size(), 1u);
  fixture::FakeCodec::Knobs knobs;
  knobs.on_compress = [&](int call) {
    if (call == 3) write(root / "data.bin", std::string(std::size_t{1} << 16, 'b'));
  };
  fixture::FakeCodec codec("a", knobs);
  fixture::Capture got;
  run({&codec}, {&codec}, got);
  ASSERT_EQ(got.got.size(), 2u);
  for (const auto& r : got.got) {
    EXPECT_TRUE(run_failed(r)) << r.run_name.function_name;
    EXPECT_NE(run_message(r).find("data.bin was written while it was measured"), std::string::npos)
        << run_message(r);
  }
}

TEST(Npy, AnInt16ArrayIsItsBytesAtElementWidthTwo) {
  const fs::path root = gcbench::testing::fresh_test_folder("gcbench-npy");
  std::string body;
  for (int i = 0; i < 1000; ++i) body += {static_cast<char>(i % 7), '\0'};
  write(root / "col.npy", npy("<i2", "(1000,)", body));
  std::ostringstream log;
  const UserFiles user = gather_user_files({root.string()}, {}, log);
  ASSERT_EQ(user.present.size(), 1u);
  const InputFile& col = user.present[0];
  EXPECT_EQ(col.element_width, 2u);
  EXPECT_EQ(col.size, 2000u);
  const Bytes loaded = fixture::loaded(col);
  EXPECT_EQ(std::string(loaded.begin(), loaded.end()), body);
  // The run's context marks its corpus as typed: the report gives it a column table.
  Inputs inputs;
  inputs.present = user.present;
  const ContextEntries context = host_context(inputs, {"path:" + root.string()});
  EXPECT_NE(std::find(context.begin(), context.end(),
                      std::pair<std::string, std::string>(
                          std::string(results::kTypedCorpusKey) + col.corpus, "1 typed inputs")),
            context.end());

  // Its width is the element_width axis's one value, unless the axis is given.
  fixture::FakeCodec codec("fake", {});
  Options options;
  std::vector<std::string> widths;
  for (const CellSpec& c : enumerate_cells({&codec}, {&codec}, user.present, options))
    widths.push_back(*c.id.param("element_width"));
  EXPECT_EQ(std::count(widths.begin(), widths.end(), "2"), static_cast<long>(widths.size()));
  options.axis_values["element_width"] = {"1", "4"};
  widths.clear();
  for (const CellSpec& c : enumerate_cells({&codec}, {&codec}, user.present, options))
    widths.push_back(*c.id.param("element_width"));
  EXPECT_EQ(std::count(widths.begin(), widths.end(), "2"), 0);
}

// A float64 array has no natural width for a codec reading 1, 2 or 4 bytes: refused, with the
// fix, rather than measured at widths it does not hold; --element-width chooses one.
TEST(Npy, AnArrayOfAWidthTheCodecLacksIsRefusedWithTheFix) {
  const fs::path root = gcbench::testing::fresh_test_folder("gcbench-npy-f8");
  write(root / "values.npy", npy("<f8", "(100,)", std::string(800, '\1')));
  std::ostringstream log;
  const UserFiles user = gather_user_files({root.string()}, {}, log);
  ASSERT_EQ(user.present.size(), 1u);
  fixture::FakeCodec codec("fake", {});
  Options options;
  try {
    (void)enumerate_cells({&codec}, {&codec}, user.present, options);
    ADD_FAILURE() << "a float64 array was measured";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("its elements are 8 bytes wide, and fake/cpu reads"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("--element-width"), std::string::npos) << e.what();
  }
  options.axis_values["element_width"] = {"4"};
  const std::vector<CellSpec> cells = enumerate_cells({&codec}, {&codec}, user.present, options);
  ASSERT_FALSE(cells.empty());
  for (const CellSpec& c : cells) EXPECT_EQ(*c.id.param("element_width"), "4") << c.name;
}

TEST(Npy, UnsupportedArraysAreAClearErrorNamingTheFile) {
  const auto error_of = [](const std::string& bytes) {
    const fs::path root = gcbench::testing::fresh_test_folder("gcbench-npy-bad");
    write(root / "bad.npy", bytes);
    try {
      std::ostringstream log;
      gather_user_files({root.string()}, {}, log);
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("bad.npy"), std::string::npos) << e.what();
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_NE(error_of(npy("<i4", "(2, 2)", std::string(16, '\0'), "True")).find("Fortran order"),
            std::string::npos);
  EXPECT_NE(error_of(npy(">i4", "(4,)", std::string(16, '\0'))).find("little-endian"),
            std::string::npos);
  EXPECT_NE(error_of(npy("<c8", "(2,)", std::string(16, '\0'))).find("unsupported dtype"),
            std::string::npos);
  EXPECT_NE(error_of(npy("<i2", "(100,)", std::string(10, '\0'))).find("truncated"),
            std::string::npos);
  EXPECT_NE(error_of("not an array").find("no NumPy magic"), std::string::npos);
  // Version 2's 4-byte header length, claiming 4 GiB: refused before anything is allocated.
  EXPECT_NE(error_of(std::string("\x93NUMPY\x02\x00\xff\xff\xff\xff", 12) + "{}")
                .find("its header claims 4294967295 bytes"),
            std::string::npos);
  EXPECT_EQ(
      parse_npy_header("{'descr': '|u1', 'fortran_order': False, 'shape': (), }", 1).element_width,
      1u);
}

#ifdef GCBENCH_DRIVER
using testing::run_driver;

// The cells the gcbench program records measuring `inputs` into `out` with `flags`; `log` its
// output, `status` its exit status.
std::vector<nlohmann::json> recorded_cells(const std::string& flags, const fs::path& inputs,
                                           const fs::path& out, std::string& log, int& status) {
  log = run_driver(flags + " --out-dir '" + out.string() + "' '" + inputs.string() + "'", status);
  std::vector<nlohmann::json> cells;
  for (const fs::path& path : results::json_files_under(out)) {
    const nlohmann::json doc = results::read_json_file(path);
    for (const nlohmann::json& b : doc["benchmarks"]) cells.push_back(b);
  }
  return cells;
}

// The whole way: the gcbench program measures and verifies every file of the folder, records
// it, and after one file changes measures that file alone again.
// 100 MiB of zeros compress to a few bytes, far past the decode limit a container of unknown
// origin gets (64 MiB for so small a container): the harness made these containers from an
// input whose size it knows, so every decoder may give back that many bytes, and every cell
// verifies (RLE's and zstd's refused them as damage).
// The results folder inside the folder measured is never measured: a rerun finds the same
// inputs, not one more file (its own result) each time.
TEST(UserFiles, AnOutDirInsideTheFolderIsNotInput) {
  const fs::path root = gcbench::testing::fresh_test_folder("gcbench-user-outdir");
  write(root / "data" / "a.txt", "some bytes to measure");
  const std::string args = "--codecs zlib --device cpu --no-progress --max-time 0.01 --out-dir '" +
                           (root / "data" / "results").string() + "' '" + (root / "data").string() +
                           "'";
  for (int run = 0; run < 2; ++run) {
    int status = -1;
    const std::string log = run_driver(args, status);
    ASSERT_EQ(status, 0) << log;
    EXPECT_NE(log.find("1 files"), std::string::npos) << log;
    std::size_t cells = 0;
    for (const fs::path& path : results::json_files_under(root / "data" / "results")) {
      const nlohmann::json doc = results::read_json_file(path);
      cells += doc["benchmarks"].size();
    }
    EXPECT_EQ(cells, 2u) << log;  // a.txt's zlib cells, the results' own files not among them
  }
  fs::remove_all(root);
}

// Every CPU cell records the host memory its timed calls held (heap_meter.hpp), gzip's its
// program's: at least its output, never more than a generous bound. The gcbench program of a
// sanitizer build does not count its heap (the sanitizer's allocator is its own).
TEST(UserFiles, EveryCpuCellRecordsItsHostMemory) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "a sanitizer build's gcbench does not count its heap";
#endif
  const fs::path root = gcbench::testing::fresh_test_folder("gcbench-user-memory");
  std::string text;
  for (int i = 0; text.size() < 300000; ++i)
    text += "line " + std::to_string(i * 7919 % 1000) + "\n";
  write(root / "data" / "a.txt", text);
  std::string log;
  int status = -1;
  const auto cells = recorded_cells(
      "--codecs fl,rle,lz77,zlib,gzip,peers --device cpu --sweep defaults --no-progress "
      "--max-time 0.01",
      root / "data", root / "results", log, status);
  ASSERT_EQ(status, 0) << log;
  for (const nlohmann::json& b : cells) {
    const double memory = b.value(results::counter::kMemoryHostBytes, 0.0);
    EXPECT_GT(memory, 0) << b["name"];
    EXPECT_LT(memory, 256.0 * (1 << 20)) << b["name"];
    // A codec that decodes into the harness's buffer holds at least that buffer.
    if (b["name"].get<std::string>().find("/decompress/") != std::string::npos &&
        !b["name"].get<std::string>().starts_with("gzip")) {
      EXPECT_GE(memory, static_cast<double>(text.size())) << b["name"];
    }
  }
  EXPECT_GE(cells.size(), 10u) << log;
  fs::remove_all(root);
}

// Every cell of a typed array records the array's own width (results::counter::kInputElementWidth),
// the width its cells run at by default: the reports take those cells as its defaults.
TEST(Npy, EachCellRecordsItsArraysOwnWidth) {
  const fs::path root = gcbench::testing::fresh_test_folder("gcbench-npy-width");
  std::string body;
  for (int i = 0; i < 4000; ++i) body += {static_cast<char>(i % 7), '\0', '\0', '\0'};
  write(root / "data" / "col.npy", npy("<i4", "(4000,)", body));
  std::string log;
  int status = -1;
  const auto cells =
      recorded_cells("--codecs fl,zlib --device cpu --sweep defaults --no-progress --max-time 0.01",
                     root / "data", root / "results", log, status);
  ASSERT_EQ(status, 0) << log;
  for (const nlohmann::json& b : cells)
    EXPECT_EQ(b.value(results::counter::kInputElementWidth, 0.0), 4.0) << b["name"];
  EXPECT_EQ(cells.size(), 4u) << log;  // fl at width 4 and zlib, both ways
  fs::remove_all(root);
}

TEST(UserFiles, AFileOfZerosDecodesUnderItsKnownSize) {
  const fs::path root = gcbench::testing::fresh_test_folder("gcbench-user-zeros");
  fs::create_directories(root / "zeros");
  std::ofstream(root / "zeros" / "zeros.bin").close();
  fs::resize_file(root / "zeros" / "zeros.bin", std::uint64_t{100} << 20);  // sparse
  std::string log;
  int status = -1;
  const auto cells = recorded_cells(
      "--codecs rle,zlib,peers --device cpu --no-progress --benchmark_min_time=0.001 "
      "--max-time 0.01",
      root / "zeros", root / "results", log, status);
  EXPECT_EQ(status, 0) << log;
  for (const nlohmann::json& b : cells)
    EXPECT_EQ(b.value(results::counter::kVerified, 0.0), 1.0) << b.dump();
  EXPECT_GE(cells.size(), 8u)
      << log;  // rle at three widths and zlib, each both ways, and the peers
  fs::remove_all(root);
}

TEST(UserFiles, TheDriverMeasuresAFolderAndAChangedFileAloneAgain) {
  const fs::path root = make_user_folder();
  const fs::path out = root.parent_path() / "results";
  const std::string args =
      "--codecs fl,zlib --device cpu --no-progress --benchmark_min_time=0.001 "
      "--out-dir '" +
      out.string() + "' '" + root.string() + "'";
  int status = -1;
  std::string log = run_driver(args, status);
  ASSERT_EQ(status, 0) << log;
  EXPECT_NE(log.find("4 inputs skipped: "), std::string::npos) << log;
  EXPECT_NE(log.find("my data/links/fifo (a FIFO)"), std::string::npos) << log;
  std::vector<std::string> files;
  std::size_t cells = 0;
  for (const fs::path& path : results::json_files_under(out)) {
    files.push_back(path.lexically_relative(out).string());
    const nlohmann::json doc = results::read_json_file(path);
    for (const nlohmann::json& b : doc["benchmarks"]) {
      ++cells;
      EXPECT_FALSE(b.value("error_occurred", false)) << b.dump();
      EXPECT_EQ(b.value("verified", 0.0), 1.0) << b.dump();
      EXPECT_EQ(b["provenance"]["input_sha256"].get<std::string>().size(), 64u);
    }
    EXPECT_EQ(doc["context"]["user_files"], "5");
  }
  EXPECT_EQ(files,
            (std::vector<std::string>{
                "my data/empty.bin.json", "my data/one.bin.json", "my data/sub%2Fa b%2Cc.log.json",
                "my data/sub%2Fdeeper%2Frandom.bin.json", "my data/sub%2Fnaïve résumé.txt.json"}));
  const std::size_t per_file = cells / files.size();

  write(root / "sub" / "a b,c.log", "changed\n");
  log = run_driver(args, status);
  ASSERT_EQ(status, 0) << log;
  EXPECT_NE(log.find(std::to_string(cells - per_file) + " cells already recorded"),
            std::string::npos)
      << log;
  EXPECT_NE(
      log.find(std::to_string(per_file) + " recorded cells measured again: the input file changed"),
      std::string::npos)
      << log;
}
#endif

}  // namespace
}  // namespace gcbench::driver
