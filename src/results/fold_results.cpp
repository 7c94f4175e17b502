#include "src/results/fold_results.hpp"

#include <nlohmann/json.hpp>

#include <set>
#include <string>

#include "src/results/cell_name.hpp"
#include "src/results/result_document.hpp"
#include "src/results/result_files.hpp"

namespace gcbench::results {
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

std::string cell_key(const json& entry) {
  const std::optional<CellId> id = cell_of(entry);
  return id ? format_cell_name(*id) : entry.value("name", "");
}

}  // namespace

std::size_t fold_results(const fs::path& from, const fs::path& into) {
  if (!fs::is_directory(from)) return 0;
  std::set<std::string> moved;
  for (const fs::path& path : json_files_under(from)) {
    const json doc = read_json_file(path);
    if (!doc.contains("benchmarks") || !doc["benchmarks"].is_array()) continue;
    const fs::path target = into / path.lexically_relative(from);
    json merged = fs::exists(target) ? read_json_file(target)
                                     : json{{"context", doc.value("context", json::object())},
                                            {"benchmarks", json::array()}};
    std::set<std::string> cells;
    for (const json& b : doc["benchmarks"]) cells.insert(cell_key(b));
    json kept = json::array();
    for (const json& b : merged["benchmarks"]) {
      if (cells.count(cell_key(b)) == 0) kept.push_back(b);
    }
    for (const json& b : doc["benchmarks"]) kept.push_back(b);
    merged["benchmarks"] = std::move(kept);
    fs::create_directories(target.parent_path());
    write_json_file(target, merged);
    moved.insert(cells.begin(), cells.end());
  }
  fs::remove_all(from);
  return moved.size();
}

}  // namespace gcbench::results
