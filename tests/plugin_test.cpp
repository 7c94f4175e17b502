// Out-of-tree codec plugins (include/gcbench/plugin.h): the example plugin (examples/plugin)
// loaded, round-tripped and checked as hostile input is; plugins that must not load refused
// with the file named; and the gcbench program sweeping, verifying and reporting a plugin
// codec, a misbehaving one failing only its own cells.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gcbench/errors.hpp"
#include "gcbench/registry.hpp"
#include "registry/plugin_codec.hpp"
#include "src/results/result_files.hpp"
#include "support/shell.hpp"
#include "support/test_folder.hpp"

namespace gcbench {
namespace {

namespace fs = std::filesystem;

plugins::LoadedPlugin load(const char* file) {
  return plugins::load_plugin(file, {"fl", "rle"});
}

// Sorted-ish 32-bit keys with a ragged tail: what deltapack is for, and a length it must keep.
Bytes keys(std::size_t count, std::size_t tail) {
  std::mt19937 rng(7);
  Bytes out;
  std::uint32_t key = 1000;
  for (std::size_t i = 0; i < count; ++i) {
    key += rng() % 50;
    for (int b = 0; b < 4; ++b) out.push_back(static_cast<std::uint8_t>(key >> (8 * b)));
  }
  for (std::size_t i = 0; i < tail; ++i) out.push_back(static_cast<std::uint8_t>(rng()));
  return out;
}

TEST(Plugin, TheExampleLoadsWithItsAxisAndRoundTrips) {
  const plugins::LoadedPlugin loaded = load(GCBENCH_EXAMPLE_PLUGIN);
  // Its CPU path, and its GPU path where gcbench (so the example) is built with CUDA.
  ASSERT_EQ(loaded.codecs.size(), GCBENCH_HAVE_CUDA ? 2u : 1u);
  if (GCBENCH_HAVE_CUDA) {
    EXPECT_EQ(loaded.codecs[1]->info().device, Device::gpu);
    EXPECT_EQ(loaded.codecs[1]->info().cpu_reference, "deltapack");
  }
  const Codec& codec = *loaded.codecs[0];
  EXPECT_EQ(codec.info().name, "deltapack");
  EXPECT_EQ(codec.info().device, Device::cpu);
  ASSERT_EQ(codec.info().axes.size(), 1u);
  const AxisSpec& axis = codec.info().axes[0];
  EXPECT_EQ(axis.name, "block_size");
  EXPECT_EQ(axis.default_value, 1024);
  EXPECT_TRUE(axis.in_container);
  EXPECT_EQ(axis.sweep, (std::vector<std::int64_t>{128, 1024, 16384}));
  EXPECT_THROW(codec.bind({{"block_size", 100}}), ParamError);

  for (std::size_t count : {0, 1, 2, 1000, 70000}) {
    for (std::size_t tail : {0, 3}) {
      const Bytes input = keys(count, tail);
      for (std::int64_t block : {64, 1024, 65536}) {
        const BoundCodecPtr bound = codec.bind({{"block_size", block}});
        const Bytes container = bound->compress(input);
        EXPECT_LE(container.size(), bound->max_compressed_size(input.size()));
        EXPECT_EQ(bound->decompress(container), input) << count << " " << tail << " " << block;
      }
    }
  }
  // Deltas under 64 take 7 bits: about 4.5x smaller than the 32-bit keys.
  const Bytes input = keys(100000, 0);
  EXPECT_LT(codec.compress(input, {}).size() * 4, input.size());
}

TEST(Plugin, TheExampleRejectsDamagedContainersWithDecodeError) {
  const plugins::LoadedPlugin loaded = load(GCBENCH_EXAMPLE_PLUGIN);
  const BoundCodecPtr codec = loaded.codecs[0]->bind({{"block_size", 64}});
  const Bytes input = keys(5000, 2);
  const Bytes container = codec->compress(input);
  std::mt19937 rng(11);
  for (int trial = 0; trial < 2000; ++trial) {
    Bytes damaged = container;
    if (trial % 3 == 0) {
      damaged.resize(rng() % damaged.size());
    } else {
      for (int k = 0; k < 1 + trial % 4; ++k) damaged[rng() % damaged.size()] ^= 1 + rng() % 255;
    }
    try {
      (void)codec->decompress(damaged);
      ADD_FAILURE() << "trial " << trial << ": a damaged container decoded";
    } catch (const DecodeError& e) {
      EXPECT_NE(std::string(e.what()).find("deltapack"), std::string::npos) << e.what();
    }
  }
  // A header claiming far more than its container can hold is refused before allocation.
  Bytes bomb = container;
  for (int b = 8; b < 16; ++b) bomb[b] = 0xff;  // the original size
  EXPECT_THROW((void)codec->decompress(bomb), DecodeError);
}

void expect_refused(const char* file, const std::string& why) {
  try {
    (void)load(file);
    ADD_FAILURE() << file << " loaded";
  } catch (const plugins::PluginError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(file), std::string::npos) << message;
    EXPECT_NE(message.find(why), std::string::npos) << message;
  }
}

TEST(Plugin, OneThatCannotBeUsedIsRefusedNamingTheFile) {
  expect_refused(GCBENCH_ABI99_PLUGIN,
                 "built for plugin ABI version 99, this gcbench loads version 1");
  expect_refused(GCBENCH_NO_ENTRY_PLUGIN, "no symbol gcbench_plugin_entry");
  expect_refused(GCBENCH_CLASH_PLUGIN, "the name 'fl' is already a codec's");
  // Axis names are parts of cell names, flags and columns: plain, each once, none of a name
  // gcbench or Google Benchmark gives a cell or a flag.
  expect_refused(GCBENCH_SLASH_AXIS_PLUGIN, "axis 'fault/x' is not a plain name");
  expect_refused(GCBENCH_RESERVED_AXIS_PLUGIN,
                 "axis 'iterations' is a name gcbench or Google Benchmark gives");
  expect_refused(GCBENCH_TWICE_AXIS_PLUGIN, "axis 'fault' is declared twice");
  expect_refused(GCBENCH_THROWING_ENTRY_PLUGIN, "gcbench_plugin_entry threw: no description today");
  const fs::path folder = testing::fresh_test_folder("gcbench-plugin");
  fs::create_directories(folder);
  const std::string not_a_library = (folder / "notes.so").string();
  std::ofstream(not_a_library) << "not a shared library\n";
  expect_refused(not_a_library.c_str(), "notes.so");
  fs::remove_all(folder);
}

TEST(Plugin, AMisbehavingDecoderFailsWithItsNameAndWhatWentWrong) {
  const plugins::LoadedPlugin loaded = load(GCBENCH_FAULT_PLUGIN);
  const Codec& codec = *loaded.codecs[0];
  const Bytes input = keys(100, 0);
  const Bytes container = codec.compress(input, {});
  EXPECT_EQ(codec.decompress(container, {}), input);
  EXPECT_NE(codec.decompress(container, {{"fault", 1}}), input);  // wrong_byte: caught by verify
  try {
    (void)codec.decompress(container, {{"fault", 2}});
    ADD_FAILURE() << "an error status passed";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              std::string("faulty: decompress failed (internal error): fault injected [plugin ") +
                  GCBENCH_FAULT_PLUGIN + "]");
  }
  try {
    (void)codec.decompress(container, {{"fault", 3}});
    ADD_FAILURE() << "an exception passed";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              std::string("faulty: the plugin threw from decompress: fault injected [plugin ") +
                  GCBENCH_FAULT_PLUGIN + "]");
  }
  // A bound of 12 GiB for 400 bytes is refused before anything is allocated by it.
  try {
    (void)codec.compress(input, {{"fault", 7}});
    ADD_FAILURE() << "a 12 GiB bound was taken";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("faulty: max_compressed_size claims 12884901888 bytes "
                                         "for 400 input bytes"),
              std::string::npos)
        << e.what();
  }
}

#ifdef GCBENCH_DRIVER
// A fresh folder holding `folder`/keys.bin, `count` keys: the folder the driver is given.
fs::path folder_of_keys(const char* folder, std::size_t count) {
  const fs::path root = testing::fresh_test_folder("gcbench-plugin");
  fs::create_directories(root / folder);
  const Bytes input = keys(count, 1);
  std::ofstream(root / folder / "keys.bin", std::ios::binary)
      .write(reinterpret_cast<const char*>(input.data()),
             static_cast<std::streamsize>(input.size()));
  return root;
}

using testing::run_driver;

// The whole way: --list shows the plugin codec, a sweep over its declared axis is measured
// and verified like a built-in codec's, and the report shows it.
TEST(Plugin, TheDriverSweepsVerifiesAndReportsAPluginCodec) {
  const fs::path root = folder_of_keys("columns", 50000);
  const std::string plugin = std::string("--plugin '") + GCBENCH_EXAMPLE_PLUGIN + "' ";
  int status = -1;
  std::string log = run_driver(plugin + "--list", status);
  ASSERT_EQ(status, 0) << log;
  EXPECT_NE(log.find("deltapack"), std::string::npos) << log;
  EXPECT_NE(log.find("--block-size  default 1024"), std::string::npos) << log;

  const fs::path out = root / "results";
  log = run_driver(plugin + "--codecs deltapack,zlib --no-progress --benchmark_min_time=0.001 " +
                       "--out-dir '" + out.string() + "' '" + (root / "columns").string() + "'",
                   status);
  ASSERT_EQ(status, 0) << log;
  std::vector<std::string> blocks;
  for (const fs::path& path : results::json_files_under(out)) {
    const nlohmann::json doc = results::read_json_file(path);
    for (const nlohmann::json& b : doc["benchmarks"]) {
      EXPECT_FALSE(b.value("error_occurred", false)) << b.dump();
      EXPECT_EQ(b.value("verified", 0.0), 1.0) << b.dump();
      const std::string name = b["name"];
      if (name.starts_with("deltapack/cpu/compress")) blocks.push_back(name);
#if !defined(__SANITIZE_ADDRESS__)
      // Measured around its calls as a built-in codec is: the heap the calls held, its output
      // buffer at least (a sanitizer build's gcbench does not count its heap).
      EXPECT_GE(b.value("memory_host_bytes", 0.0), 50000.0) << name;
#endif
    }
  }
  // The plugin's own sweep (128, 1024, 16384; 1024 its default).
  EXPECT_EQ(blocks.size(), 3u) << log;

  log = testing::run_output(std::string("'") + GCBENCH_REPORT_TOOL + "' --out '" +
                                (root / "report").string() + "' '" + out.string() + "'",
                            status);
  ASSERT_EQ(status, 0) << log;
  std::ifstream variants(root / "report" / "columns" / "variants.md");  // every variant's row
  const std::string table((std::istreambuf_iterator<char>(variants)), {});
  for (const char* block : {"128", "1024", "16384"}) {
    EXPECT_NE(table.find(std::string("| deltapack/cpu/block_size:") + block + " |"),
              std::string::npos)
        << table;
  }
  fs::remove_all(root);
}

// A plugin whose decoder errs fails the cells it errs in, each saying why, and the run goes on.
TEST(Plugin, AMisbehavingPluginFailsOnlyItsOwnCells) {
  const fs::path root = folder_of_keys("data", 1000);
  int status = -1;
  const std::string log =
      run_driver(std::string("--plugin '") + GCBENCH_FAULT_PLUGIN + "' --codecs faulty,zlib " +
                     "--fault none,wrong_byte,status,throw --direction decompress --no-progress " +
                     "--benchmark_min_time=0.001 --out-dir '" + (root / "results").string() +
                     "' '" + (root / "data").string() + "'",
                 status);
  EXPECT_EQ(WEXITSTATUS(status), 1) << log;   // some cells failed
  std::map<std::string, std::string> errors;  // cell -> its error, "" when it passed
  for (const fs::path& path : results::json_files_under(root / "results")) {
    const nlohmann::json doc = results::read_json_file(path);
    for (const nlohmann::json& b : doc["benchmarks"]) {
      errors[b["name"]] = b.value("error_message", "");
    }
  }
  ASSERT_EQ(errors.size(), 5u) << log;
  for (const auto& [cell, error] : errors) {
    if (cell.find("fault:none") != std::string::npos || cell.starts_with("zlib")) {
      EXPECT_EQ(error, "") << cell;
    } else if (cell.find("fault:wrong_byte") != std::string::npos) {
      EXPECT_NE(error.find("byte 100"), std::string::npos) << error;
    } else if (cell.find("fault:status") != std::string::npos) {
      EXPECT_NE(error.find("faulty: decompress failed (internal error): fault injected"),
                std::string::npos)
          << error;
    } else {
      EXPECT_NE(error.find("faulty: the plugin threw from decompress"), std::string::npos) << error;
    }
  }
  fs::remove_all(root);
}

// The cells' entries of every result file under `dir`: cell name -> its error ("" when none)
// and whether it was recorded as verified.
struct Recorded {
  std::string error;
  bool verified = false;
};
std::map<std::string, Recorded> recorded_cells(const fs::path& dir) {
  std::map<std::string, Recorded> cells;
  for (const fs::path& path : results::json_files_under(dir)) {
    const nlohmann::json doc = results::read_json_file(path);
    for (const nlohmann::json& b : doc["benchmarks"]) {
      cells[b["name"]] = {b.value("error_message", ""), b.value("verified", 0.0) == 1.0};
    }
  }
  return cells;
}

// What no harness may record as verified: a codec that skips the work of a call repeated on the
// same buffers (its output is left from the call before), writes into its input, or writes past
// its output buffer. Each cell fails saying what happened; zlib's beside them are verified.
TEST(Plugin, NoFalseResultIsRecordedAsVerified) {
  const fs::path root = testing::fresh_test_folder("gcbench-plugin-trust");
  int status = -1;
  // A synthetic input lives in memory the workspace protects: its last bytes share a page with
  // other memory, so a write there is caught by comparison rather than by a fault.
  const std::string log = run_driver(
      std::string("--plugin '") + GCBENCH_FAULT_PLUGIN + "' --codecs faulty,zlib " +
          "--fault skip_repeat,write_input,overflow --corpus synthetic:small_ints:200000 " +
          "--no-progress --benchmark_min_time=0.001 --out-dir '" + (root / "results").string() +
          "'",
      status);
  EXPECT_EQ(WEXITSTATUS(status), 1) << log;
  const std::map<std::string, Recorded> cells = recorded_cells(root / "results");
  ASSERT_EQ(cells.size(), 8u) << log;  // 3 faults x 2 directions, zlib's 2
  for (const auto& [cell, found] : cells) {
    if (cell.starts_with("zlib")) {
      EXPECT_TRUE(found.verified && found.error.empty()) << cell << ": " << found.error;
      continue;
    }
    EXPECT_FALSE(found.verified) << cell;
    EXPECT_NE(found.error, "") << cell;
    const bool compress = cell.find("/compress/") != std::string::npos;
    if (cell.find("fault:skip_repeat") != std::string::npos) {
      EXPECT_TRUE(found.error.starts_with("timed call ")) << cell << ": " << found.error;
    } else if (cell.find("fault:overflow") != std::string::npos) {
      EXPECT_NE(found.error.find("wrote past its output buffer"), std::string::npos)
          << cell << ": " << found.error;
    } else if (compress) {  // write_input: the workspace's input
      EXPECT_NE(found.error.find("a codec wrote into its input"), std::string::npos)
          << cell << ": " << found.error;
    }  // write_input in decompression writes into its container: the next call decodes it wrongly
  }
  fs::remove_all(root);
}

// gcbench-report over a folder with one damaged result file: the file is set aside, named on
// stderr and in report.md, and the others are reported (the driver sets such files aside too);
// --version says what the tool is.
TEST(Plugin, TheReportSetsADamagedResultFileAsideAndSaysItsVersion) {
  const fs::path root = folder_of_keys("data", 1000);
  int status = -1;
  std::string log = run_driver("--codecs zlib --no-progress --max-time 0.01 --out-dir '" +
                                   (root / "results").string() + "' '" +
                                   (root / "data").string() + "'",
                               status);
  ASSERT_EQ(status, 0) << log;
  std::ofstream(root / "results" / "data" / "damaged.json") << "{\"benchmarks\": [1]}";
  log = testing::run_output(std::string("'") + GCBENCH_REPORT_TOOL + "' --out '" +
                                (root / "report").string() + "' '" + (root / "results").string() +
                                "'",
                            status);
  EXPECT_EQ(status, 0) << log;
  EXPECT_NE(log.find("damaged.json set aside, not read"), std::string::npos) << log;
  std::ifstream report(root / "report" / "report.md");
  const std::string md((std::istreambuf_iterator<char>(report)), {});
  EXPECT_NE(md.find("## Result files set aside"), std::string::npos) << md;
  EXPECT_NE(md.find("zlib"), std::string::npos) << md;
  const std::string version =
      testing::run_output(std::string("'") + GCBENCH_REPORT_TOOL + "' --version", status);
  EXPECT_EQ(status, 0) << version;
  EXPECT_TRUE(version.starts_with("gcbench-report ")) << version;
  fs::remove_all(root);
}

// A guest that crashes, aborts, exits or never returns costs its own cells, each failed with
// what happened and where; zlib's cells in the same run are measured and verified, the run ends
// with status 1, and the same command again resumes: the cells recorded stay, the failed run again.
TEST(Plugin, ACrashingExitingOrHangingGuestCostsItsCellsNotTheRun) {
  const fs::path root = folder_of_keys("data", 1000);
  const std::string command = std::string("--plugin '") + GCBENCH_FAULT_PLUGIN +
                              "' --codecs faulty,zlib " +
                              "--fault none,segv,abort,exit,hang --call-limit 2 --no-progress " +
                              "--benchmark_min_time=0.001 --max-time 0.01 --out-dir '" +
                              (root / "results").string() + "' '" + (root / "data").string() + "'";
  for (int run = 0; run < 2; ++run) {
    int status = -1;
    const std::string log = run_driver(command, status);
    ASSERT_TRUE(WIFEXITED(status)) << log;
    EXPECT_EQ(WEXITSTATUS(status), 1) << log;
    if (run == 1) {
      EXPECT_NE(log.find("4 cells already recorded"), std::string::npos) << log;
    }
    const std::map<std::string, Recorded> cells = recorded_cells(root / "results");
    ASSERT_EQ(cells.size(), 12u) << log;  // 5 faults and zlib, each both ways
    for (const auto& [cell, found] : cells) {
      const bool good = cell.starts_with("zlib") || cell.find("fault:none") != std::string::npos;
      EXPECT_EQ(found.verified, good) << cell << ": " << found.error;
      if (good) continue;
      const std::string where = cell.find("/compress/") != std::string::npos
                                    ? "in faulty/cpu compress of data/keys.bin"
                                    : "in faulty/cpu decompress of data/keys.bin";
      // A sanitizer's own handler turns SIGSEGV into an abort: a crash either way.
      const char* how = cell.find("fault:segv") != std::string::npos    ? "crashed with SIG"
                        : cell.find("fault:abort") != std::string::npos ? "crashed with SIGABRT"
                        : cell.find("fault:exit") != std::string::npos
                            ? "exited with status 0"
                            : "no answer in 2 s (--call-limit)";
      EXPECT_NE(found.error.find(how), std::string::npos) << cell << ": " << found.error;
      EXPECT_NE(found.error.find(where), std::string::npos) << cell << ": " << found.error;
    }
  }
  fs::remove_all(root);
}
#endif

}  // namespace
}  // namespace gcbench
