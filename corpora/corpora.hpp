#pragma once
// The standard corpora: manifest, fetch (mirror directory or canonical URL), verification.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "gcbench/bytes.hpp"

namespace gcbench::corpora {

struct ManifestFile {
  std::string corpus;                 // "silesia", "calgary", "canterbury", "prague"
  std::string name;                   // file name inside the corpus
  std::optional<std::uint64_t> size;  // bytes of the plain file, where known
  std::optional<std::string> sha256;  // of the plain file, where known
  std::string url;                    // canonical download (file or archive); "" if none known
  // Set where the published name or size is in doubt ("uncertain" in the manifest): why. Such
  // an entry's size is the published one, recorded in `declared_size` and not checked.
  std::string uncertain;
  std::optional<std::uint64_t> declared_size;  // the manifest's size, checked or not
  // Bytes per little-endian element (1, 2, 4 or 8) of a file that is an array of integers,
  // e.g. a TPC-H column; unset for byte streams.
  std::optional<std::uint32_t> element_width;
};

// A corpus made locally by a pinned program instead of downloaded (the TPC-H columns).
struct GeneratorInfo {
  std::string program;       // "tpchgen-cli" (the only one fetch() knows)
  std::string version;       // the version whose output the manifest's digests are
  std::string scale_factor;  // as passed to the program, e.g. "0.01"
};

// What the manifest says about a corpus as a whole.
struct CorpusInfo {
  std::string name;
  std::string title;
  std::string page;                  // canonical description page
  std::uint64_t expected_files = 0;  // as published; more than files_of(name) lists when the
                                     // manifest does not know every file (see `note`)
  std::string note;
  std::optional<GeneratorInfo> generator;  // set for a generated corpus
};

struct Manifest {
  std::vector<std::string> corpora;
  std::vector<ManifestFile> files;
  std::string digest;            // sha256 of the manifest file, reported in results
  std::vector<CorpusInfo> info;  // one per entry of `corpora`, same order
  std::vector<ManifestFile> files_of(const std::string& corpus) const;
  // Throws std::invalid_argument for an unknown corpus name.
  const CorpusInfo& corpus(const std::string& name) const;
};

// corpora/manifest.json of the source tree (the path is compiled in).
std::filesystem::path default_manifest_path();
Manifest load_manifest(const std::filesystem::path& path = default_manifest_path());

struct FetchOptions {
  std::vector<std::filesystem::path> mirrors;  // directories laid out as <corpus>/<file>[.bz2]
  std::filesystem::path cache_dir;             // verified plain files land in <cache>/<corpus>/
  bool allow_download = true;
};

// Mirrors from $GCBENCH_CORPUS_MIRROR (':'-separated), else ../shared/corpora beside the source
// tree when it exists, else <source>/.carry/corpora (the copy that travels to device machines)
// when it exists; cache from $GCBENCH_CORPUS_CACHE, else <source>/corpora/cache.
FetchOptions default_fetch_options();

struct LocalFile {
  ManifestFile entry;
  std::filesystem::path path;  // verified plain file
};
struct MissingFile {
  ManifestFile entry;
  std::string reason;
};
struct FetchResult {
  std::vector<LocalFile> present;
  std::vector<MissingFile> missing;
};

// Makes every file of `corpus` available as a verified plain file, or says why it is not.
// Throws std::invalid_argument for an unknown corpus name. A corpus whose files the manifest
// does not list yields one MissingFile with the name "*" and the reason.
FetchResult fetch(const Manifest& manifest, const std::string& corpus, const FetchOptions& options);

Bytes read_file(const std::filesystem::path& path);

}  // namespace gcbench::corpora
