#pragma once
// Reading gcbench result files (Google Benchmark JSON) into one measurement per cell.
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "src/results/cell_name.hpp"
#include "src/results/counters.hpp"
#include "src/results/result_document.hpp"

namespace gcbench::reports {

struct Measurement {
  results::CellId id;
  std::optional<std::string> error;  // the cell failed: no numbers
  double time_s = 0;                 // median time per call (GPU: kernel time)
  std::vector<double> times_s;       // per repetition; empty when the file has aggregates only
  std::vector<double> e2e_times_s;   // GPU cells: e2e_s per repetition, where the rows record it
  // Its rows hold one e2e_s figure, copied: gcbench before each repetition timed its own
  // end-to-end runs measured them once a cell. One measurement, not a sample per repetition:
  // e2e_times_s is left empty.
  bool e2e_measured_once = false;
  double cv = 0;                     // spread: stddev / mean over repetitions (0 if one)
  std::size_t repetitions = 0;
  std::map<std::string, double> counters;  // medians over repetitions
  // A CPU cell's median over repetitions of cpu_time / real_time: the share of its wall time
  // that its timing thread was on a CPU (near 1 on a machine that gives it its cores; lower
  // when other work takes them). None for GPU cells, whose real time is the kernel's.
  std::optional<double> on_cpu = std::nullopt;
  std::optional<results::GpuRecord> gpu;  // the GPU cell's GPU, where its entry records one
  std::string input_sha256;  // its provenance's digest of the input ("" where none was recorded)
  std::string source;        // the result file it was read from ("" for a document given alone)
  double counter(const std::string& name, double fallback = -1) const;
  // How sure the time is: its spread over repetitions (cv) when it was repeated, else the
  // relative standard error of its samples' mean (the counter error_pct, gcbench's stopping
  // rule); none for a single measurement of one sample.
  std::optional<double> uncertainty() const;
  // The mean's error stayed above the cell's target (the rule's cap stopped it).
  bool over_error_target() const;
  // A GPU cell flagged throttled by its SM clock (the counter throttled).
  bool throttled() const { return counter(results::counter::kThrottled, 0) > 0; }
  // A CPU cell measured while its machine was busy: the driver's counter busy (its timing
  // thread on a CPU less than results::kBusyBelow of its wall time; not judged for a codec that
  // runs another program).
  bool busy() const;
  // Left out on purpose rather than failed: its error begins with results::kSkippedReasonPrefix
  // (a GPU cell whose buffers do not fit in device memory).
  bool skipped() const { return error && results::is_skipped_reason(*error); }
  // Its id as the codec's defaults see it: a typed input's cells at the input's own width (the
  // counter results::counter::kInputElementWidth) lose that axis, so they are the input's default
  // cells.
  results::CellId as_defaults_see_it() const;
};

struct ResultSet;

// What the results' context says of `key`: every value it had across the files (results of
// several builds or machines, allowed), " / " between them; "unknown" where none says.
std::string context_text(const ResultSet& set, const std::string& key);

struct ResultSet {
  std::vector<Measurement> cells;
  std::map<std::string, std::string> missing_files;  // "corpus/file" -> reason
  std::set<std::string> typed_corpora;         // corpora of typed inputs (results::kTypedCorpusKey)
  std::map<std::string, std::string> context;  // the last file's gcbench context
  // Every value each context key had across the files (e.g. two git revisions).
  std::map<std::string, std::set<std::string>> context_values;
  // "<codec>/<device>" -> axis -> default, as the measuring gcbench recorded them.
  std::map<std::string, std::map<std::string, std::string>> defaults;
  // GPU cells of files measured on several GPUs (gcbench --gpu-replicas): one measurement per
  // (cell, GPU). `cells` holds the replica on the lowest-numbered GPU of each, so that every
  // other table reads one GPU's figures.
  std::vector<Measurement> replicas;
  bool gpu_present = false;   // some result came from a machine with a usable GPU
  std::string no_gpu_detail;  // why not, from the context ("none: ...")
  // A cell found in more than one file (folders given together): each named, with which is kept.
  std::vector<std::string> duplicates;
  // Result files that are not result documents, set aside unread: file -> the fault.
  std::vector<std::pair<std::string, std::string>> damaged;

  // The files of `corpus`: measured or recorded as missing, in `order` when given (manifest
  // order), then alphabetically.
  std::vector<std::string> files_of(const std::string& corpus,
                                    const std::vector<std::string>& order = {}) const;
  std::vector<std::string> corpora() const;
};

// The GPU model that measured `m` (its gpu record's name), or "unknown GPU" when its entry
// records none (results of older gcbench versions).
std::string gpu_model_of(const Measurement& m);

// The GPU models recorded by the GPU cells of `corpus` (ResultSet::cells), sorted. Shards
// merged from machines with different GPUs give several: the report keeps their figures apart.
std::vector<std::string> gpu_models(const ResultSet& set, const std::string& corpus);

// The builds the results come from, where there are several: "git_revision a (3 files), b (1
// file)" and the same for build_type; "" when every file names one revision and build type.
std::string mixed_builds(const ResultSet& set);

// Adds one Google Benchmark JSON document, read from `source` (a file, for messages). A cell seen
// again on the same machine (a CPU cell, or a GPU cell on the same GPU model) replaces the
// earlier one unless the new one is an error and the old one is not, and both are named in
// `duplicates`; a GPU cell of another GPU model is kept beside it (tables split GPU columns
// per model); so does a replica on the same GPU. In a document with GPU replicas (its context
// has results::kGpuReplicasKey) a GPU cell's entries are summarized per GPU. Throws
// std::runtime_error for a document that is not a result document (results::fault_of).
void add_results(ResultSet& set, const nlohmann::json& doc, const std::string& source = "");

// Nothing to report: no result file at all, or only files without a gcbench cell.
struct NoResults : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Reads files, and directories recursively (*.json), where it skips exports of a folder
// (gcbench --export, src/results/folder_export.hpp): their cells are in the folder's result files.
// A file in a directory that is not a result document (damaged, results::fault_of) is set aside
// unread, as the driver does, and named in `damaged`; a file given by name that is not one, or
// that cannot be read, throws std::runtime_error. Throws NoResults when the paths hold no
// result file at all, or none with a gcbench cell or missing-input record (an empty or mistyped
// directory, or another program's Google Benchmark JSON, is not an empty report).
ResultSet load_results(const std::vector<std::filesystem::path>& paths);

}  // namespace gcbench::reports
