#include "bench/driver/inputs.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "bench/driver/path_inputs.hpp"
#include "corpora/corpora.hpp"
#include "corpora/sha256.hpp"
#include "corpora/synthetic.hpp"
#include "src/cli/suggest.hpp"

namespace gcbench::driver {
namespace {

constexpr std::string_view kSyntheticPrefix = "synthetic:";
constexpr std::string_view kConcatPrefix = "concat:";
constexpr std::string_view kPathPrefix = "path:";

InputFile synthetic_input(const std::string& spec_text) {
  // synthetic:<kind>:<size>[:<element width>]; the width (1, 2 or 4) is the integer view the
  // data is generated in, so that small_ints at width 4 are small 32-bit values. The kind may
  // carry parameters (runs-geo64: runs of geometric lengths, mean 64); the name keeps them.
  const std::string rest = spec_text.substr(kSyntheticPrefix.size());
  const std::size_t colon = rest.find(':');
  if (colon == std::string::npos) {
    throw std::invalid_argument(
        "synthetic corpus must be synthetic:<kind>:<size>[:<width>], not '" + spec_text + "'");
  }
  const std::string kind = rest.substr(0, colon);
  synthetic::Spec spec = synthetic::parse_kind_text(kind);
  std::string size_text = rest.substr(colon + 1);
  std::string width_suffix;  // "-w4" when a width is given
  if (const std::size_t width_colon = size_text.find(':'); width_colon != std::string::npos) {
    const std::string width = size_text.substr(width_colon + 1);
    if (width != "1" && width != "2" && width != "4") {
      throw std::invalid_argument("synthetic corpus '" + spec_text +
                                  "': the element width must be 1, 2 or 4, not '" + width + "'");
    }
    spec.element_width = static_cast<std::uint32_t>(std::stoul(width));
    width_suffix = "-w" + width;
    size_text.resize(width_colon);
  }
  spec.size_bytes = parse_size(size_text);
  if (spec.size_bytes == 0) {
    throw std::invalid_argument("synthetic corpus '" + spec_text +
                                "': the size must be at least 1 byte (an empty input measures "
                                "nothing)");
  }
  const std::string name = kind + "-" + size_text + width_suffix;
  return InputFile{
      "synthetic", name,        spec.size_bytes, [spec] { return synthetic::generate(spec); },
      "",          std::nullopt};
}

// concat:<corpus>: one input, the corpus's available files back to back in manifest order,
// named after how many of them it holds (a missing file shrinks it, and the name says so).
InputFile concatenated_input(const corpora::Manifest& manifest, const std::string& spec_text,
                             const corpora::FetchOptions& fetch_options) {
  const std::string corpus = spec_text.substr(kConcatPrefix.size());
  corpora::FetchResult fetched = corpora::fetch(manifest, corpus, fetch_options);
  std::vector<std::filesystem::path> paths;
  std::uint64_t size = 0;
  for (const corpora::LocalFile& f : fetched.present) {
    paths.push_back(f.path);
    size += std::filesystem::file_size(f.path);
  }
  const std::size_t total = fetched.present.size() + fetched.missing.size();
  std::string name = "all-" + std::to_string(paths.size()) + "-of-" + std::to_string(total);
  return InputFile{corpus + "-concat",
                   name,
                   size,
                   [paths, size] {
                     Bytes all;
                     all.reserve(size);
                     for (const auto& path : paths) {
                       Bytes part = corpora::read_file(path);
                       all.insert(all.end(), part.begin(), part.end());
                     }
                     return all;
                   },
                   "",
                   std::nullopt};
}

}  // namespace

InputData::InputData(std::shared_ptr<const MappedFile> file, std::uint64_t offset,
                     std::uint64_t size)
    : file_(std::move(file)), offset_(offset), size_(size) {}

ReadOnlyBytes::ReadOnlyBytes(Bytes bytes) : bytes_(std::move(bytes)) {
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto begin = reinterpret_cast<std::uintptr_t>(bytes_.data());
  const std::uintptr_t end = begin + bytes_.size();
  const std::uintptr_t first = (begin + page - 1) / page * page, last = end / page * page;
  if (!bytes_.empty() && first < last &&
      ::mprotect(reinterpret_cast<void*>(first), last - first, PROT_READ) == 0) {
    protected_begin_ = reinterpret_cast<std::uint8_t*>(first);
    protected_bytes_ = last - first;
    head_.assign(bytes_.data(), protected_begin_);
    tail_.assign(protected_begin_ + protected_bytes_, bytes_.data() + bytes_.size());
  } else {
    head_ = bytes_;  // no whole page (or no protection): all of it kept aside
  }
}

ReadOnlyBytes::~ReadOnlyBytes() {
  release();
}

ReadOnlyBytes::ReadOnlyBytes(ReadOnlyBytes&& other) noexcept {
  *this = std::move(other);
}

ReadOnlyBytes& ReadOnlyBytes::operator=(ReadOnlyBytes&& other) noexcept {
  if (this != &other) {
    release();
    // A moved vector keeps its buffer, so the protected pages stay where they are.
    bytes_ = std::move(other.bytes_);
    protected_begin_ = std::exchange(other.protected_begin_, nullptr);
    protected_bytes_ = std::exchange(other.protected_bytes_, 0);
    head_ = std::move(other.head_);
    tail_ = std::move(other.tail_);
    other.bytes_.clear();
  }
  return *this;
}

void ReadOnlyBytes::release() {
  if (protected_begin_ != nullptr) {
    ::mprotect(protected_begin_, protected_bytes_, PROT_READ | PROT_WRITE);
    protected_begin_ = nullptr;
    protected_bytes_ = 0;
  }
}

bool ReadOnlyBytes::intact() const {
  if (protected_begin_ == nullptr) return std::equal(head_.begin(), head_.end(), bytes_.begin());
  return std::equal(head_.begin(), head_.end(), bytes_.data()) &&
         std::equal(tail_.begin(), tail_.end(), protected_begin_ + protected_bytes_);
}

ByteSpan InputData::bytes() const {
  if (!file_) return owned_.bytes();
  return file_->bytes().subspan(static_cast<std::size_t>(offset_), static_cast<std::size_t>(size_));
}

std::optional<std::string> InputData::changed() const {
  if (file_) return file_->changed();
  if (owned_.intact()) return std::nullopt;
  return "the input's bytes in memory changed while it was measured: a codec wrote into its "
         "input";
}

InputData map_input(const std::filesystem::path& path, std::uint64_t file_size,
                    std::uint64_t offset) {
  return InputData(std::make_shared<const MappedFile>(path, file_size), offset, file_size - offset);
}

std::uint64_t parse_size(const std::string& text) {
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  std::string unit(end, text.data() + text.size());
  std::uint64_t scale = unit.empty()    ? 1
                        : unit == "KiB" ? std::uint64_t{1} << 10
                        : unit == "MiB" ? std::uint64_t{1} << 20
                        : unit == "GiB" ? std::uint64_t{1} << 30
                                        : 0;
  if (ec != std::errc() || scale == 0 || value > (std::uint64_t{1} << 40) / scale) {
    throw std::invalid_argument("invalid size '" + text +
                                "' (bytes, or a number with KiB/MiB/GiB)");
  }
  return value * scale;
}

namespace {

// One SHA-256 over the user's files' corpus, name and digest, in their order.
std::string digest_of(const std::vector<InputFile>& files) {
  corpora::Sha256 sha;
  for (const InputFile& f : files) {
    const std::string line = f.corpus + '\0' + f.name + '\0' + f.sha256 + '\n';
    sha.update(ByteSpan(reinterpret_cast<const std::uint8_t*>(line.data()), line.size()));
  }
  return corpora::to_hex(sha.finish());
}

void add_user_files(Inputs& inputs, const std::vector<std::string>& corpora,
                    const PathFilter& filter, std::ostream* log) {
  std::vector<std::string> paths;
  for (const std::string& corpus : corpora) {
    if (corpus.starts_with(kPathPrefix)) paths.push_back(corpus.substr(kPathPrefix.size()));
  }
  if (paths.empty()) return;
  std::ostringstream quiet;
  UserFiles user = gather_user_files(paths, filter, log != nullptr ? *log : quiet);
  inputs.user_files = user.present.size();
  inputs.user_files_digest = digest_of(user.present);
  for (InputFile& f : user.present) inputs.present.push_back(std::move(f));
  for (MissingInput& m : user.skipped) inputs.missing.push_back(std::move(m));
}

}  // namespace

Inputs gather_inputs(const std::vector<std::string>& corpora, const std::vector<std::string>& files,
                     bool download, const PathFilter& paths, std::ostream* log) {
  Inputs inputs;
  // The user's files first: a path that cannot be read stops the run before any fetch.
  add_user_files(inputs, corpora, paths, log);
  corpora::FetchOptions fetch_options = corpora::default_fetch_options();
  fetch_options.allow_download = download;
  std::optional<corpora::Manifest> manifest;
  std::set<std::string> gathered;
  for (const std::string& corpus : corpora) {
    if (!gathered.insert(corpus).second) continue;  // named twice: measured once
    if (corpus.starts_with(kPathPrefix)) continue;  // gathered above
    if (corpus.starts_with(kSyntheticPrefix)) {
      inputs.present.push_back(synthetic_input(corpus));
      continue;
    }
    if (!manifest) {
      manifest = corpora::load_manifest();
      inputs.manifest_digest = manifest->digest;
    }
    if (corpus.starts_with(kConcatPrefix)) {
      inputs.present.push_back(concatenated_input(*manifest, corpus, fetch_options));
      continue;
    }
    corpora::FetchResult fetched = corpora::fetch(*manifest, corpus, fetch_options);
    for (const corpora::LocalFile& f : fetched.present) {
      const std::uint64_t size = std::filesystem::file_size(f.path);
      inputs.present.push_back(InputFile{f.entry.corpus, f.entry.name, size,
                                         [path = f.path, size] { return map_input(path, size); },
                                         f.entry.sha256.value_or(""), f.entry.element_width});
    }
    for (const corpora::MissingFile& f : fetched.missing) {
      inputs.missing.push_back(MissingInput{f.entry.corpus, f.entry.name, f.reason});
    }
  }
  if (files.empty()) return inputs;

  std::set<std::string> wanted(files.begin(), files.end());
  std::set<std::string> seen;
  std::vector<std::string> available;  // for "did you mean"
  for (const InputFile& f : inputs.present) available.push_back(f.name);
  for (const MissingInput& f : inputs.missing) available.push_back(f.name);
  std::erase_if(inputs.present, [&](const InputFile& f) {
    if (!wanted.count(f.name)) return true;
    seen.insert(f.name);
    return false;
  });
  std::erase_if(inputs.missing, [&](const MissingInput& f) {
    if (!wanted.count(f.name)) return true;
    seen.insert(f.name);
    return false;
  });
  for (const std::string& name : wanted) {
    if (!seen.count(name))
      throw std::invalid_argument("--files: no chosen corpus has a file '" + name + "'" +
                                  cli::did_you_mean(name, available));
  }
  return inputs;
}

}  // namespace gcbench::driver
