#include "bench/driver/benchmark_out.hpp"

#include <nlohmann/json.hpp>

#include <cstring>
#include <stdexcept>
#include <string>

#include "bench/driver/export_rows.hpp"
#include "reports/results.hpp"
#include "src/results/folder_export.hpp"
#include "src/results/result_files.hpp"

namespace gcbench::driver {
namespace fs = std::filesystem;

namespace {

ExportFormat format_named(const std::string& name) {
  if (name == "json") return ExportFormat::json;
  if (name == "csv") return ExportFormat::csv;
  if (name == "jsonl") return ExportFormat::jsonl;
  throw std::invalid_argument("--benchmark_out_format=" + name +
                              ": the export of a results folder is json, csv or jsonl");
}

}  // namespace

std::optional<ExportTarget> take_benchmark_out(std::vector<char*>& args) {
  std::optional<fs::path> file;
  std::optional<std::string> format;
  std::erase_if(args, [&](const char* arg) {
    const std::string text = arg;
    if (text.starts_with("--benchmark_out=")) {
      file = text.substr(std::strlen("--benchmark_out="));
      return true;
    }
    if (text.starts_with("--benchmark_out_format=")) {
      format = text.substr(std::strlen("--benchmark_out_format="));
      return true;
    }
    return false;
  });
  const ExportFormat chosen = format ? format_named(*format) : ExportFormat::json;
  if (format && (!file || file->empty()))
    throw std::invalid_argument("--benchmark_out_format needs --benchmark_out=FILE");
  if (!file) return std::nullopt;
  if (file->empty()) throw std::invalid_argument("--benchmark_out needs a file name");
  if (format) return ExportTarget{*file, chosen};
  const fs::path extension = file->extension();
  return ExportTarget{*file, extension == ".csv"     ? ExportFormat::csv
                             : extension == ".jsonl" ? ExportFormat::jsonl
                                                     : ExportFormat::json};
}

void write_export(const fs::path& dir, const ExportTarget& target, std::ostream& log) {
  if (target.format == ExportFormat::json) {
    const nlohmann::json exported = results::export_folder(dir);
    results::write_json_file(target.file, exported);
    log << "[gcbench] " << exported["benchmarks"].size() << " result entries recorded under "
        << dir.string() << " written to " << target.file.string() << "\n";
    return;
  }
  const std::vector<nlohmann::ordered_json> rows = cell_rows(reports::load_results({dir}));
  results::write_file_atomically(
      target.file, target.format == ExportFormat::csv ? rows_csv(rows) : rows_jsonl(rows));
  log << "[gcbench] " << rows.size() << " cells recorded under " << dir.string() << " written to "
      << target.file.string() << ", one row each\n";
}

}  // namespace gcbench::driver
