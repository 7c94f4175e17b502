// The gcbench program's command line: -h and --help (one screen, every flag it names real),
// --help-all, --version, and "did you mean" for flags, codecs, corpora and files.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <zlib.h>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "bench/driver/console_table.hpp"
#include "bench/driver/help.hpp"
#include "bench/driver/options.hpp"
#include "gcbench/registry.hpp"
#include "studies/study.hpp"
#include "support/shell.hpp"

namespace gcbench::driver {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The flags a text names: "--word" and "-h", not the placeholders "--<axis>".
std::vector<std::string> flags_named(const std::string& text) {
  static const std::regex flag(R"((^|[\s,(])(--[a-z][a-z0-9_-]*[a-z0-9]|-h)\b)");
  std::vector<std::string> flags;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), flag); it != std::sregex_iterator();
       ++it) {
    flags.push_back((*it)[2]);
  }
  return flags;
}

TEST(Help, FitsAScreenAndNamesOnlyFlagsThatExist) {
  std::ostringstream out;
  print_help(out, studies::presets());
  const std::string help = out.str();
  const std::vector<std::string> lines = lines_of(help);
  EXPECT_LE(lines.size(), 80u) << help;
  for (const std::string& line : lines) EXPECT_LE(line.size(), 100u) << line;
  const std::vector<std::string> known = known_flags(registered_codecs());
  const std::vector<std::string> named = flags_named(help);
  EXPECT_GE(named.size(), 30u) << help;
  for (const std::string& flag : named) {
    EXPECT_NE(std::find(known.begin(), known.end(), flag), known.end()) << flag << " in --help";
  }
  EXPECT_EQ(help.find("issue"), std::string::npos) << "run history in --help";
}

TEST(Help, GoogleBenchmarksFlagsAreTheOnesItsHelpLists) {
  ::testing::internal::CaptureStdout();
  benchmark::PrintDefaultHelp();
  const std::string theirs = ::testing::internal::GetCapturedStdout();
  for (const std::string& flag : kBenchmarkFlags) {
    EXPECT_NE(theirs.find("[" + flag + "="), std::string::npos) << flag << " in\n" << theirs;
  }
}

TEST(Help, TheLongFormDescribesEveryFlag) {
  std::ostringstream out;
  print_full_help(out, registered_codecs(), studies::presets());
  for (const std::string& flag : known_flags(registered_codecs())) {
    // Google Benchmark's own help (printf'ed, not on `out`) lists its flags.
    if (std::find(kBenchmarkFlags.begin(), kBenchmarkFlags.end(), flag) != kBenchmarkFlags.end())
      continue;
    EXPECT_NE(out.str().find(flag), std::string::npos) << flag << " missing from --help-all";
  }
}

#ifdef GCBENCH_DRIVER
using testing::run_driver;

int exit_code(int status) {
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(CommandLine, HelpVersionAndTheirExitStatus) {
  int status = -1;
  const std::string help = run_driver("--help", status);
  EXPECT_EQ(exit_code(status), 0);
  EXPECT_EQ(run_driver("-h", status), help);
  EXPECT_EQ(run_driver("--corpus calgary -h", status), help);  // answered before anything runs
  EXPECT_TRUE(help.starts_with("gcbench: ")) << help;
  const std::string all = run_driver("--help-all", status);
  EXPECT_EQ(exit_code(status), 0);
  EXPECT_GT(lines_of(all).size(), lines_of(help).size());

  const std::string version = run_driver("--version", status);
  EXPECT_EQ(exit_code(status), 0) << version;
  const std::vector<std::string> lines = lines_of(version);
  ASSERT_EQ(lines.size(), 8u) << version;
  EXPECT_TRUE(lines[0].starts_with("gcbench ")) << version;
  for (const char* what :
       {"revision", "build type", "CUDA", "nvCOMP", "peers", "Google Benchmark"}) {
    EXPECT_NE(version.find("\n  " + std::string(what) + " "), std::string::npos) << what;
  }
  EXPECT_NE(version.find("zlib " + std::string(zlibVersion())), std::string::npos) << version;
#if !GCBENCH_HAVE_CUDA
  EXPECT_NE(version.find("CUDA              no: built without CUDA"), std::string::npos) << version;
#endif
}

TEST(CommandLine, DidYouMeanForFlagsCodecsCorporaAndFiles) {
  for (const auto& [args, said] : std::vector<std::pair<std::string, std::string>>{
           {"--corpu canterbury",
            "unknown flag or stray argument: --corpu (did you mean --corpus?)"},
           {"--benchmark_fliter=zlib", "(did you mean --benchmark_filter?)"},
           {"--device gpus", "--device: gpus not in {cpu,gpu,all} (did you mean gpu?)"},
           {"--codecs zlb", "--codecs: 'zlb' names no codec (did you mean zlib?)"},
           {"--codecs zlib --corpus canterbry",
            "unknown corpus 'canterbry' (did you mean canterbury?)"},
           {"--codecs zlib --corpus synthetic:runs:1KiB --files runs-1kib",
            "no chosen corpus has a file 'runs-1kib' (did you mean runs-1KiB?)"}}) {
    int status = -1;
    const std::string out = run_driver("--no-progress " + args, status);
    EXPECT_EQ(exit_code(status), 2) << args << "\n" << out;
    EXPECT_NE(out.find(said), std::string::npos) << args << "\n" << out;
  }
}

// A folder with one file and four entries skipped (a FIFO, two symlinks in a loop, a broken
// link), measured with --cold-l2 and --pipeline-timeline and no GPU cell (a note each, and no
// timeline folder): what comes before the first result is at most 10 lines, and every line
// after it fits the console's width in human units.
TEST(Console, LittleBeforeTheFirstResultAndRowsThatFit) {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / "gcbench_console_test";
  fs::remove_all(root);
  fs::create_directories(root / "data" / "links");
  std::ofstream(root / "data" / "values.bin") << std::string(50000, 'v') + "tail";
  ASSERT_EQ(::mkfifo((root / "data" / "links" / "fifo").c_str(), 0600), 0);
  fs::create_symlink("loop2", root / "data" / "links" / "loop1");
  fs::create_symlink("loop1", root / "data" / "links" / "loop2");
  fs::create_symlink("nowhere", root / "data" / "links" / "broken");
  int status = -1;
  const std::string out = run_driver(
      "--codecs fl,zlib --device cpu --cold-l2 --benchmark_min_time=0.001 "
      "--pipeline-timeline '" +
          (root / "timelines").string() + "' '" + (root / "data").string() + "'",
      status);
  const bool timelines = fs::exists(root / "timelines");
  fs::remove_all(root);
  ASSERT_EQ(exit_code(status), 0) << out;
  EXPECT_NE(out.find("--pipeline-timeline: no GPU cells in this run"), std::string::npos) << out;
  EXPECT_FALSE(timelines);
  const std::vector<std::string> lines = lines_of(out);
  const auto header = std::find_if(lines.begin(), lines.end(), [](const std::string& line) {
    return line.starts_with("codec ") && line.find(" ratio ") != std::string::npos;
  });
  ASSERT_NE(header, lines.end()) << out;
  EXPECT_LE(header - lines.begin(), 10) << out;
  EXPECT_NE(out.find("4 inputs skipped: "), std::string::npos) << out;
  EXPECT_NE(out.find("data/links/fifo (a FIFO)"), std::string::npos) << out;
  std::size_t rows = 0;
  static const std::regex long_time(R"(\d{4,} ns)");
  for (auto line = header; line != lines.end(); ++line) {
    EXPECT_LT(line->size(), kConsoleWidth) << *line;
    EXPECT_FALSE(std::regex_search(*line, long_time)) << *line;
    rows += line->starts_with("fl ") || line->starts_with("zlib ");
  }
  EXPECT_GE(rows, 4u) << out;
}
#endif

}  // namespace
}  // namespace gcbench::driver
