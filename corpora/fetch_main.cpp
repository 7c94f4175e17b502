// gcbench-corpus: list the manifest, fetch and verify corpora (see --help).
#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "corpora/corpora.hpp"
#include "src/cli/command_line.hpp"

namespace {

namespace corpora = gcbench::corpora;

constexpr const char* kUsage = R"(usage: gcbench-corpus list
       gcbench-corpus fetch <corpus>... [--mirror DIR]... [--cache DIR] [--no-download]
       gcbench-corpus --help
)";

constexpr const char* kList = R"(prints every corpus of the manifest (corpora/manifest.json in the
source tree) with its files, sizes and whether a sha256 is known)";

constexpr const char* kFetch =
    R"(makes every file of each named corpus ("all" = every corpus) available
as a verified plain file and prints one line per file: "ok" and its
path, or "missing" and why. For each file it uses, in this order:
  1. a verified copy in the cache (<cache>/<corpus>/<file>);
  2. a plain copy in a mirror (<mirror>/<corpus>/<file>), used in place;
  3. <mirror>/<corpus>/<file>.bz2, decompressed into the cache;
  4. unless --no-download: the canonical URL, downloaded with curl
     (archives are unpacked with tar), into the cache.
Verified means: the size, and the sha256 where the manifest knows it,
match. Digests of verified files are remembered in <cache>/.verified.json
by size and modification time. Files are written to a temporary name and
renamed, never left half-written.)";

constexpr const char* kExitStatus =
    R"(exit status: 0 when every requested file is present, 2 when some are missing (the summary
says which corpora), 1 for a usage error or an unknown corpus.)";

int usage_error(const std::string& message) {
  std::fprintf(stderr, "gcbench-corpus: %s (see gcbench-corpus --help)\n", message.c_str());
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
  const auto app = gcbench::cli::make_app("gcbench-corpus", kUsage, "");
  app->footer(kExitStatus);
  app->require_subcommand(0, 1);
  CLI::App* help = app->add_subcommand("help", "prints this text");
  CLI::App* list_command = app->add_subcommand("list", kList);
  CLI::App* fetch_command = app->add_subcommand("fetch", kFetch);
  std::vector<std::string> names;
  std::vector<std::filesystem::path> mirrors;
  std::optional<std::filesystem::path> cache;
  bool download = true;
  fetch_command->add_option("corpus", names, "corpus names, or all")
      ->take_all()
      ->option_text("...");
  fetch_command
      ->add_option("--mirror", mirrors,
                   R"(a mirror directory; may be repeated; replaces the default mirrors,
which are $GCBENCH_CORPUS_MIRROR (':'-separated), else
../shared/corpora beside the source tree, else .carry/corpora in it
(the first that exists))")
      ->take_all()
      ->allow_extra_args(false)
      ->option_text("DIR");
  fetch_command
      ->add_option("--cache", cache,
                   R"(the cache directory; default $GCBENCH_CORPUS_CACHE, else
corpora/cache in the source tree)")
      ->option_text("DIR");
  gcbench::cli::add_switch(*fetch_command, "--no-download", download, false,
                           "never download; a file not in the cache or a mirror is reported "
                           "missing");
  if (auto status = gcbench::cli::parse_or_exit(*app, argc, argv, 1)) return *status;
  if (help->parsed()) {
    // app->help() would describe the chosen subcommand, "help" itself.
    const std::string text =
        app->get_formatter()->make_help(app.get(), app->get_name(), CLI::AppFormatMode::All);
    std::fputs(text.c_str(), stdout);
    return 0;
  }
  if (!list_command->parsed() && !fetch_command->parsed()) return usage_error("no command");
  try {
    const corpora::Manifest manifest = corpora::load_manifest();
    if (list_command->parsed()) return list(manifest);
    if (names.empty()) return usage_error("fetch needs at least one corpus name");
    corpora::FetchOptions options = corpora::default_fetch_options();
    if (cache) options.cache_dir = *cache;
    options.allow_download = download;
    if (!mirrors.empty()) options.mirrors = mirrors;
    return fetch(manifest, names, options);
  } catch (const std::invalid_argument& e) {
    return usage_error(e.what());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gcbench-corpus: %s\n", e.what());
    return 1;
  }
}
