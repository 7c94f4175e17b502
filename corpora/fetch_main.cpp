// gcbench-corpus: list the manifest, fetch and verify corpora (see --help).
#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "corpora/corpora.hpp"

namespace {

namespace corpora = gcbench::corpora;

constexpr const char* kHelp = R"(usage: gcbench-corpus list
       gcbench-corpus fetch <corpus>... [--mirror DIR]... [--cache DIR] [--no-download]
       gcbench-corpus --help

list   prints every corpus of the manifest (corpora/manifest.json in the source tree) with
       its files, sizes and whether a sha256 is known.
fetch  makes every file of each named corpus ("all" = every corpus) available as a verified
       plain file and prints one line per file: "ok" and its path, or "missing" and why.
       For each file it uses, in this order:
         1. a verified copy in the cache (<cache>/<corpus>/<file>);
         2. a plain copy in a mirror (<mirror>/<corpus>/<file>), used in place;
         3. <mirror>/<corpus>/<file>.bz2, decompressed into the cache;
         4. unless --no-download: the canonical URL, downloaded with curl (archives are
            unpacked with tar), into the cache.
       Verified means: the size, and the sha256 where the manifest knows it, match. Digests
       of verified files are remembered in <cache>/.verified.json by size and modification
       time. Files are written to a temporary name and renamed, never left half-written.

options (fetch):
  --mirror DIR    a mirror directory; may be repeated; replaces the default mirrors, which
                  are $GCBENCH_CORPUS_MIRROR (':'-separated), else ../shared/corpora beside
                  the source tree, else .carry/corpora in it (the first that exists)
  --cache DIR     the cache directory; default $GCBENCH_CORPUS_CACHE, else
                  corpora/cache in the source tree
  --no-download   never download; a file not in the cache or a mirror is reported missing

exit status: 0 when every requested file is present, 2 when some are missing (the summary
says which corpora), 1 for a usage error or an unknown corpus.
)";

int usage_error(const std::string& message) {
  std::fprintf(stderr, "gcbench-corpus: %s\n(see gcbench-corpus --help)\n", message.c_str());
  return 1;
}

int list(const corpora::Manifest& m) {
  std::printf("manifest sha256 %s\n", m.digest.c_str());
  for (const auto& info : m.info) {
    const auto files = m.files_of(info.name);
    std::printf("\n%s: %s, %zu of %llu files listed\n  %s\n", info.name.c_str(), info.title.c_str(),
                files.size(), static_cast<unsigned long long>(info.expected_files),
                info.page.c_str());
    if (!info.note.empty()) std::printf("  note: %s\n", info.note.c_str());
    for (const auto& f : files) {
      std::string size = f.size ? std::to_string(*f.size) : "?";
      if (!f.size && f.declared_size) size = std::to_string(*f.declared_size) + "?";
      std::printf("  %-14s %10s  sha256 %-7s %s%s\n", f.name.c_str(), size.c_str(),
                  f.sha256 ? "known" : "unknown", f.url.empty() ? "(no URL)" : f.url.c_str(),
                  f.uncertain.empty() ? "" : ("  uncertain: " + f.uncertain).c_str());
    }
  }
  return 0;
}

int fetch(const corpora::Manifest& m, std::vector<std::string> names,
          const corpora::FetchOptions& options) {
  if (std::find(names.begin(), names.end(), "all") != names.end()) names = m.corpora;
  for (const auto& n : names) m.corpus(n);  // unknown names fail before any work
  std::vector<std::string> incomplete;
  std::size_t present = 0, missing = 0;
  for (const auto& name : names) {
    corpora::FetchResult r = corpora::fetch(m, name, options);
    for (const auto& p : r.present) {
      std::printf("ok       %s/%s  %s\n", name.c_str(), p.entry.name.c_str(), p.path.c_str());
    }
    for (const auto& x : r.missing) {
      std::printf("missing  %s/%s: %s\n", name.c_str(), x.entry.name.c_str(), x.reason.c_str());
    }
    std::printf("%s: %zu present, %zu missing\n", name.c_str(), r.present.size(), r.missing.size());
    present += r.present.size();
    missing += r.missing.size();
    if (!r.missing.empty()) incomplete.push_back(name);
  }
  if (incomplete.empty()) {
    std::printf("all %zu files present\n", present);
    return 0;
  }
  std::string which;
  for (const auto& n : incomplete) which += (which.empty() ? "" : ", ") + n;
  std::printf("%zu present, %zu missing (incomplete: %s); exit status 2\n", present, missing,
              which.c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) return usage_error("no command");
  if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::fputs(kHelp, stdout);
    return 0;
  }
  try {
    const corpora::Manifest manifest = corpora::load_manifest();
    if (args[0] == "list") {
      if (args.size() != 1) return usage_error("list takes no arguments");
      return list(manifest);
    }
    if (args[0] != "fetch") return usage_error("unknown command '" + args[0] + "'");

    corpora::FetchOptions options = corpora::default_fetch_options();
    std::vector<std::filesystem::path> mirrors;
    std::vector<std::string> names;
    for (std::size_t i = 1; i < args.size(); ++i) {
      const std::string& a = args[i];
      if (a == "--mirror" || a == "--cache") {
        if (i + 1 == args.size()) return usage_error(a + " needs a directory");
        if (a == "--mirror") {
          mirrors.emplace_back(args[++i]);
        } else {
          options.cache_dir = args[++i];
        }
      } else if (a == "--no-download") {
        options.allow_download = false;
      } else if (a.starts_with("-")) {
        return usage_error("unknown option '" + a + "'");
      } else {
        names.push_back(a);
      }
    }
    if (names.empty()) return usage_error("fetch needs at least one corpus name");
    if (!mirrors.empty()) options.mirrors = mirrors;
    return fetch(manifest, names, options);
  } catch (const std::invalid_argument& e) {
    return usage_error(e.what());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gcbench-corpus: %s\n", e.what());
    return 1;
  }
}
