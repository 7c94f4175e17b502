#include "bench/driver/presets.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <set>
#include <stdexcept>

#include "src/cli/suggest.hpp"

namespace gcbench::driver {
namespace {

const std::string kTpchPrefix = "tpch-sf";

std::vector<std::string> preset_names(const std::vector<Preset>& presets) {
  std::vector<std::string> names;
  for (const Preset& p : presets) names.push_back(p.name);
  return names;
}

[[noreturn]] void contradiction(const Preset& preset, const std::string& what) {
  throw std::invalid_argument(
      fmt::format("{} contradicts --preset {} (see --help)", what, preset.name));
}

// The preset's corpus of an input spec or corpus name: "synthetic" for synthetic:<...>, "tpch"
// for tpch-sf<scale>, else the spec.
std::string corpus_of(const std::string& spec) {
  if (spec.starts_with(kSyntheticCorpus + ":")) return kSyntheticCorpus;
  return spec.starts_with(kTpchPrefix) ? kTpchCorpus : spec;
}

bool contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

// The narrower of a step's device or direction and the command line's; "" when disjoint.
std::string narrow(const std::string& step, const std::string& flag) {
  if (step == "all") return flag;
  return flag == "all" || flag == step ? step : "";
}

bool names(const PresetStep& step, const std::string& codec) {
  return std::find(step.codecs.begin(), step.codecs.end(), "all") != step.codecs.end() ||
         std::find(step.codecs.begin(), step.codecs.end(), codec) != step.codecs.end();
}

}  // namespace

const Preset& find_preset(const std::vector<Preset>& presets, const std::string& name) {
  for (const Preset& p : presets) {
    if (p.name == name) return p;
  }
  const std::vector<std::string> names = preset_names(presets);
  throw std::invalid_argument(fmt::format("--preset: '{}' is not a preset{} (presets: {})", name,
                                          cli::did_you_mean(name, names), fmt::join(names, ", ")));
}

void check_preset_options(const Preset& preset, const Options& options) {
  if (!options.axis_values.empty()) {
    contradiction(preset,
                  axis_flag(options.axis_values.begin()->first) + " (a preset sets every axis)");
  }
  if (options.was_given("--sweep")) contradiction(preset, "--sweep (a preset sets its sweep)");
  if (options.was_given("--corpus")) {
    std::set<std::string> runs;
    for (const std::string& spec : preset.inputs) runs.insert(corpus_of(spec));
    for (const std::string& corpus : options.corpora) {
      if (!runs.count(corpus_of(corpus))) {
        contradiction(preset,
                      fmt::format("--corpus {} (it runs {})", corpus, fmt::join(runs, ",")));
      }
    }
  }
  for (const std::string& codec : options.codecs) {
    static const std::set<std::string> groups = {"all", "cpu", "gpu", "peers", "baselines"};
    if (groups.count(codec)) continue;
    if (std::none_of(preset.steps.begin(), preset.steps.end(),
                     [&](const PresetStep& s) { return names(s, codec); })) {
      contradiction(preset, "--codecs " + codec + " (a codec it does not run)");
    }
  }
}

std::vector<std::string> preset_inputs(const Preset& preset, const Options& options,
                                       bool gpu_cells) {
  const bool narrowed = options.was_given("--corpus");
  std::vector<std::string> specs;
  for (const std::string& spec : preset.inputs) {
    if (spec != kTpchCorpus) {
      if (!narrowed || contains(options.corpora, corpus_of(spec))) specs.push_back(spec);
      continue;
    }
    // The scale factors --corpus names, else the run's own where the run keeps TPC-H.
    std::vector<std::string> scales;
    if (narrowed) {
      std::copy_if(options.corpora.begin(), options.corpora.end(), std::back_inserter(scales),
                   [](const std::string& c) { return c.starts_with(kTpchPrefix); });
    }
    if (scales.empty() && (!narrowed || contains(options.corpora, kTpchCorpus)))
      scales.push_back(gpu_cells ? kTpchPrefix + "1" : kTpchPrefix + "0.01");
    specs.insert(specs.end(), scales.begin(), scales.end());
  }
  return specs;
}

std::vector<CellSpec> preset_cells(const Preset& preset, const std::vector<const Codec*>& selected,
                                   const std::vector<const Codec*>& all,
                                   const std::vector<InputFile>& inputs, const Options& options) {
  std::vector<CellSpec> cells;
  std::set<std::string> seen;
  for (const PresetStep& step : preset.steps) {
    Options o = options;
    o.device = narrow(step.device, options.device);
    o.direction = narrow(step.direction, options.direction);
    o.axis_values = step.axes;
    o.sweep = step.sweep;
    if (o.device.empty() || o.direction.empty()) continue;
    std::vector<const Codec*> codecs;
    for (const Codec* c : selected) {
      const Device d = c->info().device;
      if (names(step, c->info().name) && (o.device == "all" || o.device == to_string(d)))
        codecs.push_back(c);
    }
    std::vector<bool> runs(inputs.size());
    std::set<std::string> corpora_begun;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      const std::string& corpus = inputs[i].corpus;
      const bool in_corpora = step.corpora.empty() || contains(step.corpora, corpus_of(corpus));
      const bool in_files = step.files.empty() || contains(step.files, inputs[i].name);
      runs[i] = in_corpora && in_files && inputs[i].size > step.min_input_bytes &&
                (!step.first_file_only || corpora_begun.insert(corpus).second);
    }
    for (CellSpec& cell : enumerate_cells(codecs, all, inputs, o)) {
      if (runs[cell.input] && seen.insert(cell.name).second) cells.push_back(std::move(cell));
    }
  }
  // One input at a time, as a plain sweep runs: it is loaded once, its containers stay warm.
  std::stable_sort(cells.begin(), cells.end(),
                   [](const CellSpec& a, const CellSpec& b) { return a.input < b.input; });
  return cells;
}

std::string run_timing(const Preset* preset, const Options& options) {
  return options.was_given("--timing") || preset == nullptr ? options.timing : preset->timing;
}

std::string describe_presets(const std::vector<Preset>& presets) {
  std::string text;
  for (const Preset& p : presets) {
    text += fmt::format("    {}: {}\n", p.name, p.summary);
    for (const PresetStep& s : p.steps) {
      std::vector<std::string> axes;
      for (const auto& [axis, values] : s.axes)
        axes.push_back(fmt::format("{}={}", axis, fmt::join(values, ",")));
      if (s.first_file_only) axes.push_back("first file of each corpus");
      if (s.min_input_bytes > 0) axes.push_back(fmt::format("inputs over {} B", s.min_input_bytes));
      if (!s.files.empty()) axes.push_back(fmt::format("inputs {}", fmt::join(s.files, ",")));
      text += fmt::format("      - {} [{} on {}, {}{}{}]\n", s.purpose, fmt::join(s.codecs, ","),
                          s.device, s.direction, axes.empty() ? "" : "; ", fmt::join(axes, "; "));
    }
  }
  return text;
}

}  // namespace gcbench::driver
