#pragma once
// A results folder exported as one Google Benchmark JSON file (gcbench --export DIR, and
// --out-dir with --benchmark_out=FILE), for tools that read one file, such as Google
// Benchmark's compare.py. The export may lie inside the folder it exports: every reader of a
// folder (the recorder, the report tool, the shard merge, the next export) recognizes it by
// its content and skips it, so that no cell is counted twice.
#include <filesystem>

#include <nlohmann/json.hpp>

namespace gcbench::results {

// The context key that marks an export; its value says what the file is.
inline constexpr const char* kExportKey = "gcbench_export";

// Whether `doc` is an export: its context has kExportKey, or (exports written before the key)
// both "merged_from" and "merged_context_differs". A shard merge's files have "merged_from"
// alone: they are results.
bool is_folder_export(const nlohmann::json& doc);

// Every result file (*.json) under `dir`, recursively, but exports, as one Google Benchmark
// JSON document: all their entries, in file order, and the context entries all files agree
// on; the keys they disagree on are named in "merged_context_differs", the file count in
// "merged_from". Throws std::runtime_error for a file that is not a Google Benchmark JSON
// document, and when `dir` holds no result file.
nlohmann::json export_folder(const std::filesystem::path& dir);

}  // namespace gcbench::results
