#pragma once
// Plots drawn by matplotlib: reports/plots/plot_results.py reads the CSV tables the report
// wrote for each corpus and leaves its images and a manifest in <report>/<corpus>/plots/:
// plots.manifest, JSON listing the plots made and those skipped with why (not named *.json: the
// report often lies inside the results it reads, bench/run_suite.sh's <out>/report, and every
// *.json there is read as a result file). Python is found at run time; without a python3 that
// imports matplotlib the report goes on without plots and says so.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "reports/python.hpp"
#include "reports/results.hpp"

namespace gcbench::reports {

using PlotSetup = PythonScript;  // plot_results.py, run by a Python that imports matplotlib

struct Plot {
  std::string title;
  std::filesystem::path svg, png;  // relative to the report directory
};

struct PlotOutcome {
  std::string note;     // why no plots were drawn ("" when the script ran)
  bool failed = false;  // the script ran and failed
  std::map<std::string, std::vector<Plot>> made;            // corpus -> plots
  std::map<std::string, std::vector<std::string>> skipped;  // corpus -> "plot: why"
};

// The first candidate that runs `import matplotlib` successfully.
std::optional<std::string> find_python_with_matplotlib(const std::vector<std::string>& candidates);

// The second line of every plot's title: the GPU and the git revision the results were
// measured with ("NVIDIA H100 80GB HBM3, rev 6723ce0"); "2 GPU models" or "mixed revisions"
// where they differ, "CPU only" for results without GPU cells.
std::string plot_title_note(const ResultSet& set);

// Removes the plots an earlier report listed in the corpora's manifests, then draws new ones,
// `title_note` under each title (none when empty).
PlotOutcome draw_plots(const PlotSetup& setup, const std::filesystem::path& report_dir,
                       const std::vector<std::string>& corpora, const std::string& title_note = "");

}  // namespace gcbench::reports
