#include "src/results/result_files.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>
#include <regex>
#include <stdexcept>

namespace gcbench::results {
namespace fs = std::filesystem;

namespace {

// Writes all of `data` to fd, then fsyncs it.
void write_all(int fd, const std::string& data, const fs::path& path) {
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail_errno("write", path);
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) fail_errno("fsync", path);
}

void fsync_dir(const fs::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;  // best effort: the file itself is synced
  ::fsync(fd);
  ::close(fd);
}

// write_file_atomically's temp name: <file>.tmp.<pid>.<sequence number>.
std::string temp_suffix(pid_t pid, unsigned sequence) {
  return ".tmp." + std::to_string(pid) + "." + std::to_string(sequence);
}

// The writer's pid in a temp file's name; nullopt for any other name.
std::optional<pid_t> temp_file_writer(const fs::path& path) {
  static const std::regex kTemp(R"(.+\.tmp\.([0-9]{1,9})\.[0-9]+)");
  std::smatch match;
  const std::string name = path.filename().string();
  if (!std::regex_match(name, match, kTemp)) return std::nullopt;
  return static_cast<pid_t>(std::stol(match[1].str()));
}

bool process_is_gone(pid_t pid) {
  return ::kill(pid, 0) != 0 && errno == ESRCH;
}

}  // namespace

[[noreturn]] void fail_errno(const std::string& what, const fs::path& path) {
  throw std::runtime_error("cannot " + what + " " + path.string() + ": " + std::strerror(errno));
}

bool is_hidden_folder(const fs::directory_entry& entry) {
  return entry.is_directory() && entry.path().filename().native().starts_with('.');
}

std::vector<fs::path> files_under(const fs::path& dir,
                                  const std::function<bool(const fs::path&)>& wanted) {
  std::vector<fs::path> files;
  for (auto it = fs::recursive_directory_iterator(dir); it != fs::end(it); ++it) {
    if (is_hidden_folder(*it)) {
      it.disable_recursion_pending();
    } else if (it->is_regular_file() && wanted(it->path())) {
      files.push_back(it->path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<fs::path> json_files_under(const fs::path& dir) {
  return files_under(dir, [](const fs::path& path) { return path.extension() == ".json"; });
}

nlohmann::json read_json_file(const fs::path& path) {
  std::ifstream in(path);
  if (!in) fail_errno("read", path);
  return nlohmann::json::parse(in, nullptr, false);
}

void write_file_atomically(const fs::path& path, const std::string& text) {
  static std::atomic<unsigned> writes{0};
  const fs::path parent = path.has_parent_path() ? path.parent_path() : fs::path(".");
  fs::create_directories(parent);
  fs::path tmp = path;
  tmp += temp_suffix(::getpid(), writes++);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail_errno("write", tmp);
  try {
    write_all(fd, text, tmp);
  } catch (...) {
    ::close(fd);
    fs::remove(tmp);
    throw;
  }
  if (::close(fd) != 0) fail_errno("close", tmp);
  fs::rename(tmp, path);
  fsync_dir(parent);
}

fs::path rename_aside(const fs::path& path, const std::string& suffix) {
  for (int n = 1;; ++n) {
    fs::path aside = path;
    aside += suffix;
    if (n > 1) aside += fmt::format("-{}", n);
    if (::renameat2(AT_FDCWD, path.c_str(), AT_FDCWD, aside.c_str(), RENAME_NOREPLACE) == 0)
      return aside;
    if (errno != EEXIST) fail_errno("rename", path);
  }
}

std::vector<fs::path> remove_dead_writers_temp_files(const fs::path& dir) {
  std::vector<fs::path> removed;
  for (const fs::path& path : files_under(dir, [](const fs::path& p) {
         const std::optional<pid_t> writer = temp_file_writer(p);
         return writer && *writer != ::getpid() && process_is_gone(*writer);
       })) {
    std::error_code ignored;  // gone already: as good
    if (fs::remove(path, ignored)) removed.push_back(path);
  }
  return removed;
}

void write_json_file(const fs::path& path, const nlohmann::json& doc) {
  write_file_atomically(path, doc.dump(2) + "\n");
}

}  // namespace gcbench::results
