#pragma once
// A file's bytes mapped read-only (MAP_PRIVATE, read ahead sequentially) instead of read: an input
// larger than host memory is paged in as it is read and dropped under pressure, never copied whole.
// Reading past the end of a file truncated since it was mapped raises SIGBUS (a file renamed over
// or deleted keeps its mapped bytes), and a file written in place changes the mapped bytes, so
// changed() compares the open file's size, modification and change times with those it had
// when mapped; the workspace asks before and after each cell, and a cell during which its
// input changed fails (a truncation during a cell may fault first: README, Your data).
#include <sys/stat.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "gcbench/bytes.hpp"

namespace gcbench::driver {

class MappedFile {
 public:
  // The whole file, which must be `expected_size` bytes (the size the run found);
  // std::runtime_error, saying why, when it is not or cannot be opened or mapped.
  MappedFile(const std::filesystem::path& path, std::uint64_t expected_size);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  ByteSpan bytes() const;
  const std::filesystem::path& path() const { return path_; }
  // nullopt while the file is as it was mapped (size, modification and change times); else
  // how it changed: truncated (a read would fault) or written.
  std::optional<std::string> changed() const;

 private:
  std::filesystem::path path_;
  int fd_ = -1;
  void* base_ = nullptr;  // null for an empty file (nothing to map)
  std::uint64_t size_ = 0;
  struct timespec modified_ {
  }, status_changed_{};
};

}  // namespace gcbench::driver
