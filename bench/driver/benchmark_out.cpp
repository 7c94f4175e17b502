#include "bench/driver/benchmark_out.hpp"

#include <nlohmann/json.hpp>

#include <cstring>
#include <stdexcept>
#include <string>

#include "src/results/folder_export.hpp"
#include "src/results/result_files.hpp"

namespace gcbench::driver {
namespace fs = std::filesystem;

std::optional<fs::path> take_benchmark_out(std::vector<char*>& args) {
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
  if (format && *format != "json") {
    throw std::invalid_argument("--benchmark_out_format=" + *format +
                                ": the export of a results folder is written as JSON only "
                                "(gcbench-report writes CSV tables)");
  }
  if (format && (!file || file->empty()))
    throw std::invalid_argument("--benchmark_out_format needs --benchmark_out=FILE");
  if (file && file->empty()) throw std::invalid_argument("--benchmark_out needs a file name");
  return file;
}

void write_export(const fs::path& dir, const fs::path& file, std::ostream& log) {
  const nlohmann::json exported = results::export_folder(dir);
  results::write_json_file(file, exported);
  log << "[gcbench] " << exported["benchmarks"].size() << " result entries recorded under "
      << dir.string() << " written to " << file.string() << "\n";
}

}  // namespace gcbench::driver
