#include "bench/driver/choices.hpp"

#include <set>

namespace gcbench::driver {

ContextEntries make_run_time_choices(std::vector<CellSpec>& cells, std::ostream& log) {
  ContextEntries entries;
  std::set<std::string> keys, failed;
  for (CellSpec& cell : cells) {
    const CodecInfo& info = cell.codec->info();
    const std::string codec = info.name + "/" + to_string(info.device);
    try {
      const auto choice = cell.codec->run_time_choice(cell.params);
      if (!choice) continue;
      cell.label = choice->value;
      const std::string key = "auto:" + codec + "/" + choice->scope;
      const std::string value = choice->value + ": " + choice->detail;
      if (!keys.insert(key).second) continue;
      entries.emplace_back(key, value);
      log << "[gcbench] " << codec << " " << choice->scope << ": " << value << "\n";
    } catch (const std::exception& e) {
      if (failed.insert(codec + e.what()).second) log << "[gcbench] " << e.what() << "\n";
    }
  }
  return entries;
}

}  // namespace gcbench::driver
