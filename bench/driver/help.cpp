#include "bench/driver/help.hpp"

#include <fmt/format.h>

#include <benchmark/benchmark.h>

#include <map>
#include <set>

#include "bench/driver/axes.hpp"
#include "bench/driver/options.hpp"
#include "bench/driver/presets.hpp"
#include "gcbench/registry.hpp"

namespace gcbench::driver {
namespace {

std::string axis_range(const AxisSpec& a) {
  if (!a.names.empty()) return fmt::format("{}", fmt::join(a.names, "|"));
  if (!a.allowed.empty()) return fmt::format("{}", fmt::join(a.allowed, "|"));
  return fmt::format("{}..{}", a.min, a.max);
}

}  // namespace

void print_help(std::ostream& out, const std::vector<const Codec*>& codecs) {
  out << R"(gcbench: sweeps codecs x devices x directions x corpus files x parameter points, one
Google Benchmark per cell named
  <codec>/<device>/<compress|decompress>/<corpus>/<file>/<axis>:<value>/...
Every cell decompresses its result and compares it with the input (and a GPU container with
the CPU reference's) outside the timed region; a mismatch is an error, never a number.

gcbench flags (--flag=value or --flag value; lists are comma-separated):
  --preset NAME       a declared sweep (see Presets below): its inputs, codecs, axes and
                      steps. --corpus (of its corpora; "synthetic" for its synthetic inputs),
                      --files, --codecs, --device and --direction narrow it; axis flags and
                      --sweep contradict it and are an error. It prints its estimated time
                      before it starts and the time it took at the end
  --corpus LIST       corpora (default canterbury); also synthetic:<kind>:<size>[:<width>],
                      e.g. synthetic:runs:64MiB or synthetic:small_ints:1GiB:4 (kinds: runs,
                      small_ints, sorted_keys, random_bytes, all_equal; width 1, 2 or 4, the
                      integer view the data is generated in, default 1). Runs of a chosen
                      length: runs-geo<mean> (geometric lengths) or runs-uni<mean> (uniform
                      on 1..2*mean-1), e.g. synthetic:runs-geo64:1GiB:4; runs is runs-geo8.
                      Seeded: the same name gives the same bytes. And concat:<corpus>, the
                      corpus's available files back to back as one input
  --files LIST        only these files of the chosen corpora
  --codecs LIST       codec names and groups: all (default), cpu, gpu, peers, baselines,
                      or a name below
  --device D          cpu | gpu | all (default); GPU cells run only when a GPU is usable
  --direction D       compress | decompress | all (default)
  --out-dir DIR       one JSON per corpus file (DIR/<corpus>/<file>.json, Google Benchmark
                      format), written after every cell, each entry with its provenance
                      (git revision, build type, codec version, GPU UUID); a rerun skips
                      the cells recorded under the same and measures the others again,
                      saying why. One run per DIR at a time (a lock names the holder).
                      With --benchmark_out=FILE: FILE gets every cell recorded under DIR
                      (not this run's cells alone), as --export DIR writes it
  --export DIR        export the results recorded under DIR (its *.json files) as one
                      Google Benchmark JSON file, --benchmark_out=FILE, and run nothing;
                      readers of DIR skip that file if it lies inside. To merge the shard
                      folders of one sweep into one folder: gcbench-report --merge-shards
  --sweep MODE        which points of the default axis sweeps (below) a codec visits; axes
                      given as flags always take every combination of their given values:
                        axes (default; the main job): each default sweep on its own, the
                          other axes at their defaults - every point the report's tables read
                        product: every combination of the default sweeps (the full sweep,
                          e.g. fl: 3 element widths x 3 frame sizes = 9 points, not 5)
                        defaults: each codec at its default point only
  --shard K/N         run the K-th of N parts of the sweep (1 <= K <= N): a split by
                      expected cost that depends on the cell list alone, so N machines
                      share one sweep; DIR/gcbench.plan records it for gcbench-report
                      --merge-shards. Without it, a Slurm job array task
                      (SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT) or a Kubernetes Indexed
                      Job pod (JOB_COMPLETION_INDEX, with GCBENCH_SHARD_COUNT set to the
                      job's completions) runs its own shard and says so; --shard 1/1 runs all
  --gpus all|LIST     every GPU of this host at once (LIST: indices as nvidia-smi numbers
                      them, PCI bus order, e.g. 0,2): one worker process per GPU runs its
                      share of the GPU cells (--shard k/N over them) and one more the CPU
                      cells, each pinned to its own cores (a GPU worker gets cores/(GPUs+1),
                      at most 10; the CPU worker the rest, so CPU cells see fewer threads
                      than in a plain run: the context's cpu_affinity says how many). Needs
                      --out-dir DIR: workers record into DIR/.workers/<gpuI|cpu>, their lines
                      prefixed with the name, and are merged into DIR at the end (each GPU
                      cell's entry names its GPU: index, name, PCI bus id, UUID); the same
                      command resumes every worker. Not with --shard (or a Slurm/Kubernetes
                      shard) or --device cpu. --harness-file gets one line per worker
  --no-download       corpus files in no mirror or cache are reported missing, not downloaded
  --harness-file FILE append this run's harness figures to FILE as one line of key=value
                      (timed_s, wall_s, setup_s, cells, peak_rss_bytes, largest_input_bytes)
  --list              print the codecs with their axes and defaults, and exit
  --no-progress       no progress on stderr (on a terminal one line redrawn in place: cell k
                      of N, elapsed, time left, the cell; otherwise a line per cell)
  --gpu-iterations N  timed calls per GPU cell of a codec without a device API (nvCOMP;
                      default 10). Codecs with one time their device call alone on
                      resident buffers, as many times as Google Benchmark's min time asks
  --pipeline-chunk SIZE   end-to-end path: bytes per chunk in flight (default 64MiB)
  --pipeline-depth N      end-to-end path: chunks in flight, one stream each (default 4)
  --gpu-memory-limit SIZE end-to-end path: device memory it may hold; chunks shrink to fit
  --cold-l2           GPU cells flush the L2 cache before every timed device call (a read
                      of twice the L2 through a buffer allocated once per run, outside the
                      CUDA events), so that an input smaller than the L2 is not timed warm.
                      Recorded as the context's cold_l2 and each GPU cell's cold_l2 counter
                      (1 flushed, 0 warm). Without GPU cells: a note, and nothing flushed
  --<axis> LIST       values of a codec axis, for every selected codec that has it
                      (dashes for underscores: --work-items sets work_items)
Axis flags of the registered codecs:
)";
  std::map<std::string, std::set<std::string>> owners;
  std::map<std::string, std::string> help;
  for (const Codec* c : codecs) {
    for (const AxisSpec& a : c->info().axes) {
      owners[a.name].insert(c->info().name);
      help.emplace(a.name, a.help);
    }
  }
  for (const auto& [axis, names] : owners) {
    out << fmt::format("  {} LIST  {} [{}]\n", axis_flag(axis), help[axis], fmt::join(names, ","));
  }
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
)" << describe_presets()
      << R"(
Timing: CPU cells report wall time; GPU cells report the kernel time from CUDA events as
manual time. Counters: input_bytes, compressed_bytes, ratio (input/compressed), verified,
e2e_s (wall time per call), kernel_s and transfer_s (GPU), entropy_bytes (LZ77, SPEC 1.4);
GPU cells with a device API also kernel_gbps, pct_copy (of the run's copy_gbps) and cold_l2.
Each cell makes one untimed call first: it warms up, and its output is verified in full
(GPU cells with a device API: the device call, then the end-to-end path once). CPU cells
also compare the output of their timed calls with the verified bytes. No warm-up time
(the untimed call is the warm-up), and --benchmark_min_time=0.02)" GCBENCH_BENCHMARK_MIN_TIME_SUFFIX
         R"( unless given.

At its end a run prints its harness share, timed seconds / wall seconds, per codec, device
and direction too, and its peak RSS (also recorded in the results' context as
peak_rss_bytes, harness_timed_s, harness_wall_s). Timed seconds: for every cell, the
seconds inside the timed regions whose measurements it reports - the iterations Google
Benchmark reports (CPU: wall time; GPU: kernel time from CUDA events), plus its end-to-end
runs where it reports their sum (counter e2e_timed_s). Warm-up calls, the trial runs Google
Benchmark discards while it picks an iteration count, set-up, verification, corpus fetching
and the GPU probe are not timed. Wall seconds: the whole run, start to results written.

Times are in nanoseconds (Google Benchmark's unit: its compare.py reads them). Google
Benchmark flags (filtering, repetitions, JSON output) work as usual; the console always shows
the table (--benchmark_out=FILE --benchmark_out_format=json|csv for files; with --out-dir or
--export, JSON of the folder's export only):
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
