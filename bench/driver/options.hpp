#pragma once
// gcbench's own command-line flags (those left after Google Benchmark has taken its own).
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bench/driver/gpus.hpp"
#include "bench/driver/inputs.hpp"
#include "gcbench/registry.hpp"
#include "src/cli/given_flag.hpp"
#include "src/results/shard_plan.hpp"

namespace gcbench::driver {

struct Options {
  std::vector<std::string> corpora{"canterbury"};
  std::vector<std::string> files;  // empty: every file of the chosen corpora
  // The user's files and folders (positional arguments); with them the default corpus is
  // none. Kept apart from `corpora` because a path may hold a comma.
  std::vector<std::string> paths;
  // Codec plugins (--plugin): main() loads them before the flags are parsed (plugin_arguments),
  // so that --help and --list show their codecs; parsed here as a flag like the others.
  std::vector<std::string> plugins;
  PathFilter path_filter;                  // --include, --exclude, --as
  std::vector<std::string> codecs{"all"};  // codec names and groups (all, cpu, gpu)
  std::string device = "all";              // cpu | gpu | all
  std::string direction = "all";           // compress | decompress | all
  // Axis name (dashes turned into underscores) -> the values given, as typed.
  std::map<std::string, std::vector<std::string>> axis_values;
  // -e (lzbench's syntax): each codec's own levels, by codec name; a codec listed without
  // levels takes its default (or --level).
  std::map<std::string, std::vector<std::string>> codec_levels;
  std::optional<std::filesystem::path> out_dir;  // one JSON per corpus file, resumable
  // Exports the results recorded under this directory to --benchmark_out; runs nothing.
  std::optional<std::filesystem::path> export_from;
  // Which points of the axes' default sweeps a codec visits (see axes.hpp): axes, product,
  // defaults. Axes given as flags always take exactly the values given.
  std::string sweep = "axes";
  bool download = true;  // false: corpus files in no mirror or cache are missing, not fetched
  // Appends one line with the run's harness figures (harness.hpp) when set.
  std::optional<std::filesystem::path> harness_file;
  // GPU cells of a codec without a device API (timed through its host calls) take this many
  // samples. GPU codecs with a device API time their device calls alone under the stopping
  // rule; the pipeline settings shape their end-to-end (pipelined) measurement.
  int gpu_iterations = 10;
  // The stopping rule's flags (sampler.hpp), as given: "GPU[,CPU]" percent, wall seconds.
  std::optional<std::string> max_error;
  std::optional<double> max_time;
  std::uint64_t pipeline_chunk = 0;  // 0: each codec's (CodecInfo::pipeline_chunk_bytes)
  int pipeline_depth = 4;
  std::uint64_t gpu_memory_limit = 0;  // 0 = none
  // End-to-end cells write one more call's timeline per path here (pipeline_timeline.hpp).
  std::optional<std::filesystem::path> pipeline_timeline;
  // GPU cells with a device API flush the L2 cache before every timed call (small inputs
  // would otherwise be read from L2, warm, after the first call).
  bool cold_l2 = false;
  // Which timings GPU cells measure: all (the device call alone and the end-to-end paths from
  // pinned and pageable memory) or kernel (the device call alone; no end-to-end paths, nor
  // their host buffers). A preset may set it; the flag, when given, wins.
  std::string timing = "all";
  bool list = false;
  bool allow_empty = false;  // --allow-empty: a run that measures nothing is no error
  bool progress = true;
  // Cells run in a supervised worker (supervision.hpp); --no-isolation runs them here. The
  // supervisor reads both flags from the arguments before this parse.
  bool isolation = true;
  double call_limit_s = 600;
  std::optional<std::string> preset;    // a declared sweep (presets.hpp)
  std::optional<results::Shard> shard;  // --shard K/N (shard.hpp); else from the environment
  std::optional<GpuRequest> gpus;       // --gpus all|LIST: one worker per GPU (gpus.hpp)
  bool gpu_replicas = false;  // with --gpus: every GPU runs all of the GPU cells (gpus.hpp)
  // Set by --gpus for the workers that share its CPU cells (cell_queue.hpp): the claim folder,
  // and the folder whose recorded cells this worker skips besides its own.
  std::optional<std::filesystem::path> claim_dir;
  std::optional<std::filesystem::path> also_recorded;
  // The gcbench flags given, with their values: presets check them, --gpus passes them on.
  std::vector<cli::GivenFlag> given_flags;

  bool was_given(const std::string& flag) const;  // "--sweep"
};

// Parses the driver's own flags and a `--<axis> LIST` flag for every axis of `codecs` (checked
// against the selected codecs later), as `--name=value` or `--name value`. Throws
// std::invalid_argument: one line naming the flag and what it allows, or the flags that cannot
// go together.
// The files of every --plugin in `args` (--plugin FILE,... or --plugin=FILE,...).
std::vector<std::string> plugin_arguments(const std::vector<std::string>& args);

Options parse_options(const std::vector<std::string>& args,
                      const std::vector<const Codec*>& codecs = registered_codecs());

// Flags the driver answers before any other, and exits: -h, --help, --help-all, --counters,
// --version.
inline const std::vector<std::string> kInformationFlags = {
    "-h", "--help", "--help-all", "--counters", "--counters-python", "--version"};

// Google Benchmark's flags (its --help lists them), which its Initialize takes before
// parse_options sees the rest.
extern const std::vector<std::string> kBenchmarkFlags;

// Every flag the driver knows: its own, the axis flags of `codecs`, kInformationFlags and
// kBenchmarkFlags ("did you mean" suggests among them).
std::vector<std::string> known_flags(const std::vector<const Codec*>& codecs);

// The flags part of --help: the same definitions that parse_options reads.
std::string describe_flags(const std::vector<const Codec*>& codecs);

// The corpora a plain run gathers: --corpus (its default only without paths) and a
// "path:<PATH>" entry per path given.
std::vector<std::string> input_corpora(const Options& options);

// "work_items" -> "--work-items".
std::string axis_flag(const std::string& axis);

}  // namespace gcbench::driver
