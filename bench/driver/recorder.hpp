#pragma once
// Resumable results: one Google Benchmark JSON per corpus file, <dir>/<corpus>/<file>.json,
// rewritten (atomically) after every cell, so a sweep killed midway loses no finished cell and
// a rerun skips the cells already recorded without error.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace gcbench::driver {

class Recorder {
 public:
  // Reads the results already in `dir` (created when absent). Entries of cells that failed
  // are dropped so that those cells run again. Throws std::runtime_error for a file that is
  // not valid JSON (it is not overwritten).
  explicit Recorder(std::filesystem::path dir);

  // Cell names (format_cell_name) with a result that is not an error.
  const std::set<std::string>& recorded() const { return recorded_; }

  // Appends `runs` (one cell's runs or aggregates) to their file and rewrites it.
  void record(const benchmark::BenchmarkReporter::Context& context,
              const std::vector<benchmark::BenchmarkReporter::Run>& runs);

  // Adds `entries` to the context of every file this run has written, and rewrites them: what
  // the run knows only at its end (its peak RSS, its harness share).
  void add_context(const std::vector<std::pair<std::string, std::string>>& entries);

  std::filesystem::path file_for(const std::string& cell_name) const;

 private:
  void write(const std::filesystem::path& path, const nlohmann::json& doc) const;

  std::filesystem::path dir_;
  std::set<std::string> recorded_;
  std::map<std::filesystem::path, nlohmann::json> benchmarks_;  // per file: kept entries
  std::map<std::filesystem::path, nlohmann::json> contexts_;    // per file written: its context
};

// Google Benchmark's own JSON for `runs`: {"context": ..., "benchmarks": [...]}.
nlohmann::json runs_to_json(const benchmark::BenchmarkReporter::Context& context,
                            const std::vector<benchmark::BenchmarkReporter::Run>& runs);

}  // namespace gcbench::driver
