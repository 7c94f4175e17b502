#pragma once
// Resumable results: one Google Benchmark JSON per corpus file, <dir>/<corpus>/<file>.json,
// rewritten (atomically) after every cell, so a sweep killed midway loses no finished cell and
// a rerun skips the cells already recorded without error.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace gcbench::driver {

// One run per directory: the Recorder holds an exclusive flock on <dir>/.gcbench.lock for its
// lifetime (the file names the holder: pid, host, start time). Files are written to a temp name
// unique to this writer, fsynced, then renamed over the result (and the directory fsynced).
class Recorder {
 public:
  // Takes the directory's lock (created when absent), then reads the results already there.
  // Throws std::runtime_error naming the other run (pid, host, start time) when another
  // Recorder, in this process or another, holds it. Entries of cells that failed are dropped
  // so that those cells run again. A damaged result file (not JSON, or without a "benchmarks"
  // array) is set aside as FILE.damaged-<reason>, said in one line on `log`, and its cells are
  // measured again.
  explicit Recorder(std::filesystem::path dir, std::ostream* log = nullptr);
  ~Recorder();
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  // Damaged files set aside by the constructor: {original path, new path}.
  const std::vector<std::pair<std::filesystem::path, std::filesystem::path>>& set_aside() const {
    return set_aside_;
  }

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
  void write(const std::filesystem::path& path, const nlohmann::json& doc);
  void lock();

  std::filesystem::path dir_;
  int lock_fd_ = -1;
  std::uint64_t writes_ = 0;  // makes every temp name of this writer unique
  std::vector<std::pair<std::filesystem::path, std::filesystem::path>> set_aside_;
  std::set<std::string> recorded_;
  std::map<std::filesystem::path, nlohmann::json> benchmarks_;  // per file: kept entries
  std::map<std::filesystem::path, nlohmann::json> contexts_;    // per file written: its context
};

// Google Benchmark's own JSON for `runs`: {"context": ..., "benchmarks": [...]}.
nlohmann::json runs_to_json(const benchmark::BenchmarkReporter::Context& context,
                            const std::vector<benchmark::BenchmarkReporter::Run>& runs);

}  // namespace gcbench::driver
