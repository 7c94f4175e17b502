#pragma once
// A result document: Google Benchmark's JSON, {"context": {...}, "benchmarks": [{...}, ...]},
// which the driver writes (one per corpus file) and the report tools read, with gcbench's
// parts in it: each entry's cell name (its run_name) and the context keys below.
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "src/results/cell_name.hpp"

namespace gcbench::results {

// "missing_file:<corpus>/<file>" -> why that corpus file was not measured.
inline constexpr std::string_view kMissingFileKey = "missing_file:";
// How the reason of a missing_file: entry begins when the file was left out on purpose (an
// entry of a user's folder that is no regular file, or a file reached twice), not lost.
inline constexpr std::string_view kSkippedReasonPrefix = "skipped: ";
// A reason so marked: "skipped: <why>"; and whether a recorded reason (or a cell's error) is
// one, a thing left out on purpose rather than lost or failed.
inline std::string skipped_reason(std::string_view why) {
  return std::string(kSkippedReasonPrefix) + std::string(why);
}
inline bool is_skipped_reason(std::string_view text) {
  return text.starts_with(kSkippedReasonPrefix);
}
// "typed_corpus:<corpus>": the corpus holds typed inputs (arrays of one element width: .npy
// files, tpch columns), the value says how many; the report gives it a column table.
inline constexpr std::string_view kTypedCorpusKey = "typed_corpus:";
// The axis of an element's width (a typed input's cells record their own: the counter
// counter::kInputElementWidth).
inline constexpr std::string_view kElementWidthAxis = "element_width";
// "defaults:<codec>/<device>" -> the codec's axis defaults, as format_params writes them.
inline constexpr std::string_view kDefaultsKey = "defaults:";

// "gpu_replicas:" in the context of a result file of gcbench --gpu-replicas: the GPUs ("0,1",
// their --gpus indices) that each measured every GPU cell. Such a file holds one set of entries
// per GPU for each GPU cell, told apart by their "gpu" record (gpu_of); cell names stay the
// same, so a cell is one cell on every GPU. Without the key, a cell has one set of entries.
inline constexpr std::string_view kGpuReplicasKey = "gpu_replicas";

// The GPU a GPU cell's entry ran on (its "gpu" record, written by the driver).
struct GpuRecord {
  int index = 0;  // gcbench --gpus's numbering (PCI bus order)
  std::string name;
  std::string pci_bus_id;
  std::string uuid;
  bool operator==(const GpuRecord&) const = default;
};

// nullopt when `entry` has no well-formed "gpu" record (CPU cells, older files).
std::optional<GpuRecord> gpu_of(const nlohmann::json& entry);

// Why a document is not a result document.
enum class FaultKind {
  not_json,       // not JSON at all
  no_benchmarks,  // no "benchmarks" array
  bad_entry,      // an entry of "benchmarks" is not an object
  bad_field,      // a field that gcbench reads holds a value of another type
  bad_value,      // a measured entry with a time or counter no measurement gives
  duplicate,      // two entries of the same cell, run and GPU
};

struct DocumentFault {
  FaultKind kind;
  // In words, naming the field where there is one: 'field "run_name" of benchmarks[0]: expected
  // a string, got a number'.
  std::string text;
  friend bool operator==(const DocumentFault&, const DocumentFault&) = default;
};

// nullopt when `doc` is a result document: an object with a "benchmarks" array of objects, its
// "context" (if any) an object, and every field of an entry that a reader of result files reads
// (run_name, error_occurred, real_time, provenance, ...) of the type Google Benchmark and
// gcbench write, so that no reader meets a value of another type; every entry of a cell
// measured without error with positive times no longer than a day, and counters that are
// finite numbers from 0 to 1e18 (or strings); and no cell's entry twice (one run_name, run_type,
// aggregate, repetition and GPU), so that no table sums or repeats what no run measured.
std::optional<DocumentFault> fault_of(const nlohmann::json& doc);

// "not-json", "no-benchmarks", "bad-entry", "bad-field", "bad-value", "duplicate": the suffix of a
// damaged file the recorder sets aside.
std::string_view fault_tag(FaultKind kind);

// The fault in words, for error messages.
inline const std::string& describe(const DocumentFault& fault) {
  return fault.text;
}

// The cell an entry measured, from its run_name (files of old Google Benchmarks: its name);
// nullopt for an entry that is not a gcbench cell.
std::optional<CellId> cell_of(const nlohmann::json& entry);

}  // namespace gcbench::results
