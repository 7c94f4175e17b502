#include "src/results/result_files.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
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
  if (!in) return nlohmann::json(nlohmann::json::value_t::discarded);
  return nlohmann::json::parse(in, nullptr, false);
}

void write_file_atomically(const fs::path& path, const std::string& text) {
  static std::atomic<unsigned> writes{0};
  const fs::path parent = path.has_parent_path() ? path.parent_path() : fs::path(".");
  fs::create_directories(parent);
  fs::path tmp = path;
  tmp += ".tmp." + std::to_string(::getpid()) + "." + std::to_string(writes++);
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

void write_json_file(const fs::path& path, const nlohmann::json& doc) {
  write_file_atomically(path, doc.dump(2) + "\n");
}

}  // namespace gcbench::results
