#include "bench/driver/path_inputs.hpp"

#include <dirent.h>
#include <fnmatch.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <utility>

#include "bench/driver/npy.hpp"
#include "corpora/sha256.hpp"
#include "src/results/result_document.hpp"

namespace gcbench::driver {
namespace fs = std::filesystem;
namespace {

using FileKey = std::pair<dev_t, ino_t>;

std::string kind_of(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file or a folder";
}

bool is_link(const fs::path& path) {
  struct stat link {};
  return ::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode);
}

// Why stat() on a path failed, in words.
std::string stat_failure(const fs::path& path, int error) {
  if (error == ELOOP) return "a symlink loop";
  if (error == ENOENT) return is_link(path) ? "a broken symlink" : "no such file or folder";
  return std::strerror(error);
}

bool ends_with_npy(const std::string& name) {
  if (name.size() < 4) return false;
  std::string tail = name.substr(name.size() - 4);
  std::transform(tail.begin(), tail.end(), tail.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return tail == ".npy";
}

// The file as an input: its digest now, its bytes (checked against that digest) when loaded.
InputFile make_input(const fs::path& path, const std::string& corpus, const std::string& name,
                     std::uint64_t file_size) {
  InputFile input{corpus, name, file_size, {}, corpora::sha256_file_hex(path), std::nullopt};
  std::uint64_t body_offset = 0;
  if (ends_with_npy(name)) {
    const NpyLayout layout = read_npy_layout(path, file_size);
    input.size = layout.body_size;
    input.element_width = layout.element_width;
    body_offset = layout.body_offset;
  }
  // Mapped, never read into memory (MappedFile: a file larger than host memory is measured
  // too); its bytes checked against the digest once more, a streamed pass over the mapping, so
  // that the cells measure the bytes the results name.
  input.load = [path, file_size, digest = input.sha256, body_offset] {
    const auto file = std::make_shared<const MappedFile>(path, file_size);
    if (const std::string now = corpora::sha256_hex(file->bytes()); now != digest) {
      throw std::runtime_error(
          fmt::format("{} changed since the run began ({} bytes, sha256 {} then; sha256 {} now)",
                      path.string(), file_size, digest, now));
    }
    return InputData(file, body_offset, file_size - body_offset);
  };
  return input;
}

// Walks the paths given into candidates first, then picks one name per file: a file reached
// both directly and through a symlink is measured under its own name.
class Walker {
 public:
  Walker(const PathFilter& filter, std::ostream& log) : filter_(filter), log_(log) {
    for (const fs::path& dir : filter.results_dirs) {
      struct stat st {};
      if (::stat(dir.c_str(), &st) == 0) results_dirs_.emplace(st.st_dev, st.st_ino);
    }
  }

  void add(const std::string& text) {
    if (text.empty()) throw std::invalid_argument("an empty path");
    const fs::path path(text);
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
      throw std::invalid_argument(text + ": " + stat_failure(path, errno));
    }
    Root root{text, filter_.corpus_name, false, 0, 0};
    if (S_ISREG(st.st_mode)) {
      if (::access(path.c_str(), R_OK) != 0) fail_unreadable(text);
      if (root.corpus.empty()) root.corpus = "files";
      roots_.push_back(root);
      candidates_.push_back(
          {path, root.corpus, path.filename().string(), st, is_link(path), roots_.size() - 1});
      return;
    }
    if (!S_ISDIR(st.st_mode)) {
      throw std::invalid_argument(text + ": " + kind_of(st.st_mode) +
                                  ", not a regular file or a folder");
    }
    if (::access(path.c_str(), R_OK | X_OK) != 0) fail_unreadable(text);
    root.folder = true;
    if (root.corpus.empty()) root.corpus = folder_corpus(path);
    roots_.push_back(root);
    const std::size_t candidates_before = candidates_.size();
    std::uint64_t entries = 0;
    walk(path, "", st, is_link(path), entries);
    if (entries == 0) throw std::invalid_argument(text + ": an empty folder");
    if (candidates_.size() == candidates_before) {
      throw std::invalid_argument(fmt::format(
          "{}: holds no regular file to measure ({} skipped, {} excluded by --include/--exclude)",
          text, roots_.back().skipped, roots_.back().excluded));
    }
  }

  UserFiles take() {
    // One name per file: the first reached without a symlink, else the first.
    std::map<FileKey, std::size_t> chosen;
    for (std::size_t i = 0; i < candidates_.size(); ++i) {
      const Candidate& c = candidates_[i];
      const auto [it, fresh] = chosen.emplace(FileKey{c.st.st_dev, c.st.st_ino}, i);
      if (!fresh && candidates_[it->second].via_link && !c.via_link) it->second = i;
    }
    UserFiles user = std::move(user_);
    std::map<std::pair<std::string, std::string>, std::string> named;  // -> its path
    std::vector<std::size_t> files_of_root(roots_.size());
    std::vector<std::uint64_t> bytes_of_root(roots_.size());
    for (std::size_t i = 0; i < candidates_.size(); ++i) {
      const Candidate& c = candidates_[i];
      const Candidate& kept = candidates_[chosen.at(FileKey{c.st.st_dev, c.st.st_ino})];
      if (&kept != &c) {
        if (kept.corpus != c.corpus || kept.name != c.name) {
          user.skipped.push_back(
              MissingInput{c.corpus, c.name,
                           results::skipped_reason("the same file as " + kept.corpus + "/" +
                                                   kept.name + " (measured once)")});
          ++roots_[c.root].skipped;
        }
        continue;
      }
      // Two different files under one corpus and name cannot both be recorded.
      if (const auto [it, fresh] = named.emplace(std::pair(c.corpus, c.name), c.path.string());
          !fresh) {
        throw std::invalid_argument(
            fmt::format("{} and {} would both be recorded as {}/{}: give their folders, or "
                        "measure them in separate runs",
                        it->second, c.path.string(), c.corpus, c.name));
      }
      user.present.push_back(
          make_input(c.path, c.corpus, c.name, static_cast<std::uint64_t>(c.st.st_size)));
      ++files_of_root[c.root];
      bytes_of_root[c.root] += user.present.back().size;
    }
    for (std::size_t r = 0; r < roots_.size(); ++r) {
      const Root& root = roots_[r];
      if (!root.folder) {
        log_ << fmt::format("[gcbench] {}: a file, corpus {}{}\n", root.text, root.corpus,
                            files_of_root[r] == 0 ? " (given before: measured once)" : "");
        continue;
      }
      log_ << fmt::format("[gcbench] {}: {} files, {} bytes, corpus {}{}{}\n", root.text,
                          files_of_root[r], bytes_of_root[r], root.corpus,
                          root.skipped ? fmt::format("; {} skipped", root.skipped) : "",
                          root.excluded ? fmt::format("; {} excluded", root.excluded) : "");
    }
    return user;
  }

 private:
  struct Root {
    std::string text;    // as given
    std::string corpus;  // its files' corpus name
    bool folder = false;
    std::size_t skipped = 0;
    std::size_t excluded = 0;
  };
  struct Candidate {
    fs::path path;
    std::string corpus;
    std::string name;
    struct stat st;
    bool via_link = false;  // reached through a symlink (its own, or a folder's)
    std::size_t root = 0;
  };

  [[noreturn]] static void fail_unreadable(const std::string& text) {
    throw std::invalid_argument(text + ": cannot be read (" + std::strerror(errno) + ")");
  }

  // A folder's base name; two folders of one base name (a/data, b/data) are data and data-2.
  std::string folder_corpus(const fs::path& path) {
    std::error_code ec;
    const fs::path canonical = fs::weakly_canonical(fs::absolute(path), ec);
    const std::string base = canonical.filename().empty() ? "root" : canonical.filename().string();
    std::string corpus = base;
    for (int n = 2; folder_corpora_.count(corpus) > 0 && folder_corpora_[corpus] != canonical; ++n)
      corpus = base + "-" + std::to_string(n);
    folder_corpora_.emplace(corpus, canonical);
    return corpus;
  }

  bool excluded(const std::string& rel, bool is_folder) const {
    for (const std::string& glob : filter_.exclude) {
      if (glob_matches(glob, rel)) return true;
    }
    if (is_folder || filter_.include.empty()) return false;
    return std::none_of(filter_.include.begin(), filter_.include.end(),
                        [&](const std::string& glob) { return glob_matches(glob, rel); });
  }

  void skip(const std::string& name, const std::string& why) {
    user_.skipped.push_back(MissingInput{roots_.back().corpus, name, results::skipped_reason(why)});
    ++roots_.back().skipped;
  }

  void walk(const fs::path& dir, const std::string& rel, const struct stat& dir_stat, bool via_link,
            std::uint64_t& entries) {
    if (!walked_.emplace(dir_stat.st_dev, dir_stat.st_ino).second) {
      skip(rel,
           "a folder reached a second time (a symlink loop, or a link to a folder already "
           "walked)");
      return;
    }
    std::vector<std::string> names;
    if (DIR* d = ::opendir(dir.c_str()); d != nullptr) {
      while (const dirent* e = ::readdir(d)) {
        const std::string name = e->d_name;
        if (name != "." && name != "..") names.push_back(name);
      }
      ::closedir(d);
    } else {
      skip(rel, std::string("a folder that cannot be read: ") + std::strerror(errno));
      return;
    }
    std::sort(names.begin(), names.end());
    entries += names.size();
    for (const std::string& name : names) {
      const fs::path path = dir / name;
      const std::string entry = rel.empty() ? name : rel + "/" + name;
      struct stat st {};
      if (::stat(path.c_str(), &st) != 0) {
        skip(entry, stat_failure(path, errno));
        continue;
      }
      const bool linked = via_link || is_link(path);
      if (S_ISDIR(st.st_mode) && results_dirs_.contains({st.st_dev, st.st_ino})) {
        skip(entry, "the run's own results folder (--out-dir)");
      } else if (S_ISDIR(st.st_mode)) {
        if (excluded(entry, true)) {
          ++roots_.back().excluded;
        } else {
          walk(path, entry, st, linked, entries);
        }
      } else if (!S_ISREG(st.st_mode)) {
        skip(entry, kind_of(st.st_mode));
      } else if (excluded(entry, false)) {
        ++roots_.back().excluded;
      } else if (::access(path.c_str(), R_OK) != 0) {
        skip(entry, std::string("cannot be read: ") + std::strerror(errno));
      } else {
        candidates_.push_back({path, roots_.back().corpus, entry, st, linked, roots_.size() - 1});
      }
    }
  }

  const PathFilter& filter_;
  std::ostream& log_;
  std::vector<Root> roots_;
  std::vector<Candidate> candidates_;
  UserFiles user_;  // its skipped entries, as the walk finds them
  std::set<FileKey> walked_;
  std::set<FileKey> results_dirs_;  // of PathFilter::results_dirs that exist
  std::map<std::string, fs::path> folder_corpora_;  // corpus name -> the folder it names
};

}  // namespace

bool glob_matches(const std::string& pattern, const std::string& relative_path) {
  if (::fnmatch(pattern.c_str(), relative_path.c_str(), 0) == 0) return true;
  if (pattern.find('/') != std::string::npos) return false;
  const std::size_t slash = relative_path.rfind('/');
  return slash != std::string::npos &&
         ::fnmatch(pattern.c_str(), relative_path.c_str() + slash + 1, 0) == 0;
}

UserFiles gather_user_files(const std::vector<std::string>& paths, const PathFilter& filter,
                            std::ostream& log) {
  Walker walker(filter, log);
  for (const std::string& path : paths) walker.add(path);
  return walker.take();
}

}  // namespace gcbench::driver
