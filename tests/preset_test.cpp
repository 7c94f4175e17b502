// Presets: the cells each one expands to (over the registered codecs and made-up inputs, no GPU
// needed), how flags narrow them, and the errors for flags that contradict them.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <memory>
#include <set>

#include "bench/driver/estimate.hpp"
#include "bench/driver/options.hpp"
#include "bench/driver/presets.hpp"
#include "corpora/corpora.hpp"
#include "gcbench/registry.hpp"
#include "gcbench/typed_codec.hpp"
#include "studies/kernels.hpp"
#include "studies/study.hpp"

namespace gcbench::driver {
namespace {

bool has(const std::string& name, Device device) {
  const auto all = registered_codecs();
  return std::any_of(all.begin(), all.end(), [&](const Codec* c) {
    return c->info().name == name && c->info().device == device;
  });
}

// Never loaded: expanding a preset reads names and sizes only.
InputFile input(std::string corpus, std::string name, std::uint64_t size) {
  return InputFile{std::move(corpus), std::move(name), size, [] { return Bytes(); }, "", {}};
}

constexpr std::uint64_t kLarge = 10 << 20, kSmall = 1 << 20;  // over / under one launch block

// TPC-H's columns of `corpus` (tpch-sf<scale>) as the manifest lists them: names, sizes and
// element widths.
std::vector<InputFile> tpch_inputs(const std::string& corpus) {
  std::vector<InputFile> in;
  for (const corpora::ManifestFile& f : corpora::load_manifest().files_of(corpus)) {
    in.push_back(input(corpus, f.name, f.size.value()));
    in.back().element_width = f.element_width;
  }
  return in;
}

// Two large files of Silesia, two small ones of Calgary (Prague absent), and the three
// synthetic inputs.
std::vector<InputFile> byte_inputs() {
  return {input("silesia", "dickens", kLarge),
          input("silesia", "mr", kLarge),
          input("calgary", "bib", kSmall),
          input("calgary", "book1", kSmall),
          input("synthetic", "runs-32MiB", 32 << 20),
          input("synthetic", "small_ints-32MiB-w4", 32 << 20),
          input("synthetic", "sorted_keys-32MiB-w4", 32 << 20)};
}

// Those and TPC-H's 20 columns at scale factor 0.01.
std::vector<InputFile> inputs() {
  std::vector<InputFile> in = byte_inputs();
  for (InputFile& f : tpch_inputs("tpch-sf0.01")) in.push_back(std::move(f));
  return in;
}

// "<codec>/<device>/<direction>" -> cells.
std::map<std::string, int> count(const std::vector<CellSpec>& cells) {
  std::map<std::string, int> n;
  for (const CellSpec& c : cells) ++n[c.id.codec + "/" + c.id.device + "/" + c.id.direction];
  return n;
}

std::vector<CellSpec> expand(const std::string& preset, const std::vector<std::string>& flags,
                             const std::vector<InputFile>& in = inputs()) {
  const Options o = parse_options(flags);
  const Preset& p = find_preset(studies::presets(), preset);
  check_preset_options(p, o);
  const auto all = registered_codecs();
  return preset_cells(p, select_codecs(all, o.codecs, o.device), all, in, o);
}

bool named(const std::vector<CellSpec>& cells, const std::string& name) {
  return std::any_of(cells.begin(), cells.end(), [&](const CellSpec& c) { return c.name == name; });
}

TEST(Presets, ThesisExpandsToItsDeclaredCells) {
  const std::vector<CellSpec> cells = expand("thesis", {});
  std::map<std::string, int> want;
  const int large = 2, small = 2, first_files = 2, synthetic = 3, columns = 20;
  // Every file: 3 finders, parallel and sequential decompression at the default work items;
  // a file over one launch block also 6 more work-item counts, compressed and decompressed.
  want["lz77/cpu/compress"] = large * (3 + 6) + small * 3;
  want["lz77/cpu/decompress"] = large * (7 + 1) + small * (1 + 1);
  if (has("lz77", Device::gpu)) {
    // thread and auto: hash at the default (and 6 more work-item counts on large files), z and
    // brute at the default (thread: on the first file of each corpus only); auto also
    // decompresses hash.
    want["lz77/gpu/compress"] = large * (7 + 7 + 2) + small * (1 + 1 + 2) + first_files * 2;
    want["lz77/gpu/decompress"] = large * 7 + small;
  }
  if (has("gzip", Device::cpu)) {  // not on TPC-H's columns
    want["gzip/cpu/compress"] = want["gzip/cpu/decompress"] = large + small + synthetic;
  }
  // FL: the default point, two more element widths, two more frame sizes; RLE: three widths.
  // On each of TPC-H's columns: FL, RLE and Cascaded at the column's width, rle-cub compressing.
  for (const char* device : {"cpu", "gpu"}) {
    if (!has("fl", device == std::string("cpu") ? Device::cpu : Device::gpu)) continue;
    for (const char* dir : {"compress", "decompress"}) {
      want[fmt::format("fl/{}/{}", device, dir)] = synthetic * 5 + columns;
      want[fmt::format("rle/{}/{}", device, dir)] = synthetic * 3 + columns;
    }
  }
  if (has("rle-cub", Device::gpu)) want["rle-cub/gpu/compress"] = columns;
  for (const char* peer : {"nvcomp-cascaded", "nvcomp-bitcomp"}) {  // the columns' GPU peers
    if (!has(peer, Device::gpu)) continue;
    want[fmt::format("{}/gpu/compress", peer)] = want[fmt::format("{}/gpu/decompress", peer)] =
        columns;
  }
  EXPECT_EQ(count(cells), want);
  // A column's cells take its element width; the other axes stay at their defaults.
  EXPECT_TRUE(named(cells,
                    "fl/cpu/compress/tpch-sf0.01/lineitem.shipdate.2/element_width:2/"
                    "frame_size:1024/threads:0"));
  EXPECT_TRUE(
      named(cells, "rle/cpu/decompress/tpch-sf0.01/orders.orderkey.4/element_width:4/threads:0"));

  // Each cell once, one input after another.
  std::set<std::string> names;
  for (const CellSpec& c : cells) EXPECT_TRUE(names.insert(c.name).second) << c.name;
  EXPECT_TRUE(std::is_sorted(cells.begin(), cells.end(), [](const CellSpec& a, const CellSpec& b) {
    return a.input < b.input;
  }));
  const std::string cpu =
      "lz77/cpu/compress/calgary/bib/finder:z/work_items:1024/chunk:4096/"
      "config:thesis/window_scope:block/decode_mode:parallel/threads:0";
  EXPECT_TRUE(named(cells, cpu));
  if (has("lz77", Device::gpu)) {
    auto gpu = [](const std::string& file, const std::string& finder, const std::string& design) {
      return "lz77/gpu/compress/calgary/" + file + "/finder:" + finder +
             "/work_items:1024/chunk:4096/config:thesis/window_scope:block/design:" + design +
             "/decode_mode:auto";
    };
    EXPECT_TRUE(named(cells, gpu("bib", "z", "thread")));
    EXPECT_FALSE(named(cells, gpu("book1", "z", "thread")));  // first file of the corpus only
    EXPECT_TRUE(named(cells, gpu("book1", "z", "auto")));
    EXPECT_FALSE(named(cells, gpu("book1", "z", "warp")));  // designs are named, never implied
    EXPECT_FALSE(named(cells,
                       "lz77/gpu/compress/calgary/bib/finder:hash/work_items:2048/"
                       "chunk:4096/config:thesis/window_scope:block/design:thread/"
                       "decode_mode:auto"));  // one launch block at any work items
    EXPECT_TRUE(named(cells,
                      "lz77/gpu/compress/silesia/mr/finder:hash/work_items:2048/"
                      "chunk:4096/config:thesis/window_scope:block/design:thread/"
                      "decode_mode:auto"));
  }
}

TEST(Presets, FlagsNarrowThesisToTheCpuPartOnTwoCorpora) {
  const Options o = parse_options({"--device", "cpu", "--corpus", "calgary,canterbury"});
  // As CI runs it: no TPC-H columns to generate.
  EXPECT_EQ(preset_inputs(find_preset(studies::presets(), "thesis"), o, false),
            (std::vector<std::string>{"calgary", "canterbury"}));
  const std::vector<CellSpec> cells = expand("thesis", {"--device", "cpu", "--corpus", "calgary"});
  for (const CellSpec& c : cells) EXPECT_EQ(c.id.device, "cpu") << c.name;
  // The inputs are gathered from preset_inputs(); here all are given, and the device narrows.
  const auto n = count(cells);
  EXPECT_EQ(n.at("lz77/cpu/compress"), 2 * 9 + 2 * 3);
  EXPECT_EQ(n.count("lz77/gpu/compress"), 0u);
  EXPECT_EQ(preset_inputs(find_preset(studies::presets(), "thesis"),
                          parse_options({"--corpus", "synthetic"}), true),
            (std::vector<std::string>{"synthetic:runs:32MiB", "synthetic:small_ints:32MiB:4",
                                      "synthetic:sorted_keys:32MiB:4"}));
}

TEST(Presets, TpchColumnsAreScaleFactorOneWithGpuCellsElseOneHundredth) {
  for (const char* name : {"thesis", "kernels"}) {
    const Preset& p = find_preset(studies::presets(), name);
    auto last = [&](const std::vector<std::string>& flags, bool gpu_cells) {
      const Options o = parse_options(flags);
      check_preset_options(p, o);
      const std::vector<std::string> in = preset_inputs(p, o, gpu_cells);
      return in.empty() ? std::string("none") : in.back();
    };
    EXPECT_EQ(last({}, true), "tpch-sf1") << name;
    EXPECT_EQ(last({}, false), "tpch-sf0.01") << name;
    EXPECT_EQ(last({"--corpus", "tpch"}, true), "tpch-sf1") << name;
    EXPECT_EQ(last({"--corpus", "tpch-sf10"}, false), "tpch-sf10") << name;
    EXPECT_EQ(last({"--corpus", "synthetic"}, true).find("tpch"), std::string::npos) << name;
  }
  // Any scale factor --corpus names is gathered; the steps take each as TPC-H's columns.
  const Options o = parse_options({"--corpus", "tpch-sf0.01,tpch-sf1"});
  EXPECT_EQ(preset_inputs(find_preset(studies::presets(), "thesis"), o, true),
            (std::vector<std::string>{"tpch-sf0.01", "tpch-sf1"}));
}

TEST(Presets, QuickRunsEveryCodecAtItsDefaultOnTheFirstFileOfEachCorpus) {
  // Quick gathers no TPC-H columns (they would take their own element width, no default).
  const std::vector<CellSpec> cells = expand("quick", {}, byte_inputs());
  const auto all = registered_codecs();
  // 3 corpora here (silesia, calgary, synthetic: quick's step takes every input's corpus).
  EXPECT_EQ(cells.size(), all.size() * 2 * 3);
  for (const CellSpec& c : cells) {
    EXPECT_TRUE(c.id.file == "dickens" || c.id.file == "bib" || c.id.file == "runs-32MiB")
        << c.name;
    for (const AxisSpec& a : c.codec->info().axes) EXPECT_EQ(c.params.at(a.name), a.default_value);
  }
  EXPECT_EQ(preset_inputs(find_preset(studies::presets(), "quick"), Options{}, true),
            (std::vector<std::string>{"silesia", "calgary", "canterbury", "prague"}));
}

TEST(Presets, AnUnknownPresetListsThemAndAContradictionNamesThePreset) {
  auto error = [](const std::vector<std::string>& flags) -> std::string {
    try {
      const Options o = parse_options(flags);
      check_preset_options(find_preset(studies::presets(), *o.preset), o);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_NE(error({"--preset", "thesys"})
                .find("(did you mean thesis?) (presets: thesis, kernels, quick)"),
            std::string::npos);
  for (const auto& flags :
       std::vector<std::vector<std::string>>{{"--preset", "thesis", "--work-items", "2048"},
                                             {"--preset", "quick", "--finder=z"},
                                             {"--preset", "thesis", "--sweep", "product"},
                                             {"--preset", "thesis", "--corpus", "enwik8"},
                                             {"--preset", "thesis", "--codecs", "zstd"}}) {
    const std::string message = error(flags);
    EXPECT_NE(message.find("contradicts --preset " + flags[1] + " (see --help)"), std::string::npos)
        << fmt::format("{}", fmt::join(flags, " ")) << ": " << message;
  }
  EXPECT_NE(error({"--preset", "thesis", "--work-items", "2048"}).find("--work-items"),
            std::string::npos);
  EXPECT_NE(error({"--preset", "thesis", "--corpus", "enwik8"}).find("enwik8"), std::string::npos);
  // Narrowing flags are no contradiction.
  EXPECT_EQ(error({"--preset", "thesis", "--device", "cpu", "--corpus", "calgary", "--codecs",
                   "lz77,gzip", "--direction", "compress", "--out-dir", "x", "--no-download"}),
            "no error");
  EXPECT_EQ(error({"--preset", "quick", "--codecs", "zstd"}), "no error");
}

TEST(Presets, EstimateWeighsTheThreadDesignByItsLaunches) {
  const std::vector<CellSpec> cells = expand("thesis", {});
  if (!has("lz77", Device::gpu)) GTEST_SKIP() << "no GPU LZ77 codec in this build";
  auto find = [&](const std::string& part) {
    return *std::find_if(cells.begin(), cells.end(), [&](const CellSpec& c) {
      return c.name.find(part) != std::string::npos && c.id.file == "bib";
    });
  };
  const CellSpec thread_z = find(
      "gpu/compress/calgary/bib/finder:z/work_items:1024/chunk:4096/"
      "config:thesis/window_scope:block/design:thread");
  const CellSpec auto_z = find(
      "gpu/compress/calgary/bib/finder:z/work_items:1024/chunk:4096/"
      "config:thesis/window_scope:block/design:auto");
  // A launch lasts one chunk's serial parse: 1 and 2 MiB (256 and 512 chunks) are one launch
  // of 1024 work items, 8 MiB (2048 chunks) two.
  const double one_launch = estimate_cell_s(thread_z, 1 << 20, 16);
  EXPECT_NEAR(estimate_cell_s(thread_z, 2 << 20, 16), one_launch, 0.01 * one_launch);
  EXPECT_GT(estimate_cell_s(thread_z, 8 << 20, 16), 1.8 * one_launch);
  EXPECT_LT(estimate_cell_s(auto_z, 1 << 20, 16), one_launch / 5);
}

// A GPU codec's name and axes, for expanding a preset in a build without it (CPU CI, or no
// nvCOMP); never called.
class StandIn final : public TypedCodec<StandIn> {
 public:
  StandIn(std::string name, std::vector<AxisSpec> axes) {
    info_.name = std::move(name);
    info_.device = Device::gpu;
    info_.axes = std::move(axes);
  }
  struct Typed {};
  const CodecInfo& info() const override { return info_; }
  Typed typed(const Params&) const { return {}; }
  std::uint64_t max_compressed_size(std::uint64_t, const Typed&) const { return 0; }
  Bytes compress(ByteSpan, const Typed&, RunStats*) const { return {}; }
  Bytes decompress(ByteSpan, const Typed&, RunStats*) const { return {}; }

 private:
  CodecInfo info_;
};

AxisSpec range_axis(std::string name, std::int64_t def, std::int64_t min, std::int64_t max) {
  return AxisSpec{std::move(name), "", def, min, max, {}, {}, true};
}
AxisSpec named_axis(std::string name, std::int64_t def, std::vector<std::string> names) {
  const auto n = static_cast<std::int64_t>(names.size());
  return AxisSpec{std::move(name), "", def, 0, n - 1, {}, std::move(names), false};
}
AxisSpec width_axis() {
  return AxisSpec{"element_width", "", 1, 1, 4, {1, 2, 4}, {}, true};
}

// The registered codecs, and stand-ins for the GPU codecs the kernels preset names that this
// build lacks (with the axes of the real ones: --list on a CUDA build with nvCOMP).
std::vector<const Codec*> kernel_codecs() {
  static const std::vector<std::unique_ptr<StandIn>> stand_ins = [] {
    std::vector<std::unique_ptr<StandIn>> s;
    s.push_back(std::make_unique<StandIn>(
        "fl", std::vector{width_axis(), range_axis("frame_size", 1024, 1, 16777216)}));
    for (const char* rle : {"rle", "rle-cub"}) {
      s.push_back(std::make_unique<StandIn>(
          rle, std::vector{width_axis(), named_axis("decode", 0, {"scan", "flood"})}));
    }
    s.push_back(std::make_unique<StandIn>(
        "lz77", std::vector{named_axis("finder", 0, {"hash", "z", "brute"}),
                            range_axis("work_items", 1024, 1, 1048576),
                            range_axis("chunk", 4096, 64, 1048576),
                            named_axis("config", 0, {"thesis", "wide"}),
                            named_axis("window_scope", 0, {"block", "chunk"}),
                            named_axis("design", 3, {"thread", "block", "warp", "auto"}),
                            named_axis("decode_mode", 0, {"auto", "block", "chunk", "jump"})}));
    s.push_back(std::make_unique<StandIn>(
        "nvcomp-cascaded",
        std::vector{range_axis("chunk_size", 65536, 4096, 16777216), width_axis()}));
    s.push_back(std::make_unique<StandIn>(
        "nvcomp-lz4", std::vector{range_axis("chunk_size", 65536, 4096, 16777216)}));
    s.push_back(std::make_unique<StandIn>(
        "nvcomp-bitcomp",
        std::vector{range_axis("chunk_size", 65536, 4096, 16777216), width_axis()}));
    return s;
  }();
  std::vector<const Codec*> codecs = registered_codecs();
  for (const auto& stand_in : stand_ins) {
    if (!has(stand_in->info().name, Device::gpu)) codecs.push_back(stand_in.get());
  }
  return codecs;
}

// The kernels preset's inputs as it gathers them: its synthetic inputs, Silesia's mirrored files
// (their real sizes) and the same as one input.
std::vector<InputFile> kernel_preset_inputs() {
  std::vector<InputFile> in;
  for (const auto& [width, files] : studies::kernel_inputs("1GiB").runs_files) {
    for (const std::string& f : files) in.push_back(input("synthetic", f, 1 << 30));
  }
  for (const auto& [width, files] : studies::kernel_inputs("1GiB").small_ints_files) {
    for (const std::string& f : files) in.push_back(input("synthetic", f, 1 << 30));
  }
  for (const auto& [name, size] : std::map<std::string, std::uint64_t>{{"dickens", 10192446},
                                                                       {"mr", 9970564},
                                                                       {"nci", 33553445},
                                                                       {"ooffice", 6152192},
                                                                       {"osdb", 10085684},
                                                                       {"reymont", 6627202},
                                                                       {"x-ray", 8474240},
                                                                       {"xml", 5345280}}) {
    in.push_back(input("silesia", name, size));
  }
  in.push_back(input("silesia-concat", "all-8-of-12", 90401053));
  for (InputFile& f : tpch_inputs("tpch-sf1")) in.push_back(std::move(f));
  return in;
}

TEST(Presets, KernelInputsSweepRunLengthsAndWidths) {
  const studies::KernelInputs in = studies::kernel_inputs("1GiB");
  EXPECT_EQ(in.specs.size(), 14u);
  EXPECT_NE(std::find(in.specs.begin(), in.specs.end(), "synthetic:runs-uni4096:1GiB:4"),
            in.specs.end());
  EXPECT_EQ(in.runs_files.at(4),
            (std::vector<std::string>{"runs-geo1-1GiB-w4", "runs-geo2-1GiB-w4", "runs-geo8-1GiB-w4",
                                      "runs-geo64-1GiB-w4", "runs-geo4096-1GiB-w4",
                                      "runs-uni2-1GiB-w4", "runs-uni8-1GiB-w4",
                                      "runs-uni64-1GiB-w4", "runs-uni4096-1GiB-w4"}));
  EXPECT_EQ(in.runs_files.at(1), std::vector<std::string>{"runs-geo8-1GiB-w1"});
  EXPECT_EQ(in.small_ints_files.at(2), std::vector<std::string>{"small_ints-1GiB-w2"});
  // Every spec gathers to the file name the steps select.
  for (const std::string& spec : in.specs) {
    const InputFile f = gather_inputs({spec}, {}).present.at(0);
    bool named = false;
    for (const auto* files : {&in.runs_files, &in.small_ints_files}) {
      for (const auto& [width, names] : *files) {
        named = named || std::find(names.begin(), names.end(), f.name) != names.end();
      }
    }
    EXPECT_TRUE(named) << spec << " gives " << f.name;
  }
  const Preset& p = find_preset(studies::presets(), "kernels");
  EXPECT_EQ(std::vector<std::string>(p.inputs.end() - 3, p.inputs.end()),
            (std::vector<std::string>{"silesia", "concat:silesia", "tpch"}));
  EXPECT_EQ(std::vector<std::string>(p.inputs.begin(), p.inputs.end() - 3),
            studies::kernel_inputs("1GiB").specs);
}

TEST(Presets, KernelsExpandsToItsDeclaredCellsWithinEightMinutes) {
  const Preset& p = find_preset(studies::presets(), "kernels");
  const Options o = parse_options({"--cold-l2"});
  check_preset_options(p, o);
  const std::vector<const Codec*> all = kernel_codecs();
  const std::vector<InputFile> in = kernel_preset_inputs();
  const std::vector<CellSpec> cells =
      preset_cells(p, select_codecs(all, o.codecs, o.device), all, in, o);

  const int runs = 11, small_ints = 3, synthetic = runs + small_ints, silesia = 8, columns = 20;
  std::map<std::string, int> want;
  // TPC-H's columns: each codec at the column's width and its default frame size.
  want["rle/gpu/compress"] = want["rle-cub/gpu/compress"] = runs + columns;
  want["rle/gpu/decompress"] = 2 * (runs + columns);                               // scan and flood
  want["fl/gpu/compress"] = want["fl/gpu/decompress"] = 3 * small_ints + columns;  // 3 frames
  for (const char* dir : {"compress", "decompress"}) {
    want[fmt::format("nvcomp-cascaded/gpu/{}", dir)] = synthetic + silesia + columns;
    want[fmt::format("nvcomp-lz4/gpu/{}", dir)] = synthetic + silesia + 1;  // and as one input
    want[fmt::format("nvcomp-bitcomp/gpu/{}", dir)] = columns;
  }
  // Per file: block and warp designs, and the Z and brute finders (auto design, and on the CPU);
  // jump and block, then window_scope=chunk. As one input: warp; jump and window_scope=chunk.
  want["lz77/gpu/compress"] = 2 * silesia + 2 * silesia + 1;
  want["lz77/cpu/compress"] = 2 * silesia;
  want["lz77/gpu/decompress"] = 3 * silesia + 2;
  EXPECT_EQ(count(cells), want);

  std::set<std::string> names;
  for (const CellSpec& c : cells) EXPECT_TRUE(names.insert(c.name).second) << c.name;
  // The element width of every FL, RLE and nvCOMP Cascaded cell is its synthetic input's or
  // TPC-H column's; Cascaded reads Silesia's files as bytes.
  for (const CellSpec& c : cells) {
    if (const std::string* w = c.id.param("element_width")) {
      if (c.id.corpus == "silesia") {
        EXPECT_EQ(*w, "1") << c.name;
      } else if (c.id.corpus == "tpch-sf1") {
        EXPECT_TRUE(c.id.file.ends_with("." + *w)) << c.name;
      } else {
        EXPECT_TRUE(c.id.file.ends_with("-w" + *w)) << c.name;
      }
    }
  }
  EXPECT_TRUE(named(cells,
                    "nvcomp-cascaded/gpu/compress/synthetic/runs-geo8-1GiB-w4/chunk_size:65536/"
                    "element_width:4"));
  EXPECT_TRUE(named(cells,
                    "nvcomp-cascaded/gpu/decompress/synthetic/small_ints-1GiB-w2/"
                    "chunk_size:65536/element_width:2"));
  EXPECT_TRUE(named(cells,
                    "nvcomp-cascaded/gpu/compress/silesia/xml/chunk_size:65536/"
                    "element_width:1"));
  EXPECT_TRUE(named(cells,
                    "rle/gpu/decompress/synthetic/runs-uni4096-1GiB-w4/element_width:4/"
                    "decode:flood"));
  EXPECT_TRUE(named(cells,
                    "rle-cub/gpu/compress/synthetic/runs-geo8-1GiB-w2/element_width:2/"
                    "decode:scan"));
  EXPECT_TRUE(named(cells,
                    "fl/gpu/decompress/synthetic/small_ints-1GiB-w4/element_width:4/"
                    "frame_size:4096"));
  EXPECT_FALSE(named(cells,
                     "rle-cub/gpu/decompress/synthetic/runs-geo8-1GiB-w2/"
                     "element_width:2/decode:scan"));  // rle's decoders, once
  EXPECT_TRUE(named(cells,
                    "rle/gpu/decompress/tpch-sf1/lineitem.shipdate.2/element_width:2/"
                    "decode:flood"));
  EXPECT_TRUE(named(cells,
                    "nvcomp-cascaded/gpu/compress/tpch-sf1/orders.orderkey.4/chunk_size:65536/"
                    "element_width:4"));
  EXPECT_TRUE(named(cells,
                    "fl/gpu/compress/tpch-sf1/lineitem.quantity.1/element_width:1/"
                    "frame_size:1024"));
  EXPECT_TRUE(named(cells,
                    "lz77/gpu/decompress/silesia/dickens/finder:hash/work_items:1024/"
                    "chunk:4096/config:thesis/window_scope:block/design:warp/decode_mode:block"));
  EXPECT_TRUE(named(cells,
                    "lz77/gpu/decompress/silesia/dickens/finder:hash/work_items:1024/"
                    "chunk:4096/config:thesis/window_scope:chunk/design:warp/decode_mode:auto"));
  EXPECT_TRUE(named(cells,
                    "lz77/gpu/decompress/silesia-concat/all-8-of-12/finder:hash/work_items:1024/"
                    "chunk:4096/config:thesis/window_scope:chunk/design:warp/decode_mode:auto"));
  EXPECT_TRUE(named(cells,
                    "lz77/gpu/compress/silesia-concat/all-8-of-12/finder:hash/work_items:1024/"
                    "chunk:4096/config:thesis/window_scope:block/design:warp/decode_mode:auto"));

  // On each runs input, rle's decoders follow its encoder, before rle-cub's container comes.
  auto position = [&](const std::string& name) {
    return std::find_if(cells.begin(), cells.end(),
                        [&](const CellSpec& c) { return c.name == name; }) -
           cells.begin();
  };
  const std::string w4 = "synthetic/runs-geo1-1GiB-w4/element_width:4/decode:";
  EXPECT_LT(position("rle/gpu/compress/" + w4 + "scan"),
            position("rle/gpu/decompress/" + w4 + "flood"));
  EXPECT_LT(position("rle/gpu/decompress/" + w4 + "flood"),
            position("rle-cub/gpu/compress/" + w4 + "scan"));
  EXPECT_LT(position("rle-cub/gpu/compress/" + w4 + "scan"), static_cast<long>(cells.size()));

  // Kernel-only timing: one device command of at most 10 minutes holds it with room to spare.
  EXPECT_EQ(run_timing(&p, o), "kernel");
  const double estimate = estimate_sweep_s(cells, in, 16, true);
  const double with_end_to_end = estimate_sweep_s(cells, in, 16, false);
  std::cout << fmt::format(
      "[ kernels preset ] {} cells, estimated {:.0f} s kernel-only, {:.0f} s with every timing\n",
      cells.size(), estimate, with_end_to_end);
  EXPECT_LT(estimate, 8 * 60);
  EXPECT_GT(estimate, 60);  // 1 GiB cells: not a trivially empty sweep
  EXPECT_GT(with_end_to_end, 1.5 * estimate);
}

TEST(Presets, TimingIsTheFlagsElseThePresets) {
  const Preset& kernels = find_preset(studies::presets(), "kernels");
  const Preset& thesis = find_preset(studies::presets(), "thesis");
  EXPECT_EQ(kernels.timing, "kernel");
  EXPECT_EQ(run_timing(&kernels, parse_options({})), "kernel");
  EXPECT_EQ(run_timing(&kernels, parse_options({"--timing", "all"})), "all");
  EXPECT_EQ(run_timing(&thesis, parse_options({})), "all");
  EXPECT_EQ(run_timing(&thesis, parse_options({"--timing=kernel"})), "kernel");
  EXPECT_EQ(run_timing(nullptr, parse_options({})), "all");
  EXPECT_EQ(run_timing(nullptr, parse_options({"--timing", "kernel"})), "kernel");
  EXPECT_THROW(parse_options({"--timing", "e2e"}), std::invalid_argument);
  // --timing narrows nothing a preset declares: no contradiction.
  EXPECT_NO_THROW(check_preset_options(kernels, parse_options({"--timing", "all"})));
}

}  // namespace
}  // namespace gcbench::driver
