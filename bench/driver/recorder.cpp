#include "bench/driver/recorder.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "src/results/cell_name.hpp"
#include "src/results/folder_export.hpp"
#include "src/results/result_document.hpp"
#include "src/results/result_files.hpp"

namespace gcbench::driver {
namespace fs = std::filesystem;
using json = nlohmann::json;

json runs_to_json(const benchmark::BenchmarkReporter::Context& context,
                  std::vector<benchmark::BenchmarkReporter::Run> runs) {
  // JSON has no NaN, yet Google Benchmark writes one for the cv of a counter whose mean is 0
  // (every warm GPU cell's cold_l2 under --benchmark_repetitions): such a counter is left out
  // of that aggregate, whose value is undefined.
  for (benchmark::BenchmarkReporter::Run& run : runs) {
    std::erase_if(run.counters, [](const auto& c) { return !std::isfinite(c.second.value); });
  }
  // Reusing JSONReporter keeps the files byte-for-byte in Google Benchmark's format, which
  // tools such as its compare.py read unchanged.
  std::ostringstream out;
  std::ostringstream err;
  benchmark::JSONReporter reporter;
  reporter.SetOutputStream(&out);
  reporter.SetErrorStream(&err);
  reporter.ReportContext(context);
  reporter.ReportRuns(runs);
  reporter.Finalize();
  return json::parse(out.str());
}

namespace {

constexpr const char* kLockName = ".gcbench.lock";

std::string host_name() {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) return "unknown host";
  return host;
}

std::string now_utc() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

// Whether `fd` is the file at `path` now (not one removed, or replaced, since it was opened).
bool is_file_at(int fd, const fs::path& path) {
  struct stat opened {
  }, named{};
  return ::fstat(fd, &opened) == 0 && ::stat(path.c_str(), &named) == 0 &&
         opened.st_dev == named.st_dev && opened.st_ino == named.st_ino;
}

}  // namespace

void Recorder::lock() {
  const fs::path path = dir_ / kLockName;
  // The holder removes the file when it is done (unlock), so the file opened here may be gone
  // by the time its lock is granted: then it guards nothing, and the one at `path` is taken.
  do {
    if (lock_fd_ >= 0) ::close(lock_fd_);
    lock_fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (lock_fd_ < 0) results::fail_errno("open the lock file", path);
    if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      std::ifstream in(path);
      std::string holder((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      while (!holder.empty() && (holder.back() == '\n' || holder.back() == ' ')) holder.pop_back();
      ::close(lock_fd_);
      lock_fd_ = -1;
      if (err != EWOULDBLOCK) {
        errno = err;
        results::fail_errno("lock", path);
      }
      throw std::runtime_error("--out-dir " + dir_.string() +
                               " is in use by another gcbench run (" +
                               (holder.empty() ? "holder unknown" : holder) + "; lock " +
                               path.string() + "): wait for it to finish or use another --out-dir");
    }
  } while (!is_file_at(lock_fd_, path));
  const std::string me =
      "pid " + std::to_string(::getpid()) + " on " + host_name() + ", started " + now_utc() + "\n";
  if (::ftruncate(lock_fd_, 0) != 0) results::fail_errno("truncate", path);
  if (::pwrite(lock_fd_, me.data(), me.size(), 0) != static_cast<ssize_t>(me.size()))
    results::fail_errno("write", path);
}

void Recorder::unlock() {
  if (lock_fd_ < 0) return;
  ::unlink((dir_ / kLockName).c_str());  // still held: no other run has it
  ::close(lock_fd_);
  lock_fd_ = -1;
}

void Recorder::remove_temp_files(std::ostream& log) const {
  const std::vector<fs::path> removed = results::remove_dead_writers_temp_files(dir_);
  if (removed.empty()) return;
  log << "[gcbench] removed " << removed.size() << " temp file" << (removed.size() == 1 ? "" : "s")
      << " left by a run killed while writing (" << removed.front().string()
      << (removed.size() == 1 ? "" : ", ...") << "): unfinished writes, no result lost\n";
}

json Recorder::read_result_file(const fs::path& path) const {
  try {
    return results::read_json_file(path);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(std::string(e.what()) +
                             "; not damage, so it stays as it is and nothing is measured: make it "
                             "readable, or move it out of " +
                             dir_.string() + ", and run again");
  }
}

void Recorder::set_aside(const fs::path& path, const results::DocumentFault& fault,
                         std::ostream& log) {
  const fs::path aside =
      results::rename_aside(path, ".damaged-" + std::string(results::fault_tag(fault.kind)));
  set_aside_.emplace_back(path, aside);
  log << "[gcbench] " << path.string() << " is damaged (" << fault.text << "): set aside as "
      << aside.filename().string() << ", its cells will be measured again\n";
}

Recorder::Recorder(fs::path dir, RunProvenance now, std::ostream* log)
    : dir_(std::move(dir)), now_(std::move(now)) {
  fs::create_directories(dir_);
  lock();
  std::ostream& out = log != nullptr ? *log : std::cerr;
  try {
    remove_temp_files(out);
    for (const fs::path& path : results::json_files_under(dir_)) {
      json doc = read_result_file(path);
      if (const std::optional<results::DocumentFault> fault = results::fault_of(doc)) {
        set_aside(path, *fault, out);
        continue;
      }
      if (results::is_folder_export(doc)) continue;  // --benchmark_out written inside it
      json kept = json::array();
      for (const json& b : doc["benchmarks"]) {
        if (!b.value("error_occurred", false)) kept.push_back(b);
      }
      classify_entries(kept, now_, cells_);
      benchmarks_[path] = std::move(kept);
    }
    // A cell with any entry recorded under another provenance is measured again, whole.
    for (const auto& [name, change] : cells_.stale) cells_.recorded.erase(name);
  } catch (...) {
    unlock();
    throw;
  }
}

Recorder::~Recorder() {
  unlock();
}

void classify_entries(const json& entries, const RunProvenance& now, RecordedCells& into) {
  for (const json& b : entries) {
    if (b.value("error_occurred", false)) continue;
    const std::optional<results::CellId> id = results::cell_of(b);
    if (!id) continue;
    const std::string name = results::format_cell_name(*id);
    const std::optional<Provenance> then = provenance_of(b);
    if (!then) {
      into.stale.emplace(name, "recorded without provenance (by an older gcbench)");
    } else if (const std::string change = describe_change(*then, now.of(*id)); !change.empty()) {
      into.stale.emplace(name, change);
    } else {
      into.recorded.insert(name);
    }
  }
}

RecordedCells read_recorded(const fs::path& dir, const RunProvenance& now) {
  RecordedCells cells;
  if (!fs::is_directory(dir)) return cells;
  for (const fs::path& path : results::json_files_under(dir)) {
    json doc;
    try {
      doc = results::read_json_file(path);
    } catch (const std::runtime_error&) {
      continue;  // unreadable: its cells count as not recorded
    }
    if (results::fault_of(doc) || results::is_folder_export(doc)) continue;
    classify_entries(doc["benchmarks"], now, cells);
  }
  for (const auto& [name, change] : cells.stale) cells.recorded.erase(name);
  return cells;
}

fs::path Recorder::file_for(const std::string& cell_name) const {
  std::optional<results::CellId> id = results::parse_cell_name(cell_name);
  if (!id) throw std::invalid_argument("not a gcbench cell name: " + cell_name);
  return dir_ / results::folder_name(id->corpus) / results::result_file_name(id->file);
}

void Recorder::record(const benchmark::BenchmarkReporter::Context& context,
                      const std::vector<benchmark::BenchmarkReporter::Run>& runs) {
  std::map<fs::path, std::vector<benchmark::BenchmarkReporter::Run>> by_file;
  for (const auto& run : runs) by_file[file_for(run.run_name.function_name)].push_back(run);
  for (const auto& [path, file_runs] : by_file) {
    json doc = runs_to_json(context, file_runs);
    json& all = benchmarks_[path];
    if (all.is_null()) all = json::array();
    // Google Benchmark reports a cell's runs and its aggregates in separate calls: only the
    // first call of a cell replaces what earlier runs recorded of it.
    std::set<std::string> first_seen;
    for (json& b : doc["benchmarks"]) {
      const results::CellId id = *results::parse_cell_name(b.at("run_name").get<std::string>());
      const std::string name = results::format_cell_name(id);
      if (measured_.insert(name).second) first_seen.insert(name);
      b["provenance"] = to_json(now_.of(id));
      if (id.device == "gpu" && now_.gpu) b["gpu"] = to_json(*now_.gpu);
    }
    all.erase(std::remove_if(all.begin(), all.end(),
                             [&](const json& b) {
                               const std::optional<results::CellId> id = results::cell_of(b);
                               return id && first_seen.count(results::format_cell_name(*id)) > 0;
                             }),
              all.end());
    for (json& b : doc["benchmarks"]) all.push_back(std::move(b));
    contexts_[path] = doc["context"];
    write(path);
  }
}

void Recorder::add_context(const std::vector<std::pair<std::string, std::string>>& entries) {
  for (auto& [path, context] : contexts_) {
    for (const auto& [key, value] : entries) context[key] = value;
    write(path);
  }
}

json Recorder::file_context(const fs::path& path) const {
  json context = contexts_.at(path);
  const json& entries = benchmarks_.at(path);
  // context key -> value recorded -> the cells recorded under it
  std::map<std::string, std::map<std::string, std::set<std::string>>> recorded_under;
  std::set<std::string> earlier;
  for (const json& b : entries) {
    const std::optional<results::CellId> id = results::cell_of(b);
    if (!id) continue;
    const std::string name = results::format_cell_name(*id);
    if (measured_.count(name) == 0) earlier.insert(name);
    const std::optional<Provenance> p = provenance_of(b);
    const auto value = [&](const std::string Provenance::*field) {
      return p ? (*p).*field : std::string("unknown");
    };
    recorded_under["git_revision"][value(&Provenance::git_revision)].insert(name);
    recorded_under["build_type"][value(&Provenance::build_type)].insert(name);
    recorded_under["codec:" + id->codec + "/" + id->device][value(&Provenance::codec_version)]
        .insert(name);
    if (id->device == "gpu") recorded_under["gpu_uuid"][value(&Provenance::gpu_uuid)].insert(name);
  }
  context["cells_from_earlier_runs"] = std::to_string(earlier.size());
  for (const auto& [key, cells_by_value] : recorded_under) {
    const auto stated = context.find(key);
    const bool as_stated = cells_by_value.size() == 1 && stated != context.end() &&
                           *stated == cells_by_value.begin()->first;
    if (as_stated) continue;
    std::string text;
    for (const auto& [value, cells] : cells_by_value) {
      text += (text.empty() ? "" : "; ") + (value.empty() ? "(none)" : value) + " (" +
              std::to_string(cells.size()) + " cells)";
    }
    context[key] = text;
  }
  return context;
}

void Recorder::write(const fs::path& path) {
  results::write_json_file(
      path, json{{"context", file_context(path)}, {"benchmarks", benchmarks_.at(path)}});
}

}  // namespace gcbench::driver
