#pragma once
// Google Benchmark's output flags for a run that records into an --out-dir: they would write
// this run's cells alone (and a second driver call of a suite would truncate the first's
// file), so the driver takes them out of the arguments before Google Benchmark sees them and
// writes the directory's export instead: every cell recorded under the directory, by this run
// and earlier ones, as one Google Benchmark JSON (src/results/folder_export.hpp) or one row per
// cell (export_rows.hpp).
#include <filesystem>
#include <optional>
#include <ostream>
#include <vector>

namespace gcbench::driver {

enum class ExportFormat {
  json,   // Google Benchmark's JSON, every entry (compare.py reads it)
  csv,    // one row per cell, a header first
  jsonl,  // one row per cell, a JSON object per line
};

struct ExportTarget {
  std::filesystem::path file;
  ExportFormat format = ExportFormat::json;
  bool operator==(const ExportTarget&) const = default;
};

// Removes --benchmark_out=FILE and --benchmark_out_format=FORMAT (Google Benchmark reads only
// the '=' form) from `args` and returns them. Without a format, FILE's extension says (.csv,
// .jsonl; json otherwise). Throws std::invalid_argument for a format other than json, csv and
// jsonl, and for a format without a file.
std::optional<ExportTarget> take_benchmark_out(std::vector<char*>& args);

// Writes every cell recorded under `dir` to `target` and says so on `log`.
void write_export(const std::filesystem::path& dir, const ExportTarget& target, std::ostream& log);

}  // namespace gcbench::driver
