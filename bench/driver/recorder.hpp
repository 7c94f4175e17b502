#pragma once
// Resumable results: one Google Benchmark JSON per corpus file, <dir>/<corpus>/<file>.json,
// rewritten (atomically) after every cell, so a sweep killed midway loses no finished cell and
// a rerun skips the cells already recorded without error under its own provenance
// (provenance.hpp: revision, build type, codec version, GPU); it measures the others again.
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

#include "bench/driver/provenance.hpp"
#include "src/results/result_document.hpp"

namespace gcbench::driver {

struct RecordedCells {
  std::set<std::string> recorded;            // without error, under the provenance asked about
  std::map<std::string, std::string> stale;  // under another: cell -> what changed since
};

// Adds the cells of `entries` (a result file's "benchmarks") to `into`, as recorded under `now`
// or stale; entries of failed cells count as neither.
void classify_entries(const nlohmann::json& entries, const RunProvenance& now, RecordedCells& into);

// The cells recorded in the result files under `dir` (none when it does not exist), read without
// its lock (files are replaced whole, so a run writing there is no harm); a cell with any stale
// entry is not recorded. Unreadable and damaged files count as holding nothing.
RecordedCells read_recorded(const std::filesystem::path& dir, const RunProvenance& now);

// A file's context is that of the last run that wrote to it, corrected where the file also
// holds cells of earlier runs: "cells_from_earlier_runs" counts them, and git_revision,
// build_type, gpu_uuid and codec:<name>/<device> list every value the file's cells were
// recorded under ("<value> (<n> cells); ...") when that is not just this run's.
//
// One run per directory: the Recorder holds an exclusive flock on <dir>/.gcbench.lock for its
// lifetime (the file names the holder: pid, host, start time) and removes the file at its end;
// a run that is killed leaves it, and the next run takes it over. Files are written to a temp
// name unique to this writer, fsynced, then renamed over the result (and the directory
// fsynced); the temp files of a writer that was killed are removed by the next Recorder.
class Recorder {
 public:
  // Takes the directory's lock (created when absent), removes the temp files of killed writers
  // (said in one line on `log`), then reads the results already there. Throws
  // std::runtime_error naming the other run (pid, host, start time) when another Recorder, in
  // this process or another, holds it, and naming the file and the system error when a result
  // file cannot be read (a permission error is no damage: the file is left as it is). Entries
  // of cells that failed are dropped so that those cells run again. A damaged result file
  // (results::fault_of: not JSON, no "benchmarks" array, a field of the wrong type) is set
  // aside as FILE.damaged-<reason> (or -<reason>-2, ...: never over an earlier one), said in
  // one line on `log` with the fault, and its cells are measured again. `now`: what this run
  // records its cells under.
  Recorder(std::filesystem::path dir, RunProvenance now, std::ostream* log = nullptr);
  ~Recorder();
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  // Damaged files set aside by the constructor: {original path, new path}.
  const std::vector<std::pair<std::filesystem::path, std::filesystem::path>>& set_aside() const {
    return set_aside_;
  }

  const std::filesystem::path& dir() const { return dir_; }
  const RunProvenance& provenance() const { return now_; }

  // Cell names (format_cell_name) with a result that is not an error, recorded under `now`.
  const std::set<std::string>& recorded() const { return cells_.recorded; }
  // Cell names with a result recorded under another provenance -> what changed since.
  const std::map<std::string, std::string>& stale() const { return cells_.stale; }

  // Appends `runs` (one cell's runs or aggregates) to their file, each entry with its
  // provenance, and rewrites the file. A cell's first runs of this run replace its entries
  // of earlier runs.
  void record(const benchmark::BenchmarkReporter::Context& context,
              const std::vector<benchmark::BenchmarkReporter::Run>& runs);

  // Adds `entries` to the context of every file this run has written, and rewrites them: what
  // the run knows only at its end (its peak RSS, its harness share).
  void add_context(const std::vector<std::pair<std::string, std::string>>& entries);

  std::filesystem::path file_for(const std::string& cell_name) const;

 private:
  void write(const std::filesystem::path& path);
  nlohmann::json file_context(const std::filesystem::path& path) const;
  void lock();
  void unlock();
  void remove_temp_files(std::ostream& log) const;
  nlohmann::json read_result_file(const std::filesystem::path& path) const;
  void set_aside(const std::filesystem::path& path, const results::DocumentFault& fault,
                 std::ostream& log);

  std::filesystem::path dir_;
  RunProvenance now_;
  int lock_fd_ = -1;
  std::vector<std::pair<std::filesystem::path, std::filesystem::path>> set_aside_;
  RecordedCells cells_;
  std::set<std::string> measured_;                              // cells this run has recorded
  std::map<std::filesystem::path, nlohmann::json> benchmarks_;  // per file: kept entries
  std::map<std::filesystem::path, nlohmann::json> contexts_;    // per file written: its context
};

// Google Benchmark's own JSON for `runs`: {"context": ..., "benchmarks": [...]}, without the
// counters whose value is not a number (a cv of counters that are all 0).
nlohmann::json runs_to_json(const benchmark::BenchmarkReporter::Context& context,
                            std::vector<benchmark::BenchmarkReporter::Run> runs);

}  // namespace gcbench::driver
