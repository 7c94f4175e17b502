// A run that would measure nothing is an error that says where its selection emptied (exit
// status 2), unless --allow-empty asks for it; so are repetitions below 1 and a synthetic input
// of 0 bytes. The rules (bench/driver/empty_run.hpp), then the gcbench program itself.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "bench/driver/empty_run.hpp"
#include "bench/driver/inputs.hpp"
#include "support/shell.hpp"

namespace gcbench::driver {
namespace {

std::string error_of(const Selection& selection) {
  try {
    check_selection(selection, false);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

// The codecs a run selected, before its inputs.
Selection codecs(const std::string& given, const std::string& device, std::size_t selected,
                 const std::string& gpu_dropped, std::size_t runnable) {
  Selection s;
  s.codecs_given = given;
  s.device = device;
  s.codecs = selected;
  s.gpu_dropped = gpu_dropped;
  s.runnable = runnable;
  return s;
}

TEST(EmptyRun, SaysWhereTheSelectionEmptied) {
  Selection s = codecs("gpu", "cpu", 0, "", 0);
  EXPECT_EQ(error_of(s),
            "no cell selected: --codecs gpu with --device cpu selects no codec; pass "
            "--allow-empty to run nothing on purpose");
  EXPECT_NO_THROW(check_selection(s, true));
  s = codecs("gpu", "all", 3, "no GPU is usable (none: built without CUDA)", 0);
  EXPECT_EQ(error_of(s),
            "no cell selected: the selected codecs are GPU codecs, and no GPU is usable (none: "
            "built without CUDA); pass --allow-empty to run nothing on purpose");
  s = codecs("rle", "cpu", 1, "", 1);
  EXPECT_EQ(error_of(s), "");  // inputs not gathered yet: nothing to say
  s.inputs = 1;
  s.cells = 6;
  s.filter = "nomatch";
  s.filtered = 0;
  EXPECT_EQ(error_of(s),
            "no cell selected: --benchmark_filter=nomatch matches none of the 6 cells; pass "
            "--allow-empty to run nothing on purpose");
  s.filtered = 2;
  EXPECT_EQ(error_of(s), "");
  s.inputs = 0;
  EXPECT_NE(error_of(s).find("no input file is available"), std::string::npos);
}

TEST(EmptyRun, RepetitionsBelowOneAreAnError) {
  std::map<std::string, std::string> env;
  const auto get = [&](const char* name) {
    const auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  };
  const auto error_of_repetitions = [&](const std::vector<std::string>& args, bool allow_empty) {
    try {
      checked_repetitions(args, get, allow_empty);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(checked_repetitions({}, get, false), 1);
  EXPECT_EQ(checked_repetitions({"--benchmark_repetitions=5"}, get, false), 5);
  EXPECT_EQ(error_of_repetitions({"--benchmark_repetitions=-3"}, true),
            "--benchmark_repetitions=-3: the number of repetitions must be at least 1");
  EXPECT_EQ(error_of_repetitions({"--benchmark_repetitions=0"}, false),
            "--benchmark_repetitions=0 runs no cell: give at least 1; pass --allow-empty to run "
            "nothing on purpose");
  EXPECT_EQ(checked_repetitions({"--benchmark_repetitions=0"}, get, true), 0);
  // The last flag wins, as in Google Benchmark; its environment variable is the default.
  EXPECT_EQ(
      checked_repetitions({"--benchmark_repetitions=0", "--benchmark_repetitions=2"}, get, false),
      2);
  env["BENCHMARK_REPETITIONS"] = "-1";
  EXPECT_EQ(error_of_repetitions({}, false),
            "BENCHMARK_REPETITIONS=-1: the number of repetitions must be at least 1");
  EXPECT_EQ(checked_repetitions({"--benchmark_repetitions=3"}, get, false), 3);
}

TEST(EmptyRun, ASyntheticInputOfNoBytesIsAnError) {
  try {
    gather_inputs({"synthetic:runs:0"}, {});
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "synthetic corpus 'synthetic:runs:0': the size must be at least 1 byte (an "
                 "empty input measures nothing)");
  }
}

#ifdef GCBENCH_DRIVER
// The program's last line of output and its exit status.
std::pair<std::string, int> last_line_and_exit(const std::string& args) {
  int status = -1;
  std::string out = testing::run_driver(args, status);
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return {out.substr(out.rfind('\n') + 1), WIFEXITED(status) ? WEXITSTATUS(status) : -1};
}

TEST(EmptyRun, TheProgramExits2SayingWhyUnlessAllowed) {
  const std::string small = "--no-progress --corpus synthetic:runs:1KiB --codecs rle --device cpu ";
  for (const auto& [args, said] : std::map<std::string, std::string>{
           {"--device gpu --codecs cpu",
            "gcbench: no cell selected: --codecs cpu with --device gpu selects no codec; pass "
            "--allow-empty to run nothing on purpose"},
           {small + "--benchmark_filter=nomatch",
            "gcbench: no cell selected: --benchmark_filter=nomatch matches none of the 6 cells; "
            "pass --allow-empty to run nothing on purpose"},
           {small + "--benchmark_repetitions=-3",
            "gcbench: --benchmark_repetitions=-3: the number of repetitions must be at least 1"},
           {small + "--benchmark_repetitions=0",
            "gcbench: --benchmark_repetitions=0 runs no cell: give at least 1; pass "
            "--allow-empty to run nothing on purpose"},
           {"--no-progress --corpus synthetic:runs:0 --codecs rle --device cpu",
            "gcbench: synthetic corpus 'synthetic:runs:0': the size must be at least 1 byte (an "
            "empty input measures nothing)"}}) {
    EXPECT_EQ(last_line_and_exit(args), std::make_pair(said, 2)) << args;
  }
  const auto [last, status] =
      last_line_and_exit(small + "--benchmark_filter=nomatch --allow-empty");
  EXPECT_EQ(status, 0) << last;
}
#endif

}  // namespace
}  // namespace gcbench::driver
