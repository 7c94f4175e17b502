#include "reports/plots.hpp"

#include <fmt/format.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "reports/python.hpp"

namespace gcbench::reports {
namespace fs = std::filesystem;
using json = nlohmann::json;
namespace {

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
  return find_python_with(candidates, "matplotlib");
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
