// gcbench: the sweep driver. Google Benchmark takes its flags first; the rest are gcbench's.
#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/driver/cells.hpp"
#include "bench/driver/choices.hpp"
#include "bench/driver/console_table.hpp"
#include "bench/driver/context.hpp"
#if GCBENCH_HAVE_CUDA
#include "bench/driver/device_cells.hpp"
#endif
#include "bench/driver/benchmark_out.hpp"
#include "bench/driver/empty_run.hpp"
#include "bench/driver/estimate.hpp"
#include "bench/driver/execute.hpp"
#include "bench/driver/gpus_run.hpp"
#include "bench/driver/harness.hpp"
#include "bench/driver/help.hpp"
#include "bench/driver/presets.hpp"
#include "bench/driver/progress.hpp"
#include "bench/driver/reporter.hpp"
#include "bench/driver/resume.hpp"
#include "bench/driver/run_summary.hpp"
#include "bench/driver/shard.hpp"
#include "bench/driver/supervision.hpp"
#include "bench/driver/version.hpp"
#include "gcbench/cores.hpp"
#include "gcbench/device_codec.hpp"
#include "gcbench/registry.hpp"
#include "src/results/counters.hpp"
#include "src/results/result_document.hpp"
#include "studies/study.hpp"

namespace gcbench::driver {
namespace {

void help_printer() {
  print_help(std::cout, studies::presets());
}

// Answers -h, --help, --help-all, --counters, --counters-python or --version, the first given,
// on stdout; false if none is.
bool answer_information_flag(const std::vector<std::string>& args) {
  const auto asked = std::find_first_of(args.begin(), args.end(), kInformationFlags.begin(),
                                        kInformationFlags.end());
  if (asked == args.end()) return false;
  if (*asked == "--version") {
    std::cout << version_text(registered_codecs());
  } else if (*asked == "--help-all") {
    print_full_help(std::cout, registered_codecs(), studies::presets());
  } else if (*asked == "--counters") {
    std::cout << results::counters_markdown();
  } else if (*asked == "--counters-python") {
    std::cout << results::counters_python();
  } else {
    print_help(std::cout, studies::presets());
  }
  return true;
}

// Whether the arguments (or the environment) ask for more than one repetition of each cell;
// a bad count is reported once Google Benchmark has read the flags.
bool repeats(int argc, char** argv) {
  try {
    return checked_repetitions({argv + 1, argv + argc}, std::getenv, true) > 1;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

// gcbench's defaults for Google Benchmark flags go first, so the user's own win. No warm-up
// time: every cell makes one untimed call of its own before timing (see execute.cpp).
// Repetitions are interleaved across the cells in random order, so that a cell's spread holds
// the machine's changes during the run rather than a few back-to-back moments of it (bench
// notes log, "Compare verdicts and five identical-run trials").
std::vector<char*> with_defaults(int argc, char** argv) {
  static std::string min_time = "--benchmark_min_time=0.02" GCBENCH_BENCHMARK_MIN_TIME_SUFFIX;
  static std::string interleave = "--benchmark_enable_random_interleaving=true";
  std::vector<char*> args{argv[0], min_time.data()};
  if (repeats(argc, argv)) args.push_back(interleave.data());
  args.insert(args.end(), argv + 1, argv + argc);
  return args;
}

// Whether `flag` ("--out-dir") is among `args`, as "--out-dir DIR" or "--out-dir=DIR".
bool has_flag(const std::vector<char*>& args, const std::string& flag) {
  return std::any_of(args.begin(), args.end(), [&](const char* arg) {
    const std::string text = arg;
    return text == flag || text.starts_with(flag + "=");
  });
}

// The arguments of `before` that Google Benchmark's Initialize took out: those not left, in
// their order, in `left`.
std::vector<std::string> taken_out(const std::vector<char*>& before,
                                   const std::vector<char*>& left) {
  std::vector<std::string> taken;
  auto next = left.begin();
  for (char* arg : before) {
    if (next != left.end() && *next == arg) {
      ++next;
    } else {
      taken.emplace_back(arg);
    }
  }
  return taken;
}

// The value of the "gpu" context entry: the device, or "none: <why>".
std::string gpu_named(const GpuStatus& gpu) {
  for (const auto& [key, value] : gpu.context) {
    if (key == "gpu") return value;
  }
  return "unknown";
}

// Whether Google Benchmark's --benchmark_filter will run `name` (same rules: a leading '-'
// negates, "all" and "" mean everything), so that progress counts only cells that run.
bool filter_accepts(const std::string& filter, const std::string& name) {
  if (filter.empty() || filter == "all") return true;
  bool negative = filter.front() == '-';
  std::regex re(negative ? filter.substr(1) : filter);
  return std::regex_search(name, re) != negative;
}

bool any_gpu_codec(const std::vector<const Codec*>& codecs) {
  return std::any_of(codecs.begin(), codecs.end(),
                     [](const Codec* c) { return c->info().device == Device::gpu; });
}

// The lines of `text` up to `most`, then one saying how many more `what` there are.
void print_first_lines(const std::string& text, std::size_t most, const std::string& what,
                       std::ostream& out) {
  std::istringstream lines(text);
  std::size_t printed = 0, more = 0;
  for (std::string line; std::getline(lines, line);) {
    if (printed < most) {
      out << line << "\n";
      ++printed;
    } else {
      ++more;
    }
  }
  if (more > 0) out << "[gcbench] and " << more << " more " << what << "\n";
}

// Run-time choices printed before the first result; the rest are counted.
constexpr std::size_t kChoiceLines = 2;

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Prints the run's harness share and peak RSS, and appends them to --harness-file.
void report_harness(const HarnessSummary& summary,
                    const std::map<std::string, HarnessGroup>& groups, const Options& options) {
  std::cerr << format_summary(summary, groups);
  if (!options.harness_file) return;
  try {
    append_harness_line(*options.harness_file, summary);
  } catch (const std::runtime_error& e) {
    std::cerr << "[gcbench] " << e.what() << "\n";
  }
}

int run(int argc, char** argv) {
  const Clock::time_point start = Clock::now();
  // Before anything lists or selects codecs (--help included): plugins add to the table.
  load_plugins(plugin_arguments(std::vector<std::string>(argv + 1, argv + argc)));
  if (answer_information_flag(std::vector<std::string>(argv + 1, argv + argc))) return 0;
  std::vector<char*> args = with_defaults(argc, argv);
  // With an --out-dir (or --export) Google Benchmark's output flags apply to its export.
  const std::optional<ExportTarget> export_file =
      has_flag(args, "--out-dir") || has_flag(args, "--export") ? take_benchmark_out(args)
                                                                : std::nullopt;
  const std::vector<char*> before_benchmark = args;
  const std::vector<std::string> given_args(args.begin() + 1, args.end());
  int count = static_cast<int>(args.size());
  benchmark::Initialize(&count, args.data(), help_printer);
  const Options options =
      parse_options(std::vector<std::string>(args.begin() + 1, args.begin() + count));
  const auto getenv = [](const char* name) -> const char* { return std::getenv(name); };
  const long repetitions = checked_repetitions(given_args, getenv, options.allow_empty);
  const StoppingRule stopping =
      stopping_rule(given_args, getenv, "0.02", options.max_error, options.max_time);
  if (options.export_from) {
    if (!export_file) throw std::invalid_argument("--export needs --benchmark_out=FILE");
    write_export(*options.export_from, *export_file, std::cerr);
    return 0;
  }

  const Preset* preset =
      options.preset ? &find_preset(studies::presets(), *options.preset) : nullptr;
  if (preset) check_preset_options(*preset, options);

  const std::vector<const Codec*> all = registered_codecs();
  if (options.list) {
    print_codec_list(std::cout, all);
    return 0;
  }
  if (options.gpus) {
    // Without gcbench's own --benchmark_min_time default, which each worker adds itself.
    const std::vector<char*> given(before_benchmark.begin() + 2, before_benchmark.end());
    const std::vector<std::string> base_args = worker_base_args(
        options, taken_out(given, std::vector<char*>(args.begin() + 1, args.begin() + count)));
    return run_on_gpus(base_args, options, export_file, this_host(), std::cout, std::cerr);
  }
  std::vector<const Codec*> selected = select_codecs(all, options.codecs, options.device);
  check_axis_flags(selected, options.axis_values, options.codec_levels);
  Selection selection;
  selection.codecs_given = fmt::format("{}", fmt::join(options.codecs, ","));
  selection.device = options.device;
  selection.codecs = selected.size();

  const GpuStatus gpu = probe_gpu(any_gpu_codec(selected));
  if (!gpu.usable) {
    auto dropped =
        std::erase_if(selected, [](const Codec* c) { return c->info().device == Device::gpu; });
    // The run's summary says so, before the first result.
    if (dropped > 0) selection.gpu_dropped = "no GPU is usable (" + gpu_named(gpu) + ")";
  }
  selection.runnable = selected.size();
  check_selection(selection, options.allow_empty);  // before any input is gathered (downloads)

  const std::vector<std::string> corpora =
      preset ? preset_inputs(*preset, options, any_gpu_codec(selected)) : input_corpora(options);
  PathFilter paths = options.path_filter;
  if (options.out_dir) paths.results_dirs.push_back(*options.out_dir);  // never input
  const Inputs inputs = gather_inputs(corpora, options.files, options.download, paths, &std::cerr);
  if (!inputs.missing.empty())
    std::cerr << missing_inputs_line(inputs.missing, kConsoleWidth - 1) << "\n";
  std::vector<CellSpec> cells = preset
                                    ? preset_cells(*preset, selected, all, inputs.present, options)
                                    : enumerate_cells(selected, all, inputs.present, options);

  const std::string filter = benchmark::GetBenchmarkFilter();
  selection.inputs = inputs.present.size();
  selection.cells = cells.size();
  selection.filter = filter;
  selection.filtered =
      static_cast<std::size_t>(std::count_if(cells.begin(), cells.end(), [&](const CellSpec& c) {
        return filter_accepts(filter, c.name);
      }));
  check_selection(selection, options.allow_empty);
  if (repetitions == 0) cells.clear();  // --benchmark_repetitions=0 --allow-empty
  std::optional<results::ShardPlan> plan;
  if (auto shard =
          choose_shard(options.shard, [](const char* name) { return std::getenv(name); })) {
    // The plan lists only cells that will run, so that a merge can tell when one is missing.
    std::erase_if(cells, [&](const CellSpec& c) { return !filter_accepts(filter, c.name); });
    ShardedCells sharded = shard_cells(std::move(cells), inputs.present, *shard);
    std::cerr << "[gcbench] " << sharded.summary << "\n";
    benchmark::AddCustomContext("shard", shard->shard.to_string());
    cells = std::move(sharded.cells);
    plan = std::move(sharded.plan);
  }

  // Before the recorder: a cell recorded warm is not a cold one (the provenance says which).
  const auto gpu_cell_count = static_cast<std::size_t>(std::count_if(
      cells.begin(), cells.end(), [](const CellSpec& c) { return c.id.device == "gpu"; }));
  ColdL2Plan cold_l2 = plan_cold_l2(options.cold_l2, gpu_cell_count, gpu_named(gpu));
  if (cold_l2.note) std::cerr << "[gcbench] " << *cold_l2.note << "\n";

  // The preset's timing unless --timing is given; a cell timed kernel-only is recorded so.
  const bool kernel_only = run_timing(preset, options) == "kernel";
  if (options.pipeline_timeline && (gpu_cell_count == 0 || kernel_only)) {
    std::cerr << "[gcbench] --pipeline-timeline: "
              << (gpu_cell_count == 0
                      ? fmt::format("no GPU cells in this run (GPU: {})", gpu_named(gpu))
                      : std::string("--timing kernel runs no end-to-end path"))
              << "; no timeline is written, the cells run as asked\n";
  }

  std::unique_ptr<Recorder> recorder;
  if (options.out_dir) {
    RunProvenance provenance = run_provenance(gpu);
    provenance.cold_l2 = cold_l2.flush;
    provenance.kernel_only = kernel_only;
    for (const InputFile& f : inputs.present) {
      if (!f.sha256.empty()) provenance.input_digests[{f.corpus, f.name}] = f.sha256;
    }
    recorder = std::make_unique<Recorder>(*options.out_dir, std::move(provenance));
    if (plan) results::write_plan(*options.out_dir, *plan);  // under the recorder's lock
    skip_recorded(cells, *recorder, std::cerr);
    if (options.also_recorded)
      skip_recorded_in(cells, *options.also_recorded, recorder->provenance(), std::cerr);
  }
  std::optional<CellQueue> queue;
  if (options.claim_dir) {
    order_for_queue(cells, inputs.present);
    queue.emplace(*options.claim_dir, fmt::format("pid {}", getpid()));
  }
  if (cells.empty()) {
    std::cerr << "[gcbench] no cells to run" << (options.allow_empty ? " (--allow-empty)" : "")
              << "\n";
    HarnessSummary summary;
    summary.wall_s = summary.setup_s = seconds_since(start);
    summary.peak_rss_bytes = peak_rss_bytes();
    report_harness(summary, {}, options);
    if (recorder && export_file) write_export(*options.out_dir, *export_file, std::cerr);
    return recorder || options.allow_empty ? 0 : 2;
  }

  // What the estimate says, before any GPU work (the run-time choices below take seconds).
  const double estimate_s =
      estimate_sweep_s(cells, inputs.present, static_cast<unsigned>(usable_cores()), kernel_only);
  if (preset) {
    std::cerr << fmt::format(
        "[gcbench] preset {}: {} cells, estimated {} (a model over rates measured on one H100 "
        "with 16 host cores; CPU rates scaled to {} threads here)\n",
        preset->name, cells.size(), format_duration(estimate_s),
        static_cast<unsigned>(usable_cores()));
  }
  ContextEntries run_context;  // also summed up on the console before the first result
  const auto add_context = [&run_context](const std::string& key, const std::string& value) {
    benchmark::AddCustomContext(key, value);
    run_context.emplace_back(key, value);
  };
  if (preset) add_context("preset", preset->name);
  for (const auto& [key, value] : host_context(inputs, corpora)) add_context(key, value);
  for (const auto& [key, value] : gpu.context) add_context(key, value);
  if (gpu.usable) {
    std::ostringstream choices_log;
    for (const auto& [key, value] : make_run_time_choices(cells, choices_log))
      add_context(key, value);
    print_first_lines(choices_log.str(), kChoiceLines,
                      "run-time choices (the results' context has each as auto:...)", std::cerr);
  }

  Workspace workspace(inputs.present);
  workspace.set_stopping_rule(stopping, options.gpu_iterations);
  add_context("stopping_rule", describe(stopping));
#if GCBENCH_HAVE_CUDA
  std::optional<DeviceCells> device_cells;
  if (gpu.usable) {
    device_cells.emplace(
        PipelineSettings{options.pipeline_chunk, options.pipeline_depth, options.gpu_memory_limit,
                         !kernel_only, options.pipeline_timeline},
        gpu.ceilings, cold_l2.flush);
    workspace.set_device_cells(&*device_cells);
    if (auto flush = device_cells->l2_flush_context()) cold_l2.context = *flush;
  }
#endif
  add_context(results::counter::kColdL2, cold_l2.context);  // the counter's name
  add_context("timing", kernel_only
                            ? "kernel: GPU cells timed their device calls alone (--timing kernel); "
                              "no end-to-end paths or transfers"
                            : "all: GPU cells timed their device calls and the end-to-end paths");
  std::map<std::string, double> weights;
  std::uint64_t largest_input = 0;
  // Cells that ended an earlier worker of this run (a crash, an exit, a hang): failed, not run.
  const std::map<std::string, std::string> ended_a_worker = supervision::failed_cells();
  for (const CellSpec& cell : cells) {
    if (const auto failed = ended_a_worker.find(cell.name); failed != ended_a_worker.end()) {
      register_failed_cell(cell, failed->second);
    } else {
      register_cell(cell, workspace, queue ? &*queue : nullptr);
    }
    if (filter_accepts(filter, cell.name)) {
      // The estimate's seconds, so that "left" follows the slow cells (the thread design's).
      weights[cell.name] = estimate_cell_s(cell, inputs.present[cell.input].size,
                                           static_cast<unsigned>(usable_cores()), kernel_only);
      largest_input = std::max(largest_input, inputs.present[cell.input].size);
    }
  }

  const ConsoleNames names = ConsoleNames::of(all);
  std::optional<Progress> progress;
  if (options.progress) {
    // On a terminal one line redrawn in place; to a pipe or log, a plain line per cell.
    const bool live = isatty(STDERR_FILENO) != 0;
    progress.emplace(std::move(weights), std::cerr,
                     live ? ProgressStyle::live : ProgressStyle::lines,
                     terminal_width(STDERR_FILENO), names);
  }
  RunFacts facts{
      run_context,    cells.size(), {}, inputs.present.size(), !selection.gpu_dropped.empty(),
      options.out_dir};
  for (const Codec* c : selected)
    facts.codecs.push_back(c->info().name + "/" + to_string(c->info().device));
  SweepReporter reporter(std::move(progress), recorder.get(), run_summary(facts, kConsoleWidth - 1),
                         names);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();

  HarnessSummary summary;
  summary.timed_s = reporter.tally().timed_s();
  summary.cells = reporter.tally().cells();
  if (auto began = reporter.cells_began()) {
    summary.setup_s = std::chrono::duration<double>(*began - start).count();
  }
  summary.peak_rss_bytes = peak_rss_bytes();
  summary.largest_input_bytes = largest_input;
  summary.wall_s = seconds_since(start);  // the final rewrite of the results below: ~ms
  if (recorder) recorder->add_context(harness_context(summary));
  report_harness(summary, reporter.tally().groups(), options);
  if (recorder && export_file) write_export(*options.out_dir, *export_file, std::cerr);
  if (preset) {
    std::cerr << fmt::format("[gcbench] preset {} took {} (estimated {})\n", preset->name,
                             format_duration(summary.wall_s), format_duration(estimate_s));
  }
  if (reporter.any_error()) {
    std::cerr << "[gcbench] some cells failed (see their error above)\n";
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace gcbench::driver

int main(int argc, char** argv) {
  namespace supervision = gcbench::driver::supervision;
  const std::vector<std::string> args(argv + 1, argv + argc);
  int status = 2;
  try {
    if (supervision::wants_supervision(args)) {
      return supervision::supervise(args, {supervision::call_limit_of(args)});
    }
    status = gcbench::driver::run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "gcbench: " << e.what() << "\n";
  }
  supervision::finished();  // a worker's status is the run's
  return status;
}
