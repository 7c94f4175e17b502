#include "bench/driver/run_summary.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "src/results/counters.hpp"
#include "src/results/result_document.hpp"

namespace gcbench::driver {
namespace {

constexpr const char* kPrefix = "[gcbench] ";

std::string value_of(const ContextEntries& context, const std::string& key) {
  const auto it = std::find_if(context.begin(), context.end(),
                               [&](const auto& entry) { return entry.first == key; });
  return it == context.end() ? "" : it->second;
}

// `text` as one line of at most `width` columns, its end cut with "...".
std::string fitted(const std::string& text, std::size_t width) {
  if (text.size() <= width) return text;
  return text.substr(0, width - 3) + "...";
}

// The first word of a context value ("no: warm, ..." -> "no").
std::string first_word(const std::string& value) {
  return value.substr(0, value.find_first_of(":, "));
}

std::string gpu_line(const RunFacts& facts) {
  const ContextEntries& c = facts.context;
  const std::string gpu = value_of(c, "gpu");
  if (gpu.empty() || gpu.starts_with("none")) {
    return fmt::format("{}GPU {}{}", kPrefix, gpu.empty() ? "none" : gpu,
                       facts.gpu_cells_dropped ? " (its GPU cells are not run)" : "");
  }
  std::string line = fmt::format("{}GPU {}", kPrefix, gpu);
  for (const auto& [key, label] :
       {std::pair{"nvidia_driver_version", "driver"}, std::pair{"cuda_runtime_version", "CUDA"}}) {
    const std::string value = value_of(c, key);
    if (!value.empty() && !value.starts_with("unavailable"))
      line += fmt::format(", {} {}", label, value);
  }
  for (const auto& [key, label] :
       {std::pair{"copy_gbps", "copy"}, std::pair{"h2d_pinned_gbps", "H2D pinned"}}) {
    const std::string value = value_of(c, key);
    if (!value.empty()) line += fmt::format(", {} {} GB/s", label, value);
  }
  return line +
         fmt::format("; L2 {}, timing {}",
                     first_word(value_of(c, results::counter::kColdL2)) == "no" ? "warm" : "cold",
                     first_word(value_of(c, "timing")));
}

}  // namespace

std::vector<std::string> run_summary(const RunFacts& facts, std::size_t width) {
  const ContextEntries& c = facts.context;
  std::string build =
      fmt::format("{}gcbench {} {} ({}); CPU {}, cores {}", kPrefix, value_of(c, "gcbench_version"),
                  value_of(c, "git_revision"), value_of(c, "build_type"), value_of(c, "cpu_model"),
                  value_of(c, "cpu_affinity"));
  if (value_of(c, "cpu_virtualized").starts_with("yes")) build += ", virtualized";
  const std::string preset = value_of(c, "preset");
  const std::string where =
      facts.out_dir ? "the whole context (" + std::to_string(c.size()) +
                          " entries: versions, clocks, defaults) goes to " +
                          facts.out_dir->string() + "'s JSON"
                    : "the whole context goes to the JSON of --out-dir or --benchmark_out";
  const std::string what =
      fmt::format("{}{}{} cells of {} on {} inputs ({}); {}", kPrefix,
                  preset.empty() ? "" : "preset " + preset + ": ", facts.cells,
                  fmt::join(facts.codecs, ","), facts.inputs, value_of(c, "corpora"), where);
  return {fitted(build, width), fitted(gpu_line(facts), width), fitted(what, width)};
}

std::string missing_inputs_line(const std::vector<MissingInput>& missing, std::size_t width) {
  if (missing.empty()) return "";
  // Files of one reason together, in the order first seen.
  std::vector<std::pair<std::string, std::vector<std::string>>> by_reason;
  std::size_t skipped = 0;
  for (const MissingInput& m : missing) {
    const bool on_purpose = results::is_skipped_reason(m.reason);
    skipped += on_purpose ? 1 : 0;
    const std::string reason =
        on_purpose ? m.reason.substr(std::string(results::kSkippedReasonPrefix).size()) : m.reason;
    auto group = std::find_if(by_reason.begin(), by_reason.end(),
                              [&](const auto& g) { return g.first == reason; });
    if (group == by_reason.end()) group = by_reason.insert(by_reason.end(), {reason, {}});
    group->second.push_back(m.corpus + "/" + m.name);
  }
  const std::string what = skipped == missing.size() ? "skipped"
                           : skipped == 0            ? "not available"
                                                     : "skipped or not available";
  std::vector<std::string> groups;
  for (const auto& [reason, files] : by_reason)
    groups.push_back(fmt::format("{} ({})", fmt::join(files, ", "), reason));
  const std::string line =
      fmt::format("{}{} input{} {}: {}", kPrefix, missing.size(), missing.size() == 1 ? "" : "s",
                  what, fmt::join(groups, "; "));
  if (line.size() <= width) return line;
  const std::string rest = " ... (the JSON's context has each)";
  return line.substr(0, width - rest.size()) + rest;
}

}  // namespace gcbench::driver
