#pragma once
// Google Benchmark's output flags for a run that records into an --out-dir: they would write
// this run's cells alone (and a second driver call of a suite would truncate the first's
// file), so the driver takes them out of the arguments before Google Benchmark sees them and
// writes one merged file instead: every cell recorded under the directory, by this run and
// earlier ones, in Google Benchmark's JSON format.
#include <filesystem>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

namespace gcbench::driver {

// Removes --benchmark_out=FILE and --benchmark_out_format=FORMAT (Google Benchmark reads only
// the '=' form) from `args` and returns FILE. Throws std::invalid_argument for a format other
// than json (the merged result is JSON only: gcbench-report writes the CSV tables), and for a
// format without a file.
std::optional<std::filesystem::path> take_benchmark_out(std::vector<char*>& args);

// Whether `doc` is a merged result (its context has "merged_from"): the recorder and the next
// merge skip it, so that a merged file written inside a results directory is never read as
// one more result file.
bool is_merged_result(const nlohmann::json& doc);

// Every result file (*.json) under `dir`, recursively, but merged ones, as one Google
// Benchmark JSON document: all their entries, in file order, and the context entries all files
// agree on; the keys they disagree on are named in "merged_context_differs", the file count in
// "merged_from". Throws std::runtime_error for a file that is not a Google Benchmark JSON document.
nlohmann::json merge_results(const std::filesystem::path& dir);

// Writes `doc` to `file` (atomically: a temp file renamed over it).
void write_json(const std::filesystem::path& file, const nlohmann::json& doc);

}  // namespace gcbench::driver
