// fetch(): cache, then mirror (plain file used in place, or .bz2 decompressed into the cache),
// then the canonical URL, or for a generated corpus its generator; every file is verified against
// the manifest before it is handed out.
#include <algorithm>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "corpora/corpora.hpp"
#include "corpora/file_ops.hpp"
#include "corpora/sha256.hpp"
#include "corpora/tpch.hpp"

namespace gcbench::corpora {
namespace fs = std::filesystem;
namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : sep) + p;
  return out;
}

// Checks size and sha256 against the manifest. Digests of files that stay where they are
// (mirror copies, cached files) are remembered in <cache>/.verified.json by path, size and
// modification time, so that the ~200 MB of corpora are not re-hashed on every run.
class Verifier {
 public:
  explicit Verifier(fs::path cache_dir) : memo_path_(std::move(cache_dir) / ".verified.json") {
    std::ifstream in(memo_path_);
    if (!in) return;
    memo_ = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (!memo_.is_object()) memo_ = nlohmann::json::object();  // unreadable memo: start over
  }

  // Saving is best effort: a read-only cache only costs re-hashing next time.
  ~Verifier() {
    if (!dirty_) return;
    try {
      fs::create_directories(memo_path_.parent_path());
      TempFile tmp(memo_path_);
      std::ofstream(tmp.path()) << memo_.dump(1) << '\n';
      tmp.commit();
    } catch (const std::exception&) {
    }
  }

  // Empty when `path` matches the manifest, else the reason it does not. With `remember`, the
  // digest is memoised under `path`; `digest_out` receives it when one was computed.
  std::string check(const fs::path& path, const ManifestFile& f, bool remember,
                    std::string* digest_out = nullptr) {
    std::error_code ec;
    const std::uint64_t size = fs::file_size(path, ec);
    if (ec) return "cannot read " + path.string() + ": " + ec.message();
    if (f.size && size != *f.size) {
      return "size mismatch: " + path.string() + " has " + std::to_string(size) +
             " bytes, the manifest says " + std::to_string(*f.size);
    }
    if (!f.sha256) return "";
    std::string digest = remember ? memoised_digest(path, size) : sha256_file_hex(path);
    if (digest_out != nullptr) *digest_out = digest;
    if (digest != *f.sha256) {
      return "sha256 mismatch: " + path.string() + " is " + digest + ", the manifest says " +
             *f.sha256;
    }
    return "";
  }

  // Records the digest of a file just installed (computed on its temporary copy).
  void record(const fs::path& path, const std::string& digest) {
    std::error_code ec;
    const std::uint64_t size = fs::file_size(path, ec);
    if (ec || digest.empty()) return;
    memo_[key_of(path)] = {{"size", size}, {"mtime", mtime_of(path)}, {"sha256", digest}};
    dirty_ = true;
  }

 private:
  static std::string key_of(const fs::path& path) {
    return fs::absolute(path).lexically_normal().string();
  }
  static std::int64_t mtime_of(const fs::path& path) {
    return static_cast<std::int64_t>(fs::last_write_time(path).time_since_epoch().count());
  }

  std::string memoised_digest(const fs::path& path, std::uint64_t size) {
    const auto it = memo_.find(key_of(path));
    if (it != memo_.end()) {
      const auto& e = *it;
      if (e.is_object() && e.contains("size") && e["size"] == size && e.contains("mtime") &&
          e["mtime"] == mtime_of(path) && e.contains("sha256") && e["sha256"].is_string()) {
        return e["sha256"].get<std::string>();
      }
    }
    std::string digest = sha256_file_hex(path);
    record(path, digest);
    return digest;
  }

  fs::path memo_path_;
  nlohmann::json memo_ = nlohmann::json::object();
  bool dirty_ = false;
};

// Throws std::runtime_error("curl failed: ...") unless `url` was saved to `out`.
void curl(const std::string& url, const fs::path& out) {
  ProgramResult r = run_program({"curl", "-fsSL", "--retry", "2", "-o", out.string(), url});
  if (r.exit_code != 0) {
    throw std::runtime_error(
        "curl failed: " + url + ": " +
        (r.diagnostics.empty() ? "exit code " + std::to_string(r.exit_code) : r.diagnostics));
  }
}

// Archives (calgary.tar.gz, ...) are downloaded and unpacked once per fetch() call, and a
// failure is remembered so that 18 files do not mean 18 failing downloads.
class Archives {
 public:
  explicit Archives(fs::path work_dir) : work_dir_(std::move(work_dir)) {}

  const fs::path& unpacked(const std::string& url) {
    if (auto e = errors_.find(url); e != errors_.end()) throw std::runtime_error(e->second);
    if (auto d = dirs_.find(url); d != dirs_.end()) return d->second->path();
    try {
      auto dir = std::make_unique<TempDir>(work_dir_);
      const fs::path archive = dir->path() / "archive.tar.gz";
      curl(url, archive);
      const fs::path members = dir->path() / "members";
      fs::create_directories(members);
      ProgramResult r = run_program({"tar", "-xzf", archive.string(), "-C", members.string()});
      if (r.exit_code != 0) throw std::runtime_error("tar failed on " + url + ": " + r.diagnostics);
      return dirs_.emplace(url, std::move(dir)).first->second->path();
    } catch (const std::exception& e) {
      errors_.emplace(url, e.what());
      throw;
    }
  }

 private:
  fs::path work_dir_;
  std::map<std::string, std::unique_ptr<TempDir>> dirs_;
  std::map<std::string, std::string> errors_;
};

fs::path find_member(const fs::path& root, const std::string& name) {
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.is_regular_file() && entry.path().filename() == name) return entry.path();
  }
  return {};
}

class Fetcher {
 public:
  explicit Fetcher(const FetchOptions& options) : options_(options), verifier_(options.cache_dir) {}

  // The cache, then the mirrors (plain, then .bz2): sets `found`, or returns the problems met
  // (mismatching copies) and whether any mirror had the file.
  std::vector<std::string> fetch_local(const ManifestFile& f, fs::path& found,
                                       bool& in_some_mirror) {
    std::vector<std::string> problems;
    const fs::path cached = options_.cache_dir / f.corpus / f.name;
    std::error_code ec;
    in_some_mirror = false;
    if (fs::is_regular_file(cached, ec)) {
      if (std::string r = verifier_.check(cached, f, true); r.empty()) {
        found = cached;
        return {};
      } else {
        problems.push_back("cached copy: " + r);
      }
    }
    for (const auto& mirror : options_.mirrors) {
      const fs::path plain = mirror / f.corpus / f.name;
      if (!fs::is_regular_file(plain, ec)) continue;
      in_some_mirror = true;
      if (std::string r = verifier_.check(plain, f, true); r.empty()) {
        found = plain;
        return {};
      } else {
        problems.push_back(r);
      }
    }
    for (const auto& mirror : options_.mirrors) {
      const fs::path bz2 = mirror / f.corpus / (f.name + ".bz2");
      if (!fs::is_regular_file(bz2, ec)) continue;
      in_some_mirror = true;
      if (std::string r = install(f, [&](const fs::path& out) { unpack_bz2(bz2, f, out); });
          r.empty()) {
        found = cached;
        return {};
      } else {
        problems.push_back(r);
      }
    }
    return problems;
  }

  // Returns the reason the file is missing, or empty with `found` set.
  std::string fetch_one(const ManifestFile& f, fs::path& found) {
    bool in_some_mirror = false;
    std::vector<std::string> problems = fetch_local(f, found, in_some_mirror);
    if (!found.empty()) return "";
    const fs::path cached = options_.cache_dir / f.corpus / f.name;
    if (!in_some_mirror) {
      problems.push_back(options_.mirrors.empty()
                             ? std::string("no mirror configured")
                             : "not in mirror " + mirror_list() + " (looked for " + f.corpus + "/" +
                                   f.name + " and " + f.corpus + "/" + f.name + ".bz2)");
    }
    if (!options_.allow_download) {
      problems.push_back("download disabled");
      return join(problems, "; ");
    }
    if (std::string r = install(f, [&](const fs::path& out) { download(f, out); }); r.empty()) {
      found = cached;
      return "";
    } else {
      problems.push_back(r);
    }
    return join(problems, "; ");
  }

  // Runs the corpus's generator once for all of `files` (missing from the cache and mirrors,
  // with the problems met there) into a temporary folder in the cache, then verifies and
  // installs each file. Adds each file to `result`.
  void generate(const CorpusInfo& info,
                const std::vector<std::pair<ManifestFile, std::vector<std::string>>>& files,
                FetchResult& result) {
    const GeneratorInfo& g = *info.generator;
    std::vector<std::string> tables;
    std::map<std::string, std::string> made_by;  // file name -> its table
    for (const auto& c : tpch_columns()) made_by[tpch_file_name(c)] = std::string(c.table);
    for (const auto& [f, problems] : files) {
      auto it = made_by.find(f.name);
      if (it != made_by.end() &&
          std::find(tables.begin(), tables.end(), it->second) == tables.end()) {
        tables.push_back(it->second);
      }
    }
    auto missing = [&](const ManifestFile& f, std::vector<std::string> problems,
                       const std::string& reason) {
      problems.push_back(reason);
      result.missing.push_back({f, join(problems, "; ")});
    };
    std::string failure;
    std::unique_ptr<TempDir> dir;
    try {
      fs::create_directories(options_.cache_dir);
      dir = std::make_unique<TempDir>(options_.cache_dir);
      if (!tables.empty()) generate_tpch(g.scale_factor, dir->path(), tables);
    } catch (const std::exception& e) {
      failure = e.what();
    }
    std::string label;  // what made the files, for a mismatch: "tpchgen-cli 4.0.0"
    for (const auto& [f, problems] : files) {
      if (!failure.empty()) {
        missing(f, problems, failure);
        continue;
      }
      if (made_by.find(f.name) == made_by.end()) {
        missing(f, problems, g.program + " makes no file named " + f.name);
        continue;
      }
      const fs::path made = dir->path() / f.name;
      std::string r = install(f, [&](const fs::path& out) { fs::rename(made, out); });
      if (r.empty()) {
        result.present.push_back({f, options_.cache_dir / f.corpus / f.name});
        continue;
      }
      if (r.starts_with("size mismatch") || r.starts_with("sha256 mismatch")) {
        if (label.empty()) label = tpchgen_version();
        if (label.empty()) label = tpchgen_program() + " (version unknown)";
        r = "generated by " + label + " at scale factor " + g.scale_factor + ": " + r +
            " (the generator's output changed; the manifest pins version " + g.version + "'s)";
      }
      missing(f, problems, r);
    }
  }

 private:
  std::string mirror_list() const {
    std::vector<std::string> names;
    for (const auto& m : options_.mirrors) names.push_back(m.string());
    return join(names, ", ");
  }

  // Runs `produce` into a temporary file beside the cache entry, verifies, then renames it
  // into place. Returns the reason on failure (the temporary file is removed).
  template <typename Produce>
  std::string install(const ManifestFile& f, Produce produce) {
    const fs::path cached = options_.cache_dir / f.corpus / f.name;
    try {
      fs::create_directories(cached.parent_path());
      TempFile tmp(cached);
      produce(tmp.path());
      std::string digest;
      if (std::string r = verifier_.check(tmp.path(), f, false, &digest); !r.empty()) return r;
      tmp.commit();
      verifier_.record(cached, digest);
      return "";
    } catch (const std::exception& e) {
      return e.what();
    }
  }

  static void unpack_bz2(const fs::path& bz2, const ManifestFile& f, const fs::path& out) {
    // Without a known size, a generous cap still stops a runaway archive.
    bunzip2_file(bz2, out, f.size.value_or(std::uint64_t{64} << 30));
  }

  void download(const ManifestFile& f, const fs::path& out) {
    if (f.url.empty()) {
      throw std::runtime_error(
          "the manifest has no download URL for it (get it from the corpus page into a mirror)");
    }
    if (ends_with(f.url, ".tar.gz") || ends_with(f.url, ".tgz")) {
      if (!archives_) archives_ = std::make_unique<Archives>(options_.cache_dir);
      fs::path member = find_member(archives_->unpacked(f.url), f.name);
      if (member.empty()) throw std::runtime_error(f.url + " has no member named " + f.name);
      fs::copy_file(member, out, fs::copy_options::overwrite_existing);
    } else if (ends_with(f.url, ".bz2")) {
      TempFile packed(out.parent_path() / (f.name + ".bz2"));
      curl(f.url, packed.path());
      unpack_bz2(packed.path(), f, out);
    } else {
      curl(f.url, out);
    }
  }

  const FetchOptions& options_;
  Verifier verifier_;
  std::unique_ptr<Archives> archives_;
};

}  // namespace

FetchResult fetch(const Manifest& manifest, const std::string& corpus,
                  const FetchOptions& options) {
  const CorpusInfo& info = manifest.corpus(corpus);
  FetchResult result;
  const std::vector<ManifestFile> files = manifest.files_of(corpus);
  if (files.empty()) {
    ManifestFile whole;
    whole.corpus = corpus;
    whole.name = "*";
    whole.url = info.page;
    result.missing.push_back(
        {whole, info.title + ": the manifest lists none of its " +
                    std::to_string(info.expected_files) + " files, so none can be fetched" +
                    (info.note.empty() ? std::string() : " (" + info.note + ")")});
    return result;
  }
  Fetcher fetcher(options);
  if (info.generator) {  // made locally: generation is not a download
    std::vector<std::pair<ManifestFile, std::vector<std::string>>> pending;
    for (const auto& f : files) {
      fs::path found;
      bool in_some_mirror = false;
      std::vector<std::string> problems = fetcher.fetch_local(f, found, in_some_mirror);
      if (!found.empty()) {
        result.present.push_back({f, found});
      } else {
        pending.emplace_back(f, std::move(problems));
      }
    }
    if (!pending.empty()) fetcher.generate(info, pending, result);
    return result;
  }
  for (const auto& f : files) {
    fs::path found;
    if (std::string reason = fetcher.fetch_one(f, found); reason.empty()) {
      result.present.push_back({f, found});
    } else {
      result.missing.push_back({f, reason});
    }
  }
  return result;
}

}  // namespace gcbench::corpora
