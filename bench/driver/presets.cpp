#include "bench/driver/presets.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <set>
#include <stdexcept>

namespace gcbench::driver {
namespace {

const std::vector<std::string> kCorpora = {"silesia", "calgary", "canterbury", "prague"};
const std::string kSynthetic = "synthetic";
// TPC-H's columns (issue 43) at the run's scale factor: a preset's inputs name "tpch", and
// preset_inputs() gathers tpch-sf<scale>; --corpus tpch-sf<scale> picks the scale factor.
const std::string kTpch = "tpch";
const std::string kTpchPrefix = "tpch-sf";
const std::string kTpchNote =
    "tpch-sf1 where GPU cells run, else tpch-sf0.01; --corpus tpch-sf<scale> picks the scale "
    "factor";
// The integer codecs on the columns, each at its column's element width (cells.cpp's
// axes_for()), every other axis at its default: the report's column table. rle-cub compresses
// only: its container is rle's, decoded by rle's decoders.
std::vector<PresetStep> tpch_steps(const AxisValues& rle_decoders) {
  const std::string columns = "TPC-H's columns, each at its element width";
  return {{.purpose = "FL and nvCOMP Cascaded on " + columns,
           .corpora = {kTpch},
           .codecs = {"fl", "nvcomp-cascaded"}},
          {.purpose = "RLE compression on " + columns,
           .corpora = {kTpch},
           .codecs = {"rle"},
           .direction = "compress"},
          {.purpose = "RLE decompression on " + columns,
           .corpora = {kTpch},
           .codecs = {"rle"},
           .direction = "decompress",
           .axes = rle_decoders},
          {.purpose = "RLE compression on " + columns + ": cub::DeviceRunLengthEncode (rle-cub)",
           .corpora = {kTpch},
           .codecs = {"rle-cub"},
           .device = "gpu",
           .direction = "compress"}};
}

// The thesis's study: its tables T1-T7 (reports/tables.hpp) per corpus, the FL/RLE tables on
// synthetic integer columns. GPU LZ77 runs the thesis's thread design and, beside it, the fastest
// verified design (auto), each named, so that the preset does not move with the default.
Preset thesis() {
  const std::vector<std::string> work_items = default_sweep("work_items");
  // A file of at most one launch block at the default work items (1024 x 4 KiB) is one block at
  // every work-item count of the sweep: the same work, so the sweeps skip it (the report says
  // so in those columns).
  const std::uint64_t one_block = std::uint64_t{1024} * 4096;
  auto step = [&](std::string purpose, std::string device, std::string direction, AxisValues axes) {
    return PresetStep{std::move(purpose),   kCorpora,       false, 0, {"lz77"}, std::move(device),
                      std::move(direction), std::move(axes)};
  };
  auto sweep = [&](PresetStep s) {
    s.axes["work_items"] = work_items;
    s.min_input_bytes = one_block;
    return s;
  };
  auto first_files = [](PresetStep s) {
    s.first_file_only = true;
    return s;
  };
  std::vector<std::string> with_synthetic = kCorpora;
  with_synthetic.push_back(kSynthetic);
  const PresetStep cpu_hash =
      step("T2, T6: LZ77 hash on the CPU, compressed and decompressed in parallel (all cores)",
           "cpu", "all", {});
  const PresetStep thread_hash =
      step("T1, T3, T5: LZ77 hash on the GPU, the thesis's thread design", "gpu", "compress",
           {{"design", {"thread"}}});
  const PresetStep auto_hash = step(
      "T1, T3, T5, T6: LZ77 hash on the GPU, the fastest verified design (auto), compressed and "
      "decompressed",
      "gpu", "all", {{"design", {"auto"}}});
  Preset preset{
      "thesis",
      "the thesis's sweep (SPEC 1.3, 3, 4): LZ77 hash/z/brute on CPU and GPU (thread design and "
      "auto), work items 1024-5120, sequential and parallel decompression, gzip; T1-T7 per "
      "corpus, FL/RLE tables on synthetic inputs; FL, RLE, rle-cub and nvCOMP Cascaded on "
      "TPC-H's columns (" +
          kTpchNote + ") (about 7.5 minutes on one H100 without the columns)",
      {"silesia", "calgary", "canterbury", "prague", "synthetic:runs:32MiB",
       "synthetic:small_ints:32MiB:4", "synthetic:sorted_keys:32MiB:4", kTpch},
      {
          step("T4, T5, T7: LZ77 on the CPU, each match finder (T7: hash, entropy-coded)", "cpu",
               "compress", {{"finder", {"hash", "z", "brute"}}}),
          cpu_hash,
          sweep(cpu_hash),
          step("T6: LZ77 sequential decompression (one thread)", "cpu", "decompress",
               {{"decode_mode", {"sequential"}}}),
          thread_hash,
          sweep(thread_hash),
          // One thread per 4 KiB chunk makes a launch last one chunk's serial parse, whatever
          // the file's size: seconds per launch (bench/NOTES.md, "the estimate refit"), too long
          // for every file of every corpus within the preset's 10 minutes.
          first_files(step("T3, T5: the thread design with the z and brute finders, on the first "
                           "file of each corpus",
                           "gpu", "compress",
                           {{"finder", {"z", "brute"}}, {"design", {"thread"}}})),
          auto_hash,
          sweep(auto_hash),
          step("T3, T5: the fastest verified design (auto) with the z and brute finders", "gpu",
               "compress", {{"finder", {"z", "brute"}}, {"design", {"auto"}}}),
          {"T5, T6, T7 and the FL/RLE tables: gzip -6 -n and gzip -d",
           with_synthetic,
           false,
           0,
           {"gzip"},
           "cpu"},
          {"FL and RLE tables per frame size and element width, on synthetic integer columns",
           {kSynthetic},
           false,
           0,
           {"fl", "rle"},
           "all",
           "all",
           {},
           "axes"},
      }};
  for (PresetStep& s : tpch_steps({})) preset.steps.push_back(std::move(s));
  return preset;
}

// Issue 14: the inputs that decide the GPU kernels, each kernel beside its peers (CUB through
// rle-cub, nvCOMP Cascaded and LZ4), kernel-only. RLE: run lengths of mean 1 to 4096, geometric
// and uniform, at width 4, and geometric mean 8 (the standard input) at widths 1 and 2. FL:
// small integers at widths 1, 2 and 4 per frame size. LZ77: Silesia's files, text and binary.
const std::string kKernelInputSize = "1GiB";
const std::string kSilesiaConcat = "silesia-concat";  // concat:silesia's corpus

Preset kernels() {
  const KernelInputs in = kernel_inputs(kKernelInputSize);
  std::vector<PresetStep> steps;
  for (const auto& [width, files] : in.runs_files) {
    const std::vector<std::string> w = {std::to_string(width)};
    // rle-cub after rle's decoders: they decode the container rle's encoder verified, which a
    // 1 GiB rle-cub container would push out of the workspace's cache.
    steps.push_back({.purpose = fmt::format("RLE compression, width {}: gcbench's encoder", width),
                     .corpora = {kSynthetic},
                     .codecs = {"rle"},
                     .device = "gpu",
                     .direction = "compress",
                     .axes = {{"element_width", w}},
                     .files = files});
    steps.push_back({.purpose = fmt::format("RLE decompression, width {}, both decoders", width),
                     .corpora = {kSynthetic},
                     .codecs = {"rle"},
                     .device = "gpu",
                     .direction = "decompress",
                     .axes = {{"element_width", w}, {"decode", {"scan", "flood"}}},
                     .files = files});
    steps.push_back({.purpose = fmt::format("RLE compression, width {}: "
                                            "cub::DeviceRunLengthEncode (rle-cub)",
                                            width),
                     .corpora = {kSynthetic},
                     .codecs = {"rle-cub"},
                     .device = "gpu",
                     .direction = "compress",
                     .axes = {{"element_width", w}},
                     .files = files});
  }
  for (const auto& [width, files] : in.small_ints_files) {
    steps.push_back({.purpose = fmt::format("FL, width {}, per frame size", width),
                     .corpora = {kSynthetic},
                     .codecs = {"fl"},
                     .device = "gpu",
                     .axes = {{"element_width", {std::to_string(width)}},
                              {"frame_size", default_sweep("frame_size")}},
                     .files = files});
  }
  // Cascaded reads the synthetic columns as integers of their own width (the fair comparison);
  // Silesia's files are byte streams.
  std::map<int, std::vector<std::string>> files_of_width = in.runs_files;
  for (const auto& [width, files] : in.small_ints_files) {
    auto& all = files_of_width[width];
    all.insert(all.end(), files.begin(), files.end());
  }
  for (const auto& [width, files] : files_of_width) {
    steps.push_back({.purpose = fmt::format(
                         "nvCOMP Cascaded on the width-{} inputs, {}-byte elements", width, width),
                     .corpora = {kSynthetic},
                     .codecs = {"nvcomp-cascaded"},
                     .device = "gpu",
                     .axes = {{"element_width", {std::to_string(width)}}},
                     .files = files});
  }
  steps.push_back({.purpose = "nvCOMP Cascaded on Silesia, byte elements",
                   .corpora = {"silesia"},
                   .codecs = {"nvcomp-cascaded"},
                   .device = "gpu"});
  steps.push_back({.purpose = "nvCOMP LZ4 on every input but TPC-H's columns",
                   .corpora = {kSynthetic, "silesia", kSilesiaConcat},
                   .codecs = {"nvcomp-lz4"},
                   .device = "gpu"});
  steps.push_back({.purpose = "LZ77 hash compression, the block and warp designs, text and binary",
                   .corpora = {"silesia"},
                   .codecs = {"lz77"},
                   .device = "gpu",
                   .direction = "compress",
                   .axes = {{"finder", {"hash"}}, {"design", {"block", "warp"}}}});
  steps.push_back({.purpose = "LZ77 decompression, window_scope=block: every chunk at once "
                              "(jump) and per launch block",
                   .corpora = {"silesia"},
                   .codecs = {"lz77"},
                   .device = "gpu",
                   .direction = "decompress",
                   .axes = {{"design", {"warp"}}, {"decode_mode", {"jump", "block"}}}});
  steps.push_back({.purpose = "LZ77 decompression, window_scope=chunk: chunk-parallel",
                   .corpora = {"silesia"},
                   .codecs = {"lz77"},
                   .device = "gpu",
                   .direction = "decompress",
                   .axes = {{"design", {"warp"}}, {"window_scope", {"chunk"}}}});
  // The target for these finders is a ratio to the CPU reference on every core: both
  // sides in one run.
  steps.push_back({.purpose = "LZ77 Z and brute finders: the GPU's best design (auto) against "
                              "the CPU reference on every core, same finder",
                   .corpora = {"silesia"},
                   .codecs = {"lz77"},
                   .direction = "compress",
                   .axes = {{"finder", {"z", "brute"}}}});
  // A file of 5-34 MB gives a fraction of the GPU work (a warp per 4 KiB chunk); the issue quotes
  // LZ77 on Silesia as one input too, where every SM is busy. nvCOMP LZ4 runs on it above.
  auto silesia_as_one = [](std::string purpose, std::string direction, AxisValues axes) {
    return PresetStep{.purpose = "LZ77 on Silesia as one input: " + std::move(purpose),
                      .corpora = {kSilesiaConcat},
                      .codecs = {"lz77"},
                      .device = "gpu",
                      .direction = std::move(direction),
                      .axes = std::move(axes)};
  };
  steps.push_back(silesia_as_one("hash compression, warp design", "compress",
                                 {{"finder", {"hash"}}, {"design", {"warp"}}}));
  steps.push_back(silesia_as_one("jump decompression", "decompress",
                                 {{"design", {"warp"}}, {"decode_mode", {"jump"}}}));
  steps.push_back(silesia_as_one("chunk-parallel decompression", "decompress",
                                 {{"design", {"warp"}}, {"window_scope", {"chunk"}}}));
  for (PresetStep& s : tpch_steps({{"decode", {"scan", "flood"}}})) {
    s.device = "gpu";
    steps.push_back(std::move(s));
  }
  std::vector<std::string> inputs = in.specs;
  inputs.push_back("silesia");
  inputs.push_back("concat:silesia");
  inputs.push_back(kTpch);
  return Preset{
      "kernels",
      "issue 14's kernel sweep, kernel-only GB/s and % of the device copy (--timing kernel: "
      "no end-to-end paths): FL per frame size, RLE (both decoders) and rle-cub over run "
      "lengths 1-4096 (geometric, uniform) and widths 1/2/4 of " +
          kKernelInputSize +
          " synthetic inputs, LZ77 (block, warp; jump, block and chunk-scope decoding; the Z "
          "and brute finders beside the CPU on every core) on Silesia's files and (warp; jump "
          "and chunk-scope) on Silesia as one input, nvCOMP "
          "Cascaded (elements of the input's width) and LZ4 on all of those; FL, RLE (both "
          "decoders), rle-cub and Cascaded on TPC-H's columns (" +
          kTpchNote +
          ") (best with "
          "--cold-l2; 175 s on one H100 at f046fe9 without the TPC-H columns, where the estimate, "
          "a model over older rates, says about 6.5 minutes; with every timing the first run "
          "took about 30 minutes: bench/NOTES.md)",
      std::move(inputs), std::move(steps), "kernel"};
}

Preset quick() {
  return Preset{"quick",
                "every codec at its default parameters on the first file of each corpus, "
                "compressed and decompressed: a first look (about a minute on one GPU)",
                kCorpora,
                {{"every codec, default parameters", {}, true, 0, {"all"}}}};
}

std::string preset_names() {
  std::vector<std::string> names;
  for (const Preset& p : presets()) names.push_back(p.name);
  return fmt::format("{}", fmt::join(names, ", "));
}

[[noreturn]] void contradiction(const Preset& preset, const std::string& what) {
  throw std::invalid_argument(fmt::format("{} contradicts --preset {} (presets: {}; see --help)",
                                          what, preset.name, preset_names()));
}

// The preset's corpus of an input spec or corpus name: "synthetic" for synthetic:<...>, "tpch"
// for tpch-sf<scale>, else the spec.
std::string corpus_of(const std::string& spec) {
  if (spec.starts_with(kSynthetic + ":")) return kSynthetic;
  return spec.starts_with(kTpchPrefix) ? kTpch : spec;
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

KernelInputs kernel_inputs(const std::string& size) {
  KernelInputs in;
  auto add = [&](const std::string& kind, int width, std::map<int, std::vector<std::string>>& to) {
    const std::string w = std::to_string(width);
    in.specs.push_back(fmt::format("{}:{}:{}:{}", kSynthetic, kind, size, w));
    to[width].push_back(fmt::format("{}-{}-w{}", kind, size, w));
  };
  // Mean 1 is every run of length 1 in both distributions: once.
  for (const int mean : {1, 2, 8, 64, 4096}) add(fmt::format("runs-geo{}", mean), 4, in.runs_files);
  for (const int mean : {2, 8, 64, 4096}) add(fmt::format("runs-uni{}", mean), 4, in.runs_files);
  for (const int width : {1, 2}) add("runs-geo8", width, in.runs_files);
  for (const int width : {1, 2, 4}) add("small_ints", width, in.small_ints_files);
  return in;
}

const std::vector<Preset>& presets() {
  static const std::vector<Preset> all = {thesis(), kernels(), quick()};
  return all;
}

const Preset& find_preset(const std::string& name) {
  for (const Preset& p : presets()) {
    if (p.name == name) return p;
  }
  throw std::invalid_argument(
      fmt::format("--preset: '{}' is not a preset (presets: {})", name, preset_names()));
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
    if (spec != kTpch) {
      if (!narrowed || contains(options.corpora, corpus_of(spec))) specs.push_back(spec);
      continue;
    }
    // The scale factors --corpus names, else the run's own where the run keeps TPC-H.
    std::vector<std::string> scales;
    if (narrowed) {
      std::copy_if(options.corpora.begin(), options.corpora.end(), std::back_inserter(scales),
                   [](const std::string& c) { return c.starts_with(kTpchPrefix); });
    }
    if (scales.empty() && (!narrowed || contains(options.corpora, kTpch)))
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

std::string describe_presets() {
  std::string text;
  for (const Preset& p : presets()) {
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
