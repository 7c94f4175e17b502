#pragma once
// Google Benchmark's output flags for a run that records into an --out-dir: they would write
// this run's cells alone (and a second driver call of a suite would truncate the first's
// file), so the driver takes them out of the arguments before Google Benchmark sees them and
// writes the directory's export instead (src/results/folder_export.hpp): every cell recorded under
// the directory, by this run and earlier ones, in Google Benchmark's JSON format.
#include <filesystem>
#include <optional>
#include <ostream>
#include <vector>

namespace gcbench::driver {

// Removes --benchmark_out=FILE and --benchmark_out_format=FORMAT (Google Benchmark reads only
// the '=' form) from `args` and returns FILE. Throws std::invalid_argument for a format other
// than json (the export is JSON only: gcbench-report writes the CSV tables), and for a format
// without a file.
std::optional<std::filesystem::path> take_benchmark_out(std::vector<char*>& args);

// Writes every cell recorded under `dir` to `file` as one Google Benchmark JSON (the export),
// and says so on `log`.
void write_export(const std::filesystem::path& dir, const std::filesystem::path& file,
                  std::ostream& log);

}  // namespace gcbench::driver
