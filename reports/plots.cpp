#include "reports/plots.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <fmt/format.h>

#include <cerrno>
#include <fstream>

#include <nlohmann/json.hpp>

extern char** environ;

namespace gcbench::reports {
namespace fs = std::filesystem;
using json = nlohmann::json;
namespace {

// Runs a program found on PATH and returns its exit status, or -1 when it could not be run.
// `quiet` sends its output to /dev/null; otherwise it shares ours.
int run_program(const std::vector<std::string>& argv, bool quiet) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (quiet) {
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  }
  pid_t pid = 0;
  const int rc = ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return -1;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

fs::path manifest_of(const fs::path& report_dir, const std::string& corpus) {
  return report_dir / corpus / "plots" / "plots.manifest";
}

std::optional<json> read_manifest(const fs::path& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  json doc = json::parse(in, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return std::nullopt;
  return doc;
}

void remove_earlier_plots(const fs::path& report_dir, const std::string& corpus) {
  const fs::path manifest = manifest_of(report_dir, corpus);
  if (const auto doc = read_manifest(manifest)) {
    for (const json& p : doc->value("plots", json::array())) {
      for (const char* key : {"svg", "png"}) {
        if (p.contains(key) && p[key].is_string()) {
          fs::remove(manifest.parent_path() / p[key].get<std::string>());
        }
      }
    }
  }
  fs::remove(manifest);
}

}  // namespace

std::optional<std::string> find_python_with_matplotlib(const std::vector<std::string>& candidates) {
  for (const std::string& python : candidates) {
    if (run_program({python, "-c", "import matplotlib"}, true) == 0) return python;
  }
  return std::nullopt;
}

PlotOutcome draw_plots(const PlotSetup& setup, const fs::path& report_dir,
                       const std::vector<std::string>& corpora) {
  PlotOutcome outcome;
  for (const std::string& corpus : corpora) remove_earlier_plots(report_dir, corpus);
  const auto python = find_python_with_matplotlib(setup.pythons);
  if (!python) {
    outcome.note = fmt::format(
        "no plots: no Python with matplotlib (tried {}; Debian: apt-get install "
        "python3-matplotlib)",
        fmt::join(setup.pythons, ", "));
    return outcome;
  }
  if (!fs::exists(setup.script)) {
    outcome.note = "no plots: the plot script " + setup.script.string() + " is missing";
    outcome.failed = true;
    return outcome;
  }
  std::vector<std::string> argv{*python, setup.script.string(), report_dir.string()};
  argv.insert(argv.end(), corpora.begin(), corpora.end());
  const int status = run_program(argv, false);
  if (status != 0) {
    outcome.note = fmt::format("plots failed: {} exited with status {}",
                               fmt::join(argv.begin(), argv.begin() + 2, " "), status);
    outcome.failed = true;
  }
  for (const std::string& corpus : corpora) {
    const auto doc = read_manifest(manifest_of(report_dir, corpus));
    if (!doc) continue;
    const fs::path rel = fs::path(corpus) / "plots";
    for (const json& p : doc->value("plots", json::array())) {
      outcome.made[corpus].push_back(
          Plot{p.value("title", ""), rel / p.value("svg", ""), rel / p.value("png", "")});
    }
    for (const json& s : doc->value("skipped", json::array())) {
      outcome.skipped[corpus].push_back(s.value("plot", "") + ": " + s.value("why", ""));
    }
  }
  return outcome;
}

}  // namespace gcbench::reports
