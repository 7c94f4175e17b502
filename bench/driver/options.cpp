#include "bench/driver/options.hpp"

#include "bench/driver/inputs.hpp"
#include "bench/driver/shard.hpp"
#include "src/cli/command_line.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>
#include <stdexcept>

namespace gcbench::driver {
namespace {

constexpr const char* kOwnFlags =
    "gcbench flags (--flag=value or --flag value; lists are comma-separated)";
constexpr const char* kAxisFlags =
    "Axis flags (--<axis> LIST: values of an axis, for every selected codec that has it)";

// One call per flag: its name, what it takes, where it goes, its help.
void add_own_flags(CLI::App& app, Options& o) {
  cli::add_value(
      app, "--preset", "NAME", [&o](const std::string& v) { o.preset = v; },
      R"(a declared sweep (see Presets below): its inputs, codecs, axes and
steps. --corpus (of its corpora; "synthetic" for its synthetic inputs),
--files, --codecs, --device and --direction narrow it; axis flags and
--sweep contradict it and are an error. It prints its estimated time
before it starts and the time it took at the end)");
  cli::add_list(app, "--corpus", o.corpora,
                R"(corpora (default canterbury); also synthetic:<kind>:<size>[:<width>],
e.g. synthetic:runs:64MiB or synthetic:small_ints:1GiB:4 (kinds: runs,
small_ints, sorted_keys, random_bytes, all_equal; width 1, 2 or 4, the
integer view the data is generated in, default 1). Runs of a chosen
length: runs-geo<mean> (geometric lengths) or runs-uni<mean> (uniform
on 1..2*mean-1), e.g. synthetic:runs-geo64:1GiB:4; runs is runs-geo8.
Seeded: the same name gives the same bytes. concat:<corpus>, the
corpus's available files back to back as one input. path:<PATH>, your
own file or folder (as the PATH arguments, below))");
  cli::add_list(app, "--files", o.files, "only these files of the chosen corpora");
  app.add_option("paths", o.paths,
                 R"(your own files and folders (gcbench [flags] PATH...; --corpus
path:PATH does the same where a list is wanted): folders are walked
recursively, each regular file is one input named by its path relative
to the folder, in a corpus named after the folder (files given one by
one: corpus "files"). Special files, symlink loops and broken links
are skipped with the reason; a file found twice is measured once.
Every file's SHA-256 is recorded; a rerun into the same --out-dir
measures a changed file again. A .npy file is read as its array: its
dtype's width is the element_width of the codecs that have that axis
(unless --element-width is given); a raw file takes --element-width.
Without --corpus, only the paths are measured)")
      ->option_text("PATH...");
  cli::add_list(app, "--include", o.path_filter.include,
                R"(globs: of a folder's files, only those matching one (on the path
relative to the folder, or on the file name for a glob without '/'))");
  cli::add_list(app, "--exclude", o.path_filter.exclude,
                "globs: a folder's files and subfolders to leave out (as --include)");
  cli::add_value(
      app, "--as", "NAME",
      [&o](const std::string& v) {
        if (v.empty() || v.find('/') != std::string::npos)
          throw std::invalid_argument("needs a name without '/'");
        o.path_filter.corpus_name = v;
      },
      "the corpus name of the paths given (default: the folder's base name)");
  cli::add_list(app, "--codecs", o.codecs,
                R"(codec names and groups: all (default), cpu, gpu, peers, baselines,
or a name from --list)");
  cli::add_choice(app, "--device", o.device, {"cpu", "gpu", "all"},
                  "default all; GPU cells run only when a GPU is usable");
  cli::add_choice(app, "--direction", o.direction, {"compress", "decompress", "all"},
                  "default all");
  cli::add_value(
      app, "--out-dir", "DIR",
      [&o](const std::string& v) {
        if (v.empty()) throw std::invalid_argument("needs a directory");
        o.out_dir = v;
      },
      R"(one JSON per corpus file (DIR/<corpus>/<file>.json, Google Benchmark
format), written after every cell, each entry with its provenance
(git revision, build type, codec version, GPU UUID, cold L2); a rerun skips
the cells recorded under the same and measures the others again,
saying why. One run per DIR at a time (a lock names the holder).
With --benchmark_out=FILE: FILE gets every cell recorded under DIR
(not this run's cells alone), as --export DIR writes it)");
  cli::add_value(
      app, "--export", "DIR",
      [&o](const std::string& v) {
        if (v.empty()) throw std::invalid_argument("needs a directory");
        o.export_from = v;
      },
      R"(export the results recorded under DIR (its *.json files) as one
Google Benchmark JSON file, --benchmark_out=FILE, and run nothing;
readers of DIR skip that file if it lies inside. To merge the shard
folders of one sweep into one folder: gcbench-report --merge-shards)");
  cli::add_choice(app, "--sweep", o.sweep, {"axes", "product", "defaults"},
                  R"(which points of the default axis sweeps (below) a codec visits;
axes given as flags always take every combination of their values:
  axes (default; the main job): each default sweep on its own, the
    other axes at their defaults - every point the report's tables read
  product: every combination of the default sweeps (the full sweep,
    e.g. fl: 3 element widths x 3 frame sizes = 9 points, not 5)
  defaults: each codec at its default point only)");
  cli::add_value(
      app, "--shard", "K/N", [&o](const std::string& v) { o.shard = parse_shard(v); },
      R"(run the K-th of N parts of the sweep (1 <= K <= N): a split by
expected cost that depends on the cell list alone, so N machines
share one sweep; DIR/gcbench.plan records it for gcbench-report
--merge-shards. Without it, a Slurm job array task
(SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT) or a Kubernetes Indexed
Job pod (JOB_COMPLETION_INDEX, with GCBENCH_SHARD_COUNT set to the
job's completions) runs its own shard and says so; --shard 1/1 runs all)");
  cli::add_value(
      app, "--gpus", "all|LIST", [&o](const std::string& v) { o.gpus = parse_gpus(v); },
      R"(every GPU of this host at once (LIST: indices as nvidia-smi numbers
them, PCI bus order, e.g. 0,2): one worker process per GPU runs its
share of the GPU cells (--shard k/N over them) and one more the CPU
cells, each pinned to its own cores (a GPU worker gets cores/(GPUs+1),
at most 10; the CPU worker the rest, so CPU cells see fewer threads
than in a plain run: the context's cpu_affinity says how many). Needs
--out-dir DIR: workers record into DIR/.workers/<gpuI|cpu>, their lines
prefixed with the name, and are merged into DIR at the end (each GPU
cell's entry names its GPU: index, name, PCI bus id, UUID); the same
command resumes every worker. Not with --shard (or a Slurm/Kubernetes
shard) or --device cpu. --harness-file gets one line for the whole run:
the workers' timed seconds summed, the parent's wall time)");
  cli::add_switch(app, "--gpu-replicas", o.gpu_replicas, true,
                  R"(with --gpus: every named GPU runs all of the sweep's GPU cells (not a
share of them), to measure GPU-to-GPU spread; CPU cells run once. Each
GPU's entries of a cell are kept, told apart by their gpu record, and
gcbench-report shows each GPU's kernel and end-to-end GB/s per cell
and their spread (max/min - 1). Takes GPUs x the GPU cells' time)");
  cli::add_choice(app, "--timing", o.timing, {"all", "kernel"},
                  R"(what GPU cells time: all (default: the device call alone, then the
end-to-end paths from pinned and pageable host memory and the
transfers) or kernel (the device call alone: no end-to-end paths and
none of their host buffers, so a cell of a 1 GiB input takes seconds
less; its results have no e2e_* or transfer_s counters and record
timing: kernel in their provenance, and a later run asking for all
measures them again). Every cell is verified in full either way. The
kernels preset uses kernel unless --timing is given)");
  cli::add_switch(app, "--no-download", o.download, false,
                  "corpus files in no mirror or cache are reported missing, not downloaded");
  cli::add_value(
      app, "--harness-file", "FILE",
      [&o](const std::string& v) {
        if (v.empty()) throw std::invalid_argument("needs a file name");
        o.harness_file = v;
      },
      R"(append this run's harness figures to FILE as one line of key=value
(timed_s, wall_s, setup_s, cells, peak_rss_bytes, largest_input_bytes))");
  cli::add_switch(app, "--list", o.list, true,
                  "print the codecs with their axes and defaults, and exit");
  cli::add_switch(app, "--no-progress", o.progress, false,
                  R"(no progress on stderr (on a terminal one line redrawn in place: cell k
of N, elapsed, time left, the cell; otherwise a line per cell))");
  app.add_option("--gpu-iterations", o.gpu_iterations,
                 R"(timed calls per GPU cell of a codec without a device API (nvCOMP;
default 10). Codecs with one time their device call alone on
resident buffers, as many times as Google Benchmark's min time asks)")
      ->check(CLI::Range(1, 1000000))
      ->option_text("N");
  cli::add_value(
      app, "--pipeline-chunk", "SIZE",
      [&o](const std::string& v) {
        o.pipeline_chunk = parse_size(v);
        if (o.pipeline_chunk == 0) throw std::invalid_argument("needs a size above 0");
      },
      "end-to-end path: bytes per chunk in flight (default 32MiB)");
  app.add_option("--pipeline-depth", o.pipeline_depth,
                 "end-to-end path: chunks in flight, one stream each (default 4)")
      ->check(CLI::Range(1, 64))
      ->option_text("N");
  cli::add_value(
      app, "--gpu-memory-limit", "SIZE",
      [&o](const std::string& v) { o.gpu_memory_limit = parse_size(v); },
      "end-to-end path: device memory it may hold; chunks shrink to fit");
  cli::add_switch(app, "--cold-l2", o.cold_l2, true,
                  R"(GPU cells flush the L2 cache before every timed device call (a read
of twice the L2 through a buffer allocated once per run, outside the
CUDA events), so that an input smaller than the L2 is not timed warm.
Recorded as the context's cold_l2 and each GPU cell's cold_l2 counter
(1 flushed, 0 warm). Without GPU cells: a note, and nothing flushed)");
}

// One `--<axis> LIST` flag per axis of `codecs`, its help naming the codecs that have it. Where
// codecs give an axis different meanings (lz77's decode_mode: parallel or sequential on the
// CPU, auto, block, chunk or jump on the GPU), the help gives each, one line per codec.
void add_axis_flags(CLI::App& app, Options& o, const std::vector<const Codec*>& codecs) {
  struct Meaning {
    std::string help;
    std::vector<std::string> codecs;  // "name (device)"
  };
  struct About {
    std::vector<Meaning> meanings;
    std::vector<std::string> owners;
  };
  const auto add_once = [](std::vector<std::string>& list, const std::string& item) {
    if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
  };
  std::map<std::string, About> axes;
  for (const Codec* c : codecs) {
    for (const AxisSpec& a : c->info().axes) {
      About& about = axes[a.name];
      auto meaning = std::find_if(about.meanings.begin(), about.meanings.end(),
                                  [&a](const Meaning& m) { return m.help == a.help; });
      if (meaning == about.meanings.end()) meaning = about.meanings.insert(meaning, {a.help, {}});
      add_once(meaning->codecs,
               fmt::format("{} ({})", c->info().name, to_string(c->info().device)));
      add_once(about.owners, c->info().name);
    }
  }
  for (const auto& [axis, about] : axes) {
    std::vector<std::string> lines;
    for (const Meaning& m : about.meanings) {
      lines.push_back(about.meanings.size() == 1
                          ? m.help
                          : fmt::format("{}: {}", fmt::join(m.codecs, ", "), m.help));
    }
    cli::add_list(app, axis_flag(axis), o.axis_values[axis],
                  fmt::format("{} [{}]", fmt::join(lines, "\n"), fmt::join(about.owners, ",")))
        ->group(kAxisFlags);
  }
}

std::unique_ptr<CLI::App> make_parser(Options& o, const std::vector<const Codec*>& codecs) {
  auto app = cli::make_app("gcbench", "", "");
  app->set_help_flag();  // Google Benchmark's Initialize answers --help (help.cpp)
  app->option_defaults()->group(kOwnFlags);
  add_own_flags(*app, o);
  add_axis_flags(*app, o, codecs);
  return app;
}

}  // namespace

std::string axis_flag(const std::string& axis) {
  std::string flag = axis;
  std::replace(flag.begin(), flag.end(), '_', '-');
  return "--" + flag;
}

Options parse_options(const std::vector<std::string>& args,
                      const std::vector<const Codec*>& codecs) {
  Options o;
  const std::unique_ptr<CLI::App> app = make_parser(o, codecs);
  cli::parse(*app, args);
  std::erase_if(o.axis_values, [](const auto& axis) { return axis.second.empty(); });
  o.given_flags = cli::given_flags(*app);
  // Positional: --gpus passes them on by themselves (worker_base_args), not as a flag.
  std::erase_if(o.given_flags, [](const cli::GivenFlag& g) { return g.flag == "paths"; });
  if (o.gpu_replicas && !o.gpus) {
    throw std::invalid_argument(
        "--gpu-replicas needs --gpus all|LIST: it runs the GPU cells on every GPU named there");
  }
  if (o.gpu_replicas && o.shard) {
    throw std::invalid_argument(
        "--gpu-replicas and --shard cannot be combined: every GPU runs all of the GPU cells");
  }
  return o;
}

std::vector<std::string> input_corpora(const Options& options) {
  std::vector<std::string> corpora;
  if (options.paths.empty() || options.was_given("--corpus")) corpora = options.corpora;
  for (const std::string& path : options.paths) corpora.push_back("path:" + path);
  return corpora;
}

bool Options::was_given(const std::string& flag) const {
  return std::any_of(given_flags.begin(), given_flags.end(),
                     [&](const cli::GivenFlag& given) { return given.flag == flag; });
}

std::string describe_flags(const std::vector<const Codec*>& codecs) {
  Options unused;
  return make_parser(unused, codecs)->help();
}

}  // namespace gcbench::driver
