#pragma once
// A file's bytes mapped read-only (mmap PROT_READ, MAP_PRIVATE, read ahead sequentially)
// instead of read into memory: an input larger than host memory is paged in from the file as
// it is read and dropped by the kernel under pressure, never copied whole.
//
// The danger of a mapping is SIGBUS: reading a page past the end of a file truncated since it
// was mapped kills the process. A file replaced (renamed over) or deleted keeps its mapped
// bytes (the mapping holds the old file), so only truncation matters: truncated() re-reads the
// size of the open file, and the workspace checks it before each cell uses the input
// (Workspace::input). A file truncated while a cell is reading it is not caught (README: Your
// data).
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
  // nullopt while the file still holds every mapped byte; else why reading it would fault.
  std::optional<std::string> truncated() const;

 private:
  std::filesystem::path path_;
  int fd_ = -1;
  void* base_ = nullptr;  // null for an empty file (nothing to map)
  std::uint64_t size_ = 0;
};

}  // namespace gcbench::driver
