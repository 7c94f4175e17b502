#pragma once
// Presets (`--preset NAME`): a declared sweep, made of steps that each name their codecs,
// device, direction, inputs and axis values. Its cells are the union of what the steps
// enumerate; flags may narrow it (corpora, files, codecs, device, direction) but never change its
// axes or sweep. The presets themselves are data declared by the studies (studies/); this is the
// engine that runs any of them.
#include <cstdint>
#include <string>
#include <vector>

#include "bench/driver/axes.hpp"
#include "bench/driver/cells.hpp"
#include "bench/driver/inputs.hpp"
#include "bench/driver/options.hpp"

namespace gcbench::driver {

// Corpus names of a preset's inputs and steps: the synthetic inputs, and TPC-H's columns at the
// run's scale factor (preset_inputs()).
inline const std::string kSyntheticCorpus = "synthetic";
inline const std::string kTpchCorpus = "tpch";

struct PresetStep {
  std::string purpose;  // what it measures: the tables it feeds
  // Input corpora (InputFile::corpus) it runs on; empty: all.
  std::vector<std::string> corpora = {};
  bool first_file_only = false;       // only the first present file of each of those corpora
  std::uint64_t min_input_bytes = 0;  // only inputs larger than this
  std::vector<std::string> codecs;    // codec names, or "all"; ones this build lacks are skipped
  std::string device = "all";         // cpu | gpu | all
  std::string direction = "all";      // compress | decompress | all
  AxisValues axes = {};               // every other axis at the codec's default
  std::string sweep = "defaults";     // how the axes not named are visited
  // Only inputs of these names (InputFile::name); empty: every input of its corpora.
  std::vector<std::string> files = {};
};

struct Preset {
  std::string name;
  std::string summary;              // one line for --help and the plan
  std::vector<std::string> inputs;  // --corpus specs: corpora and synthetic inputs
  std::vector<PresetStep> steps;
  std::string timing = "all";  // --timing's value unless the flag is given
};

// The preset of `presets` named so; std::invalid_argument listing them otherwise.
const Preset& find_preset(const std::vector<Preset>& presets, const std::string& name);

// std::invalid_argument when `options` (those given on the command line
// beside --preset) contradict it: an axis flag, --sweep, or a corpus or codec it does not run.
void check_preset_options(const Preset& preset, const Options& options);

// The --corpus specs the preset gathers: all of its inputs, or those --corpus names ("synthetic"
// names its synthetic inputs, "tpch" or tpch-sf<scale> its TPC-H columns). TPC-H's columns are
// tpch-sf1 where the run has GPU cells (`gpu_cells`), else tpch-sf0.01 (a CPU run, as in CI),
// unless --corpus names a scale factor.
std::vector<std::string> preset_inputs(const Preset& preset, const Options& options,
                                       bool gpu_cells);

// Every cell of the preset over `inputs` for the `selected` codecs (those --codecs and --device
// kept and this machine can run), each once, grouped by input in step order.
std::vector<CellSpec> preset_cells(const Preset& preset, const std::vector<const Codec*>& selected,
                                   const std::vector<const Codec*>& all,
                                   const std::vector<InputFile>& inputs, const Options& options);

// What GPU cells time (--timing): the flag's value when given, else the preset's (`preset` may
// be null: no preset), else the default.
std::string run_timing(const Preset* preset, const Options& options);

// Lines for --help: each preset, its summary and steps.
std::string describe_presets(const std::vector<Preset>& presets);

}  // namespace gcbench::driver
