#include "bench/driver/recorder.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "bench/driver/cell_name.hpp"

namespace gcbench::driver {
namespace fs = std::filesystem;
using json = nlohmann::json;

json runs_to_json(const benchmark::BenchmarkReporter::Context& context,
                  const std::vector<benchmark::BenchmarkReporter::Run>& runs) {
  // Reusing JSONReporter keeps the files byte-for-byte in Google Benchmark's format, which
  // tools such as its compare.py read unchanged.
  std::ostringstream out;
  std::ostringstream err;
  benchmark::JSONReporter reporter;
  reporter.SetOutputStream(&out);
  reporter.SetErrorStream(&err);
  reporter.ReportContext(context);
  reporter.ReportRuns(runs);
  reporter.Finalize();
  return json::parse(out.str());
}

Recorder::Recorder(fs::path dir) : dir_(std::move(dir)) {
  fs::create_directories(dir_);
  for (const auto& entry : fs::recursive_directory_iterator(dir_)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path());
    json doc = json::parse(in, nullptr, false);
    if (doc.is_discarded() || !doc.contains("benchmarks")) {
      throw std::runtime_error(entry.path().string() + " is not a Google Benchmark JSON file");
    }
    json kept = json::array();
    for (const json& b : doc["benchmarks"]) {
      if (b.value("error_occurred", false)) continue;
      kept.push_back(b);
      if (auto id = parse_cell_name(b.value("run_name", "")))
        recorded_.insert(format_cell_name(*id));
    }
    benchmarks_[entry.path()] = std::move(kept);
  }
}

fs::path Recorder::file_for(const std::string& cell_name) const {
  std::optional<CellId> id = parse_cell_name(cell_name);
  if (!id) throw std::invalid_argument("not a gcbench cell name: " + cell_name);
  return dir_ / id->corpus / (id->file + ".json");
}

void Recorder::record(const benchmark::BenchmarkReporter::Context& context,
                      const std::vector<benchmark::BenchmarkReporter::Run>& runs) {
  std::map<fs::path, std::vector<benchmark::BenchmarkReporter::Run>> by_file;
  for (const auto& run : runs) by_file[file_for(run.run_name.function_name)].push_back(run);
  for (const auto& [path, file_runs] : by_file) {
    json doc = runs_to_json(context, file_runs);
    json& all = benchmarks_[path];
    if (all.is_null()) all = json::array();
    for (json& b : doc["benchmarks"]) all.push_back(std::move(b));
    doc["benchmarks"] = all;
    contexts_[path] = doc["context"];
    write(path, doc);
  }
}

void Recorder::add_context(const std::vector<std::pair<std::string, std::string>>& entries) {
  for (auto& [path, context] : contexts_) {
    for (const auto& [key, value] : entries) context[key] = value;
    write(path, json{{"context", context}, {"benchmarks", benchmarks_.at(path)}});
  }
}

void Recorder::write(const fs::path& path, const json& doc) const {
  fs::create_directories(path.parent_path());
  fs::path tmp = path;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << doc.dump(2) << "\n";
    if (!out) throw std::runtime_error("cannot write " + tmp.string());
  }
  fs::rename(tmp, path);  // atomic: a kill leaves the previous complete file
}

}  // namespace gcbench::driver
