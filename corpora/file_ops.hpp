#pragma once
// File plumbing for the fetch step: atomic writes, bzip2 decompression, running curl/tar.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gcbench::corpora {

// A uniquely named file beside `dest`; commit() renames it onto `dest` (atomic on POSIX),
// otherwise the destructor removes it, so an interrupted fetch leaves no half-written file.
class TempFile {
 public:
  explicit TempFile(const std::filesystem::path& dest);
  ~TempFile();
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  const std::filesystem::path& path() const { return tmp_; }
  void commit();

 private:
  std::filesystem::path dest_;
  std::filesystem::path tmp_;
  bool committed_ = false;
};

// A uniquely named directory, removed with its contents by the destructor.
class TempDir {
 public:
  explicit TempDir(const std::filesystem::path& parent);
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return dir_; }

 private:
  std::filesystem::path dir_;
};

// Decompresses a .bz2 file (one or more concatenated streams) into `out`. Stops with an error
// once the output exceeds `max_size`, so a corrupt or hostile archive cannot fill the disk.
// Throws std::runtime_error naming the problem.
void bunzip2_file(const std::filesystem::path& in, const std::filesystem::path& out,
                  std::uint64_t max_size);

struct ProgramResult {
  int exit_code = -1;       // -1: could not be started or was killed
  std::string diagnostics;  // the last line of its standard error
  int spawn_error = 0;      // errno of a failed start (ENOENT: not found), else 0
};

// Runs argv[0] (looked up in PATH) without a shell; standard output is discarded.
ProgramResult run_program(const std::vector<std::string>& argv);

// Like run_program, but hands standard output to `consume` in blocks as it arrives (standard
// error goes to an unnamed temporary file, so neither stream can block the other). If
// `consume` throws, the program is killed and reaped and the exception propagates.
ProgramResult run_program_streaming(const std::vector<std::string>& argv,
                                    const std::function<void(std::string_view)>& consume);

}  // namespace gcbench::corpora
