#include "bench/driver/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

namespace gcbench::driver {

MappedFile::MappedFile(const std::filesystem::path& path, std::uint64_t expected_size)
    : path_(path), size_(expected_size) {
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) {
    throw std::runtime_error(
        fmt::format("{} cannot be read any more ({}): it vanished since the "
                    "run began",
                    path.string(), std::strerror(errno)));
  }
  struct stat st {};
  if (::fstat(fd_, &st) != 0 || static_cast<std::uint64_t>(st.st_size) != size_) {
    const std::string now = fmt::format("{} bytes now", st.st_size);
    ::close(fd_);
    throw std::runtime_error(fmt::format("{} changed since the run began ({} bytes then, {})",
                                         path.string(), size_, now));
  }
  modified_ = st.st_mtim;
  status_changed_ = st.st_ctim;
  if (size_ == 0) return;
  base_ = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd_, 0);
  if (base_ == MAP_FAILED) {
    const int error = errno;
    base_ = nullptr;
    ::close(fd_);
    throw std::runtime_error(
        fmt::format("{} cannot be mapped ({})", path.string(), std::strerror(error)));
  }
  // Read ahead, and drop pages behind: a cell reads its input front to back.
  ::madvise(base_, size_, MADV_SEQUENTIAL);
}

MappedFile::~MappedFile() {
  if (base_ != nullptr) ::munmap(base_, size_);
  if (fd_ >= 0) ::close(fd_);
}

ByteSpan MappedFile::bytes() const {
  return {static_cast<const std::uint8_t*>(base_), static_cast<std::size_t>(size_)};
}

std::optional<std::string> MappedFile::changed() const {
  struct stat st {};
  if (::fstat(fd_, &st) != 0) {
    return fmt::format("{} cannot be read any more ({})", path_.string(), std::strerror(errno));
  }
  if (static_cast<std::uint64_t>(st.st_size) < size_) {
    return fmt::format("{} was truncated since the run began ({} bytes then, {} now)",
                       path_.string(), size_, st.st_size);
  }
  const auto same = [](const timespec& a, const timespec& b) {
    return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
  };
  if (static_cast<std::uint64_t>(st.st_size) != size_ || !same(st.st_mtim, modified_) ||
      !same(st.st_ctim, status_changed_)) {
    return fmt::format(
        "{} was written while it was measured (its size or modification time changed); rerun "
        "to measure it as it is now",
        path_.string());
  }
  return std::nullopt;
}

}  // namespace gcbench::driver
