#include "bench/driver/help.hpp"

#include <fmt/format.h>

#include <benchmark/benchmark.h>

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

void print_help(std::ostream& out, const std::vector<const Codec*>& codecs,
                const std::vector<Preset>& presets) {
  out << R"(gcbench: sweeps codecs x devices x directions x corpus files x parameter points, one
Google Benchmark per cell named
  <codec>/<device>/<compress|decompress>/<corpus>/<file>/<axis>:<value>/...
Every cell decompresses its result and compares it with the input (and a GPU container with
the CPU reference's) outside the timed region; a mismatch is an error, never a number.
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
