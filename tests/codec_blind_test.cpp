// The engines (the driver, the result files, the report, the core) and the suite script must not
// know any codec by name: what is particular to a codec is declared by the codec (issue 44) or
// by a study. Counts every name of a registered codec inside a quoted string of their sources,
// as the string or a word of it ("gzip", "codec:gzip/cpu", "GPU vs CPU vs gzip"), taken from the
// registry so that a new codec is covered without editing this test; in shell scripts, every
// name as a word (a codec list is unquoted there). None may name one: the main job's and CI's
// sweeps are the study's data (studies/main_job.runs).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "gcbench/registry.hpp"

namespace gcbench {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Occurrences of any of `names` as a word of `text`: a codec name between characters that no
// name holds (letters, digits, '_' and '-' are name characters).
int count_words(const std::string& text, const std::set<std::string>& names) {
  static const std::regex kWord(R"re([a-z0-9_-]+)re");
  int count = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kWord);
       it != std::sregex_iterator(); ++it) {
    count += names.count((*it)[0].str()) ? 1 : 0;
  }
  return count;
}

// `source` without its comments, where examples may name codecs: whole comment lines (// or #)
// and, in a shell script, a # after a blank and the rest of its line.
std::string without_comments(const std::string& source, bool shell) {
  std::istringstream in(source);
  std::string out;
  for (std::string line; std::getline(in, line);) {
    std::size_t cut = std::string::npos;
    const auto first = line.find_first_not_of(" \t");
    if (first != std::string::npos && (line.compare(first, 2, "//") == 0 || line[first] == '#')) {
      cut = first;
    } else if (shell) {
      cut = std::min(line.find(" #"), line.find("\t#"));
    }
    out += line.substr(0, cut) + "\n";
  }
  return out;
}

// Names inside the quoted strings of C++ or Python source: "..." or '...' on one line, each
// string's words counted.
int count_quoted(const std::string& text, const std::set<std::string>& names) {
  static const std::regex kQuoted(R"re("([^"\\\n]|\\.)*"|'([^'\\\n]|\\.)*')re");
  int count = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kQuoted);
       it != std::sregex_iterator(); ++it) {
    count += count_words(it->str(), names);
  }
  return count;
}

TEST(CodecBlind, TheEnginesAndTheSuiteNameNoCodec) {
  std::set<std::string> names;
  for (const CodecPtr& codec : registry()) names.insert(codec->info().name);
  ASSERT_GT(names.size(), 3u);
  const fs::path root = GCBENCH_SOURCE_DIR;
  const auto check = [&](const fs::path& path, int count) {
    EXPECT_EQ(count, 0) << path.lexically_relative(root).string() << " names a codec " << count
                        << " times";
  };
  for (const char* engine : {"bench/driver", "src", "reports", "include", "corpora"}) {
    for (const auto& entry : fs::recursive_directory_iterator(root / engine)) {
      const std::string ext = entry.path().extension().string();
      if (!entry.is_regular_file()) continue;
      if (std::set<std::string>{".cpp", ".hpp", ".cu", ".cuh", ".py"}.count(ext)) {
        check(entry.path(), count_quoted(without_comments(read(entry.path()), false), names));
      } else if (ext == ".sh") {
        check(entry.path(), count_words(without_comments(read(entry.path()), true), names));
      }
    }
  }
  check(root / "bench" / "run_suite.sh",
        count_words(without_comments(read(root / "bench" / "run_suite.sh"), true), names));
}

}  // namespace
}  // namespace gcbench
