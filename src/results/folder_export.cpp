#include "src/results/folder_export.hpp"

#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "src/results/result_document.hpp"
#include "src/results/result_files.hpp"

namespace gcbench::results {
namespace fs = std::filesystem;
using json = nlohmann::json;

bool is_folder_export(const json& doc) {
  if (!doc.is_object() || !doc.contains("context") || !doc["context"].is_object()) return false;
  const json& context = doc["context"];
  return context.contains(kExportKey) ||
         (context.contains("merged_from") && context.contains("merged_context_differs"));
}

json export_folder(const fs::path& dir) {
  const std::vector<fs::path> files = json_files_under(dir);
  if (files.empty()) throw std::runtime_error("no result files (*.json) under " + dir.string());
  json benchmarks = json::array();
  std::optional<json> common;  // the context entries of every file so far, where they agree
  std::set<std::string> differs;
  std::size_t exported = 0;
  for (const fs::path& path : files) {
    const json doc = read_json_file(path);
    if (const std::optional<DocumentFault> fault = fault_of(doc))
      throw std::runtime_error(path.string() + " is " + std::string(describe(*fault)));
    if (is_folder_export(doc)) continue;
    ++exported;
    for (const json& b : doc["benchmarks"]) benchmarks.push_back(b);
    const json context = doc.value("context", json::object());
    if (!common) {
      common = context;
      continue;
    }
    for (const auto& [key, value] : context.items()) {
      if (!common->contains(key)) differs.insert(key);
    }
    for (auto it = common->begin(); it != common->end();) {
      if (context.contains(it.key()) && context[it.key()] == *it) {
        ++it;
      } else {
        differs.insert(it.key());
        it = common->erase(it);
      }
    }
  }
  if (!common) throw std::runtime_error("no result files under " + dir.string());
  json context = *common;
  context["merged_from"] = std::to_string(exported) + " result files under " + dir.string();
  std::string keys;
  for (const std::string& key : differs) keys += (keys.empty() ? "" : ",") + key;
  context["merged_context_differs"] = keys;
  context[kExportKey] =
      "every result file under " + dir.string() + " in one file; readers of the folder skip it";
  return json{{"context", context}, {"benchmarks", benchmarks}};
}

}  // namespace gcbench::results
