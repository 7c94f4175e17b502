#include "reports/plots.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>

#include <nlohmann/json.hpp>

#include "reports/python.hpp"
#include "src/results/cell_name.hpp"

namespace gcbench::reports {
namespace fs = std::filesystem;
using json = nlohmann::json;
namespace {

fs::path manifest_of(const fs::path& report_dir, const std::string& corpus) {
  return report_dir / results::folder_name(corpus) / "plots" / "plots.manifest";
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
        // Only a plot's own file name: a manifest is a file of the folder, and may be damaged.
        if (p.contains(key) && p[key].is_string() &&
            results::is_plain_file_name(p[key].get<std::string>())) {
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

std::string plot_title_note(const ResultSet& set) {
  const auto values = [&](const char* key) {
    const auto it = set.context_values.find(key);
    return it == set.context_values.end() ? std::set<std::string>{} : it->second;
  };
  // The models the GPU cells record; for older results, the contexts' (merged shards from
  // several machines name them all in merged_differs:gpu).
  std::set<std::string> models;
  bool gpu_cells = false;
  for (const Measurement& m : set.cells) {
    if (m.id.device != "gpu") continue;
    gpu_cells = true;
    if (m.gpu) models.insert(gpu_model_of(m));
  }
  if (gpu_cells && models.empty()) {
    for (const std::string& gpu : values("gpu")) {
      if (!gpu.starts_with("none")) models.insert(gpu);
    }
    for (const std::string& differs : values("merged_differs:gpu")) {
      std::size_t at = 0;
      while (at < differs.size()) {
        const std::size_t bar = std::min(differs.find(" | ", at), differs.size());
        models.insert(differs.substr(at, bar - at));
        at = bar + 3;
      }
    }
  }
  std::string note = !gpu_cells           ? "CPU only"
                     : models.empty()     ? "unknown GPU"
                     : models.size() == 1 ? *models.begin()
                                          : fmt::format("{} GPU models", models.size());
  // gcbench-report --merge-shards --allow-different-revisions records "mixed (...): a | b".
  const std::set<std::string> revisions = values("git_revision");
  if (revisions.size() > 1 || (revisions.size() == 1 && revisions.begin()->starts_with("mixed"))) {
    note += ", mixed revisions";
  } else if (revisions.size() == 1) {
    note += ", rev " + *revisions.begin();
  }
  return note;
}

PlotOutcome draw_plots(const PlotSetup& setup, const fs::path& report_dir,
                       const std::vector<std::string>& corpora, const std::string& title_note) {
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
  std::vector<std::string> argv{*python, setup.script.string()};
  // One argument, "=" joined: a note beginning with "-" is not read as an option.
  if (!title_note.empty()) argv.push_back("--title-note=" + title_note);
  argv.push_back("--");  // what follows is positional, whatever it begins with
  argv.push_back(report_dir.string());
  // The script reads and writes each corpus's folder (results::folder_name) and names the
  // corpus by it.
  for (const std::string& corpus : corpora) argv.push_back(results::folder_name(corpus));
  const int status = run_program(argv, false);
  if (status != 0) {
    outcome.note = fmt::format("plots failed: {} exited with status {}",
                               fmt::join(argv.begin(), argv.begin() + 2, " "), status);
    outcome.failed = true;
  }
  for (const std::string& corpus : corpora) {
    const auto doc = read_manifest(manifest_of(report_dir, corpus));
    if (!doc) continue;
    const fs::path rel = fs::path(results::folder_name(corpus)) / "plots";
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
