#include "reports/table_pick.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <set>
#include <sstream>

namespace gcbench::reports {
namespace fs = std::filesystem;

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// Whether the table file's first line, "## <title>", begins with "<name>:".
bool numbered(const std::string& text, const std::string& name) {
  const std::string first = text.substr(0, text.find('\n'));
  return lower(first).starts_with("## " + lower(name) + ":");
}

}  // namespace

PickedTables pick_tables(const fs::path& report_dir, const std::string& name) {
  PickedTables picked;
  std::set<std::string> ids;
  std::vector<fs::path> corpora;
  if (fs::is_directory(report_dir)) {
    for (const fs::directory_entry& e : fs::directory_iterator(report_dir)) {
      if (e.is_directory()) corpora.push_back(e.path());
    }
  }
  std::sort(corpora.begin(), corpora.end());
  for (const fs::path& corpus : corpora) {
    std::vector<fs::path> tables;
    for (const fs::directory_entry& e : fs::directory_iterator(corpus)) {
      if (e.is_regular_file() && e.path().extension() == ".md") tables.push_back(e.path());
    }
    std::sort(tables.begin(), tables.end());
    for (const fs::path& table : tables) {
      const std::string id = table.stem().string();
      ids.insert(id);
      std::ifstream in(table);
      std::stringstream text;
      text << in.rdbuf();
      if (lower(id) != lower(name) && !numbered(text.str(), name)) continue;
      picked.markdown += "# " + corpus.filename().string() + "\n\n" + text.str() + "\n";
    }
  }
  if (picked.markdown.empty()) picked.names.assign(ids.begin(), ids.end());
  return picked;
}

}  // namespace gcbench::reports
