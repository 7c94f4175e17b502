#pragma once
// The files a sweep runs on: corpus files (fetched and verified by corpora/), synthetic inputs
// named like a corpus, "synthetic:<kind>:<size>[:<width>]" (e.g. synthetic:runs:64MiB,
// synthetic:runs-uni64:1GiB:4; file "<kind>-<size>[-w<width>]"), a whole
// corpus as one input, "concat:<corpus>" (corpus "<corpus>-concat", file "all-<k>-of-<n>"),
// and the user's own files and folders, "path:<PATH>" (path_inputs.hpp).
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "bench/driver/mapped_file.hpp"
#include "gcbench/bytes.hpp"

namespace gcbench::driver {

// Bytes in memory that nothing can write while they are held: the whole pages inside them are
// read-only (a write faults), and the few bytes that share a page with other memory are kept
// aside and compared. No copy is made.
class ReadOnlyBytes {
 public:
  ReadOnlyBytes() = default;
  explicit ReadOnlyBytes(Bytes bytes);
  ~ReadOnlyBytes();
  ReadOnlyBytes(ReadOnlyBytes&& other) noexcept;
  ReadOnlyBytes& operator=(ReadOnlyBytes&& other) noexcept;
  ReadOnlyBytes(const ReadOnlyBytes&) = delete;
  ReadOnlyBytes& operator=(const ReadOnlyBytes&) = delete;

  ByteSpan bytes() const { return bytes_; }
  // Whether the bytes outside the read-only pages still hold what they held.
  bool intact() const;

 private:
  void release();  // writable again, as the vector's owner expects
  Bytes bytes_;
  std::uint8_t* protected_begin_ = nullptr;
  std::size_t protected_bytes_ = 0;
  Bytes head_, tail_;  // copies of the bytes before and after the read-only pages
};

// An input's bytes while the workspace holds them: in memory (a synthetic input, a corpus
// concatenated) or a part of a file's read-only mapping (a corpus file, a user's file, a .npy
// file's array), never copied, and read-only either way.
class InputData {
 public:
  InputData() = default;
  InputData(Bytes bytes) : owned_(std::move(bytes)) {}  // NOLINT: loaders return their bytes
  // `size` bytes of `file` from `offset`.
  InputData(std::shared_ptr<const MappedFile> file, std::uint64_t offset, std::uint64_t size);

  ByteSpan bytes() const;
  bool mapped() const { return file_ != nullptr; }
  // nullopt while its bytes are the ones loaded; else why not (its file was truncated, so that
  // a read would fault, or written since it was mapped; bytes in memory were written).
  std::optional<std::string> changed() const;

 private:
  ReadOnlyBytes owned_;
  std::shared_ptr<const MappedFile> file_;
  std::uint64_t offset_ = 0, size_ = 0;
};

// The file at `path`, of `file_size` bytes as the run found it, mapped (MappedFile), and its
// bytes from `offset` on as the input; std::runtime_error when it vanished or changed size.
InputData map_input(const std::filesystem::path& path, std::uint64_t file_size,
                    std::uint64_t offset = 0);

struct InputFile {
  std::string corpus;
  std::string name;  // a user's file: its path relative to the folder given, '/'-separated
  std::uint64_t size = 0;
  std::function<InputData()> load;
  // SHA-256 of the file as the run found it (the manifest's for corpus files, where it has
  // one), recorded with every cell so that a rerun measures a changed file again; empty for
  // inputs that are a function of their name (synthetic ones).
  std::string sha256;
  // The width of the data's elements where the input says it (a .npy array's dtype, a tpch
  // column's name): the element_width axis takes it unless the axis is given.
  std::optional<std::uint32_t> element_width;
};

struct MissingInput {
  std::string corpus;
  std::string name;
  // Why; for an entry of a user's folder left out on purpose it begins with
  // results::kSkippedReasonPrefix ("skipped: a FIFO", path_inputs.hpp).
  std::string reason;
};

struct Inputs {
  std::vector<InputFile> present;
  std::vector<MissingInput> missing;  // reported and recorded, never measured as zeros
  std::string manifest_digest;
  // Of the user's files (path:...): how many, and one SHA-256 over their names and digests.
  std::size_t user_files = 0;
  std::string user_files_digest;
};

// Where a path:<PATH> corpus's files are taken from (--include/--exclude, --as).
struct PathFilter {
  std::vector<std::string> include;  // globs; empty: every file
  std::vector<std::string> exclude;
  std::string corpus_name;  // empty: a folder's base name, "files" for files named one by one
  // Folders the run writes into (--out-dir): never walked as input, wherever they lie.
  std::vector<std::filesystem::path> results_dirs;
};

// A corpus named twice is gathered once. `files` (when not empty) keeps only those names; a name
// found in no chosen corpus throws std::invalid_argument, as does an unknown corpus. Without
// `download`, a file in no mirror or cache is missing rather than downloaded (a second sweep of the
// same corpus need not wait for downloads the first one could not make).
// `log` gets a line per user folder and per file skipped in it (the skips are also `missing`).
Inputs gather_inputs(const std::vector<std::string>& corpora, const std::vector<std::string>& files,
                     bool download = true, const PathFilter& paths = {},
                     std::ostream* log = nullptr);

// "64MiB" -> 67108864; plain numbers are bytes. Throws std::invalid_argument.
std::uint64_t parse_size(const std::string& text);

}  // namespace gcbench::driver
