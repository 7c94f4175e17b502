#include "studies/kernels.hpp"

#include <fmt/format.h>

#include "bench/driver/axes.hpp"
#include "studies/study.hpp"
#include "studies/tpch_columns.hpp"

namespace gcbench::studies {
using namespace driver;
namespace {

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
                     .corpora = {kSyntheticCorpus},
                     .codecs = {"rle"},
                     .device = "gpu",
                     .direction = "compress",
                     .axes = {{"element_width", w}},
                     .files = files});
    steps.push_back({.purpose = fmt::format("RLE decompression, width {}, both decoders", width),
                     .corpora = {kSyntheticCorpus},
                     .codecs = {"rle"},
                     .device = "gpu",
                     .direction = "decompress",
                     .axes = {{"element_width", w}, {"decode", {"scan", "flood"}}},
                     .files = files});
    steps.push_back({.purpose = fmt::format("RLE compression, width {}: "
                                            "cub::DeviceRunLengthEncode (rle-cub)",
                                            width),
                     .corpora = {kSyntheticCorpus},
                     .codecs = {"rle-cub"},
                     .device = "gpu",
                     .direction = "compress",
                     .axes = {{"element_width", w}},
                     .files = files});
  }
  for (const auto& [width, files] : in.small_ints_files) {
    steps.push_back({.purpose = fmt::format("FL, width {}, per frame size", width),
                     .corpora = {kSyntheticCorpus},
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
                     .corpora = {kSyntheticCorpus},
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
                   .corpora = {kSyntheticCorpus, "silesia", kSilesiaConcat},
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
  inputs.push_back(kTpchCorpus);
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
          kTpchScaleNote +
          ") (best with "
          "--cold-l2; 175 s on one H100 at f046fe9 without the TPC-H columns, where the estimate, "
          "a model over older rates, says about 6.5 minutes; with every timing the first run "
          "took about 30 minutes: bench/NOTES.md)",
      std::move(inputs), std::move(steps), "kernel"};
}

}  // namespace

KernelInputs kernel_inputs(const std::string& size) {
  KernelInputs in;
  auto add = [&](const std::string& kind, int width, std::map<int, std::vector<std::string>>& to) {
    const std::string w = std::to_string(width);
    in.specs.push_back(fmt::format("{}:{}:{}:{}", kSyntheticCorpus, kind, size, w));
    to[width].push_back(fmt::format("{}-{}-w{}", kind, size, w));
  };
  // Mean 1 is every run of length 1 in both distributions: once.
  for (const int mean : {1, 2, 8, 64, 4096}) add(fmt::format("runs-geo{}", mean), 4, in.runs_files);
  for (const int mean : {2, 8, 64, 4096}) add(fmt::format("runs-uni{}", mean), 4, in.runs_files);
  for (const int width : {1, 2}) add("runs-geo8", width, in.runs_files);
  for (const int width : {1, 2, 4}) add("small_ints", width, in.small_ints_files);
  return in;
}

Study kernels_study() {
  return Study{"kernels", kernels()};
}

}  // namespace gcbench::studies
