#include "bench/driver/merged_output.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <set>
#include <stdexcept>
#include <string>

#include "bench/driver/result_files.hpp"

namespace gcbench::driver {
namespace fs = std::filesystem;
using json = nlohmann::json;

std::optional<fs::path> take_benchmark_out(std::vector<char*>& args) {
  std::optional<fs::path> file;
  std::optional<std::string> format;
  std::erase_if(args, [&](const char* arg) {
    const std::string text = arg;
    if (text.starts_with("--benchmark_out=")) {
      file = text.substr(std::strlen("--benchmark_out="));
      return true;
    }
    if (text.starts_with("--benchmark_out_format=")) {
      format = text.substr(std::strlen("--benchmark_out_format="));
      return true;
    }
    return false;
  });
  if (format && *format != "json") {
    throw std::invalid_argument("--benchmark_out_format=" + *format +
                                ": with --out-dir the merged result is written as JSON only "
                                "(gcbench-report writes CSV tables)");
  }
  if (format && (!file || file->empty()))
    throw std::invalid_argument("--benchmark_out_format needs --benchmark_out=FILE");
  if (file && file->empty()) throw std::invalid_argument("--benchmark_out needs a file name");
  return file;
}

bool is_merged_result(const json& doc) {
  return doc.is_object() && doc.contains("context") && doc["context"].is_object() &&
         doc["context"].contains("merged_from");
}

json merge_results(const fs::path& dir) {
  const std::vector<fs::path> files = json_files_under(dir);
  if (files.empty()) throw std::runtime_error("no result files (*.json) under " + dir.string());
  json benchmarks = json::array();
  std::optional<json> common;  // the context entries of every file so far, where they agree
  std::set<std::string> differs;
  std::size_t merged = 0;
  for (const fs::path& path : files) {
    std::ifstream in(path);
    const json doc = json::parse(in, nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("benchmarks") ||
        !doc["benchmarks"].is_array()) {
      throw std::runtime_error(path.string() + " is not a Google Benchmark JSON document");
    }
    if (is_merged_result(doc)) continue;
    ++merged;
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
  context["merged_from"] = std::to_string(merged) + " result files under " + dir.string();
  std::string keys;
  for (const std::string& key : differs) keys += (keys.empty() ? "" : ",") + key;
  context["merged_context_differs"] = keys;
  return json{{"context", context}, {"benchmarks", benchmarks}};
}

void write_json(const fs::path& file, const json& doc) {
  write_file_atomically(file, doc.dump(2) + "\n");
}

}  // namespace gcbench::driver
