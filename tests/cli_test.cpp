// The tools' command-line style (src/cli/command_line.hpp): both value spellings, the last of a
// repeated flag, lists, switches, and one-line errors naming the flag.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "src/cli/command_line.hpp"
#include "src/cli/suggest.hpp"

namespace gcbench::cli {
namespace {

struct Flags {
  std::vector<std::string> items{"default"};
  std::string mode = "fast";
  bool quiet = false;
  std::string name;
};

std::unique_ptr<CLI::App> parser(Flags& f) {
  auto app = make_app("tool", "usage: tool [flags]", "what the tool does");
  add_list(*app, "--items", f.items, "items");
  add_choice(*app, "--mode", f.mode, {"fast", "slow"}, "mode");
  add_switch(*app, "--quiet", f.quiet, true, "quiet");
  add_value(
      *app, "--name", "NAME",
      [&f](const std::string& v) {
        if (v == "bad") throw std::invalid_argument("not a good name");
        f.name = v;
      },
      "name");
  return app;
}

std::string error_of(const std::vector<std::string>& args) {
  Flags f;
  try {
    parse(*parser(f), args);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

TEST(CommandLine, BothSpellingsListsSwitchesAndTheLastRepeatWins) {
  Flags f;
  parse(*parser(f), {"--items=a,b", "--mode", "slow", "--quiet", "--name", "x", "--name=y"});
  EXPECT_EQ(f.items, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(f.mode, "slow");
  EXPECT_TRUE(f.quiet);
  EXPECT_EQ(f.name, "y");
  Flags defaults;
  parse(*parser(defaults), {});
  EXPECT_EQ(defaults.items, std::vector<std::string>{"default"});
  EXPECT_FALSE(defaults.quiet);
}

TEST(CommandLine, ErrorsNameTheFlagAndWhatItAllows) {
  EXPECT_EQ(error_of({"--mode", "medium"}), "--mode: medium not in {fast,slow} (see --help)");
  EXPECT_EQ(error_of({"--items", "a,,b"}), "--items: empty item in 'a,,b' (see --help)");
  EXPECT_EQ(error_of({"--name=bad"}), "--name: not a good name (see --help)");
  EXPECT_EQ(error_of({"--items"}), "--items needs a value (see --help)");
  EXPECT_EQ(error_of({"--quiet=no"}), "--quiet takes no value (see --help)");
  EXPECT_EQ(error_of({"--items=a", "--frob", "1", "stray"}),
            "unknown flag or stray argument: --frob 1 stray (see --help)");
  EXPECT_EQ(error_of({"--itmes=a"}),
            "unknown flag or stray argument: --itmes=a (did you mean --items?) (see --help)");
  EXPECT_EQ(error_of({"--nmae", "x", "--quite"}),
            "unknown flag or stray argument: --nmae x --quite (--nmae: did you mean --name?) "
            "(--quite: did you mean --quiet?) (see --help)");
  EXPECT_EQ(error_of({"--mode", "slwo"}),
            "--mode: slwo not in {fast,slow} (did you mean slow?) (see --help)");
  EXPECT_THROW(split_list(","), std::invalid_argument);
  EXPECT_EQ(split_list("one"), std::vector<std::string>{"one"});
}

TEST(CommandLine, HelpLeadsWithTheUsageLinesAndExitStatusesAreTheTools) {
  Flags f;
  const auto app = parser(f);
  const std::string help = app->help();
  EXPECT_EQ(help.rfind("usage: tool [flags]\nwhat the tool does", 0), 0u) << help;
  EXPECT_NE(help.find("--mode fast|slow"), std::string::npos) << help;
  EXPECT_NE(help.find("--items LIST"), std::string::npos) << help;
  std::vector<std::string> words = {"tool", "--mode", "medium"};
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  testing::internal::CaptureStderr();
  EXPECT_EQ(parse_or_exit(*app, 3, argv.data(), 7), 7);
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "tool: --mode: medium not in {fast,slow} (see tool --help)\n");
  words = {"tool", "--help"};
  argv = {words[0].data(), words[1].data()};
  testing::internal::CaptureStdout();
  EXPECT_EQ(parse_or_exit(*parser(f), 2, argv.data(), 7), 0);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), help);
}

TEST(Suggest, EditDistanceCountsSwapsAsOneAndIgnoresCase) {
  EXPECT_EQ(edit_distance("", ""), 0u);
  EXPECT_EQ(edit_distance("abc", ""), 3u);
  EXPECT_EQ(edit_distance("corpus", "corpu"), 1u);
  EXPECT_EQ(edit_distance("fliter", "filter"), 1u);  // a swap, not two substitutions
  EXPECT_EQ(edit_distance("Canterbury", "canterbury"), 0u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("ca", "abc"), 3u);  // the optimal-alignment form: no edit of a swap
}

TEST(Suggest, TheClosestNamesOnlyAndNoneWhenNothingIsClose) {
  const std::vector<std::string> codecs = {"fl", "rle", "lz77", "zlib", "gzip", "zstd", "lz4"};
  EXPECT_EQ(closest_names("zlb", codecs), std::vector<std::string>{"zlib"});
  EXPECT_EQ(closest_names("lz7", codecs), (std::vector<std::string>{"lz77", "lz4"}));
  EXPECT_EQ(closest_names("ZLIB", codecs), std::vector<std::string>{"zlib"});  // case alone
  EXPECT_EQ(closest_names("brotli", codecs), std::vector<std::string>{});
  EXPECT_EQ(closest_names("zlib", codecs), std::vector<std::string>{});  // no other is meant
  EXPECT_EQ(closest_names("lz4", codecs), std::vector<std::string>{});   // though lz77 is near
  const std::vector<std::string> flags = {"--corpus", "--codecs", "--cold-l2", "--files"};
  EXPECT_EQ(closest_names("--corp", flags), std::vector<std::string>{"--corpus"});  // a prefix
  EXPECT_EQ(closest_names("--fils", flags), std::vector<std::string>{"--files"});
  EXPECT_EQ(did_you_mean("--corpu", flags), " (did you mean --corpus?)");
  EXPECT_EQ(did_you_mean("lz7", codecs), " (did you mean lz77 or lz4?)");
  EXPECT_EQ(did_you_mean("xyz", codecs), "");
}

}  // namespace
}  // namespace gcbench::cli
