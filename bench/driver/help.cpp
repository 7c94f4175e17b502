#include "bench/driver/help.hpp"

#include <fmt/format.h>

#include <benchmark/benchmark.h>

#include "bench/driver/axes.hpp"
#include "bench/driver/options.hpp"
#include "bench/driver/presets.hpp"
#include "gcbench/registry.hpp"
#include "src/results/counters.hpp"

namespace gcbench::driver {
namespace {

// The counters' names after `lead`, wrapped at 95 columns as the help's prose is.
std::string counter_names(const std::string& lead) {
  std::string text = lead, line = lead;
  for (const results::CounterSpec& c : results::counter_table()) {
    const std::string word =
        std::string(c.name) + (&c == &results::counter_table().back() ? "." : ",");
    if (line.size() + 1 + word.size() > 95) {
      text += "\n";
      line.clear();
    } else {
      text += " ";
      line += " ";
    }
    text += word;
    line += word;
  }
  return text + "\n";
}

std::string axis_range(const AxisSpec& a) {
  if (!a.names.empty()) return fmt::format("{}", fmt::join(a.names, "|"));
  if (!a.allowed.empty()) return fmt::format("{}", fmt::join(a.allowed, "|"));
  return fmt::format("{}..{}", a.min, a.max);
}

}  // namespace

void print_help(std::ostream& out, const std::vector<Preset>& presets) {
  std::vector<std::string> preset_names;
  for (const Preset& p : presets) preset_names.push_back(p.name);
  out << fmt::format(
      R"(gcbench: measures lossless codecs on CPU and GPU, compressing and decompressing corpus
files, every output verified. One Google Benchmark per cell, named
  <codec>/<device>/<compress|decompress>/<corpus>/<file>/<axis>:<value>/...

usage: gcbench [flags] [PATH...]
  gcbench --corpus canterbury --codecs fl,zlib --device cpu    a first CPU sweep
  gcbench --preset quick --out-dir results                     each codec on a file per corpus
  gcbench-report results                                       tables and plots of the results

What to measure
  --corpus LIST         canterbury (default), calgary, silesia, prague, tpch-sf0.01|1|10,
                        synthetic:<kind>:<size>[:<width>], concat:<corpus>, path:<PATH>
  PATH...               your own files and folders (--include, --exclude GLOBS; --as NAME)
  --files LIST          only these files of the chosen corpora
  --codecs LIST         names from --list, or all (default), cpu, gpu, peers, baselines
  --device cpu|gpu|all  and --direction compress|decompress|all (default all)
  --<axis> LIST         values of a codec's axis, e.g. --level 1,9 --element-width 4 (--list)
  --sweep axes|product|defaults
                        the points of the default axis sweeps a codec visits (default axes)
  --preset NAME         a declared sweep: {} (--help-all: their steps)
  --plugin FILE,...     codecs from shared libraries (include/gcbench/plugin.h)

Results
  --out-dir DIR         one JSON per corpus file, written after every cell; a rerun resumes
  --export DIR          export what DIR holds to --benchmark_out=FILE and run nothing
  --benchmark_out=FILE  with --out-dir or --export: FILE gets the folder's export, as
                        --benchmark_out_format=json|csv|jsonl (or FILE's .csv, .jsonl): csv and
                        jsonl give one row per cell with its counters and noise
  --harness-file FILE   append the run's timed and wall seconds and peak memory to FILE

How to run
  --timing all|kernel   GPU cells: the device call and the end-to-end paths, or the call alone
  --cold-l2             flush the GPU's L2 cache before every timed call
  --gpus all|LIST       one worker per GPU of this host (needs --out-dir); --gpu-replicas
  --shard K/N           the K-th of N parts of the sweep (Slurm and Kubernetes arrays: automatic)
  --no-download         corpus files in no mirror or cache are missing, not fetched
  --no-progress         no progress line on stderr
  --call-limit SECONDS  a cell silent this long is hung: failed, the run goes on (600);
                        cells run in a supervised worker (--no-isolation: in this process)
  --allow-empty         a run that selects no cell exits 0, not 2

Google Benchmark flags (each one argument, with '=')
  --benchmark_filter=REGEX      only the cells whose names match
  --benchmark_repetitions=N     repeat each cell; results give the spread (cv)
  --benchmark_min_time=SECONDS  timed seconds per cell at least (default 0.02{}); Nx: N calls
  --benchmark_list_tests=true   print the cells' names and run nothing

Information
  --list                the codecs, their axes and defaults
  -h, --help            this help
  --help-all            every flag in full, the presets' steps, counters and timing
  --counters            every counter a result entry may carry: unit, cells, meaning
  --counters-python     the same names as a Python module (reports/plots/counters.py)
  --version             revision, build type, CUDA, nvCOMP and the peers' library versions

Exit status: 0 done, 1 a cell failed (its error is printed; a codec that crashes, exits or
hangs fails its cell alone), 2 a usage error; 130 interrupted (--out-dir: the same command
resumes).
)",
      fmt::join(preset_names, ", "), GCBENCH_BENCHMARK_MIN_TIME_SUFFIX);
}

void print_full_help(std::ostream& out, const std::vector<const Codec*>& codecs,
                     const std::vector<Preset>& presets) {
  out << R"(gcbench: sweeps codecs x devices x directions x corpus files x parameter points, one
Google Benchmark per cell named
  <codec>/<device>/<compress|decompress>/<corpus>/<file>/<axis>:<value>/...
Every cell decompresses its result and compares it with the input (and a GPU container with
the CPU reference's) outside the timed region; a mismatch is an error, never a number.
-h and --help print the short help, --help-all this one, --version what this gcbench was built
from and with; each answers at once, whatever else is given.
)" << describe_flags(codecs);
  out << R"(Without an axis flag a sweep visits the axis's default, and for these axes also
(one at a time, or in every combination with --sweep product):
)" << describe_default_sweeps()
      << R"(
Run-time choices: an axis value left to the codec (lz77 GPU --design auto, the default: per
finder, the fastest design whose container equals the CPU reference's, each design timed once
on a 4 MiB sample on this GPU) is chosen before the first cell runs, printed, recorded in the
results' context as auto:<codec>/<device>/<axes> and as the label of each of its cells. The
cell names keep "design:auto". Without a GPU nothing is calibrated (GPU cells do not run).

Presets (--preset NAME):
)" << describe_presets(presets)
      << R"(
Timing: CPU cells report wall time; GPU cells report the kernel time from CUDA events as
manual time. Each cell makes one untimed call first: it warms up, and its output is verified in
full (GPU cells with a device API: the device call, then the end-to-end path once). Then it
takes timed calls (samples) until the relative standard error of their mean is under
--max-error (1% GPU, 3% CPU), with at least 5 calls and --benchmark_min_time=0.02)" GCBENCH_BENCHMARK_MIN_TIME_SUFFIX
         R"( of timed
seconds, or until --max-time of wall time is spent; the cell's time is their mean (one Google
Benchmark iteration). Every timed call's output is compared with the verified one. A GPU cell
also times its end-to-end paths (pinned and pageable host memory) in every repetition: the
median of calls over 0.2 s (at most 20), a first untimed call's output and the last's checked.
)" << counter_names("Counters (--counters: each one's unit, cells, meaning; --counters-python):")
      << R"(
At its end a run prints its harness share, timed seconds / wall seconds, per codec, device
and direction too, and its peak RSS (also recorded in the results' context as
peak_rss_bytes, harness_timed_s, harness_wall_s). Timed seconds: for every cell, the
seconds inside the timed regions whose measurements it reports - its samples (sampled_s; CPU:
wall time, GPU: kernel time from CUDA events), plus its end-to-end runs where it reports their
sum (counter e2e_timed_s). Warm-up calls, set-up, verification, corpus fetching and the GPU
probe are not timed. Wall seconds: the whole run, start to results written.

The console shows one row per cell in human units (its codec, device, direction, input and
the axes off their defaults); result files keep the full names and Google Benchmark's times in
nanoseconds (its compare.py reads them). Google Benchmark flags (filtering, repetitions,
output files) work as usual (--benchmark_out=FILE --benchmark_out_format=json|csv for files;
with --out-dir or --export, the folder's export: json, csv or jsonl, see --export):
)";
  out.flush();  // Google Benchmark prints its part with printf
  benchmark::PrintDefaultHelp();
}

void print_codec_list(std::ostream& out, const std::vector<const Codec*>& codecs) {
  for (const Codec* c : codecs) {
    const CodecInfo& info = c->info();
    out << info.name << " (" << to_string(info.device) << ", version " << info.version
        << "): " << info.description << "\n";
    for (const AxisSpec& a : info.axes) {
      out << "    " << axis_flag(a.name) << "  default " << a.format(a.default_value) << ", "
          << axis_range(a) << (a.in_container ? ", shapes the container" : ", speed only") << ": "
          << a.help << "\n";
    }
  }
  for (const UnavailableCodec& u : unavailable_codecs()) {
    out << u.name << ": not in this build: " << u.reason << "\n";
  }
}

}  // namespace gcbench::driver
