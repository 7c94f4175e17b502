// The engines (the driver, the result files, the report, the core) must not know any codec by
// name: what is particular to a codec is declared by the codec (issue 44). Counts every quoted
// name of a registered codec in their sources, taken from the registry so that a new codec is
// covered without editing this test. The files that still name codecs are listed with their
// counts: a count may only fall (lower it here when it does), and a file not listed must name
// none.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "gcbench/registry.hpp"

namespace gcbench {
namespace {

namespace fs = std::filesystem;

// Where codec names are still written, and how often: none; a file that starts to name one
// fails here.
const std::map<std::string, int> kStillNaming = {
};

std::string read(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Quoted occurrences of any of `names` in `text`: "name" or 'name'.
int count_names(const std::string& text, const std::set<std::string>& names) {
  static const std::regex kQuoted(R"re(["']([a-z0-9_-]+)["'])re");
  int count = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kQuoted);
       it != std::sregex_iterator(); ++it) {
    count += names.count((*it)[1].str()) ? 1 : 0;
  }
  return count;
}

TEST(CodecBlind, TheEnginesNameNoCodecBeyondWhatIsLeft) {
  std::set<std::string> names;
  for (const CodecPtr& codec : registry()) names.insert(codec->info().name);
  ASSERT_GT(names.size(), 3u);
  const fs::path root = GCBENCH_SOURCE_DIR;
  int total = 0;
  for (const char* engine : {"bench/driver", "src", "reports", "include", "corpora"}) {
    for (const auto& entry : fs::recursive_directory_iterator(root / engine)) {
      const std::string ext = entry.path().extension().string();
      if (!entry.is_regular_file() ||
          !std::set<std::string>{".cpp", ".hpp", ".cu", ".cuh", ".py"}.count(ext))
        continue;
      const std::string file = entry.path().lexically_relative(root).string();
      const int count = count_names(read(entry.path()), names);
      total += count;
      const auto allowed = kStillNaming.find(file);
      EXPECT_LE(count, allowed == kStillNaming.end() ? 0 : allowed->second)
          << file << " names a codec " << count << " times";
    }
  }
  std::cout << "[   NOTE   ] codec names in the engines: " << total << "\n";
}

}  // namespace
}  // namespace gcbench
