// The sweep driver: flags, axis points, codec selection, cell enumeration, the
// harness share's accounting, and cells run through Google Benchmark with small fake codecs
// (good, wrong output, GPU container differing from the CPU reference, GPU reporting no
// kernel time, output changing between calls); progress lines. What the driver records:
// driver_results_test.cpp.
#include <gtest/gtest.h>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "bench/driver/axes.hpp"
#include "bench/driver/cells.hpp"
#include "bench/driver/context.hpp"
#include "bench/driver/device_fit.hpp"
#include "bench/driver/execute.hpp"
#include "bench/driver/harness.hpp"
#include "bench/driver/inputs.hpp"
#include "bench/driver/options.hpp"
#include "bench/driver/progress.hpp"
#include "bench/driver/reporter.hpp"
#include "bench/driver/run_status.hpp"
#include "bench/driver/shard.hpp"
#include "bench/driver/verify.hpp"
#include "codecs/lz77/entropy_streams.hpp"
#include "corpora/synthetic.hpp"
#include "gcbench/errors.hpp"
#include "gcbench/registry.hpp"
#include "src/results/time_marks.hpp"
#include "support/driver_fixture.hpp"

namespace gcbench::driver {
namespace {
using fixture::Capture;
using fixture::DriverRun;
using fixture::FakeCodec;
using fixture::loaded;
using fixture::two_inputs;

TEST(Options, ParsesOwnFlagsAndAxisFlagsOfTheCodecs) {
  const FakeCodec fake("fake", {});
  Options o = parse_options({"--corpus", "calgary,canterbury", "--files=bib", "--codecs", "gpu",
                             "--device=cpu", "--work-items", "1024,2048", "--element-width=4",
                             "--out-dir", "/tmp/x", "--list", "--no-progress"},
                            {&fake});
  EXPECT_EQ(o.corpora, (std::vector<std::string>{"calgary", "canterbury"}));
  EXPECT_EQ(o.files, std::vector<std::string>{"bib"});
  EXPECT_EQ(o.codecs, std::vector<std::string>{"gpu"});
  EXPECT_EQ(o.device, "cpu");
  EXPECT_EQ(o.axis_values.size(), 2u);
  EXPECT_EQ(o.axis_values.at("work_items"), (std::vector<std::string>{"1024", "2048"}));
  EXPECT_EQ(o.axis_values.at("element_width"), std::vector<std::string>{"4"});
  EXPECT_EQ(o.out_dir, std::filesystem::path("/tmp/x"));
  EXPECT_TRUE(o.list);
  EXPECT_FALSE(o.progress);
  std::vector<std::string> given;
  for (const cli::GivenFlag& flag : o.given_flags) given.push_back(flag.flag);
  std::sort(given.begin(), given.end());
  EXPECT_EQ(given, (std::vector<std::string>{"--codecs", "--corpus", "--device", "--element-width",
                                             "--files", "--list", "--no-progress", "--out-dir",
                                             "--work-items"}));
  EXPECT_TRUE(o.was_given("--corpus"));
  EXPECT_FALSE(o.was_given("--sweep"));
  EXPECT_EQ(axis_flag("work_items"), "--work-items");
  // Every axis of the registered codecs has its flag.
  for (const Codec* c : registered_codecs()) {
    for (const AxisSpec& a : c->info().axes) {
      const std::string value = a.format(a.default_value);
      EXPECT_EQ(parse_options({axis_flag(a.name), value}).axis_values.at(a.name),
                std::vector<std::string>{value});
    }
  }
}

TEST(Options, HelpGivesEveryMeaningOfAnAxis) {
  const std::string help = describe_flags(registered_codecs());
  for (const Codec* c : registered_codecs()) {
    for (const AxisSpec& a : c->info().axes) {
      EXPECT_NE(help.find(a.help), std::string::npos) << c->info().name << " " << a.name;
    }
  }
}

TEST(Options, TheLastOfARepeatedFlagWins) {
  // Scripts (bench/run_suite.sh) put their defaults first and the user's flags after them.
  const Options o = parse_options({"--corpus", "canterbury", "--device=gpu", "--corpus=calgary",
                                   "--device", "cpu", "--shard", "1/2", "--shard=2/2"});
  EXPECT_EQ(o.corpora, std::vector<std::string>{"calgary"});
  EXPECT_EQ(o.device, "cpu");
  EXPECT_EQ(o.shard, (results::Shard{2, 2}));
}

TEST(Options, ErrorsAreOneLineNamingTheFlagAndWhatItAllows) {
  auto error = [](const std::vector<std::string>& args) -> std::string {
    try {
      parse_options(args);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "no error";
  };
  const std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> cases = {
      {{"--device", "tpu"}, {"--device", "tpu", "cpu", "gpu", "all"}},
      {{"--sweep=star"}, {"--sweep", "star", "axes", "product", "defaults"}},
      {{"--corpus", "a,,b"}, {"--corpus", "empty item in 'a,,b'"}},
      {{"--gpu-iterations", "0"}, {"--gpu-iterations", "1 to 1000000"}},
      {{"--pipeline-depth=65"}, {"--pipeline-depth", "1 to 64"}},
      {{"--pipeline-chunk", "0"}, {"--pipeline-chunk", "above 0"}},
      {{"--out-dir="}, {"--out-dir"}},
      {{"--no-progress=yes"}, {"--no-progress takes no value"}},
      {{"--shard", "3/2"}, {"--shard", "from 1 to N = 2"}},
      {{"--frobnicate", "1"}, {"unknown flag or stray argument: --frobnicate"}},
  };
  for (const auto& [args, words] : cases) {
    const std::string message = error(args);
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    for (const std::string& word : words) {
      EXPECT_NE(message.find(word), std::string::npos) << args[0] << ": " << message;
    }
  }
}

TEST(Options, SweepDownloadAndHarnessFile) {
  const Options defaults = parse_options({});
  EXPECT_EQ(defaults.sweep, "axes");
  EXPECT_TRUE(defaults.download);
  EXPECT_FALSE(defaults.harness_file);
  const Options o =
      parse_options({"--sweep=product", "--no-download", "--harness-file", "/tmp/h.txt"});
  EXPECT_EQ(o.sweep, "product");
  EXPECT_FALSE(o.download);
  EXPECT_EQ(o.harness_file, std::filesystem::path("/tmp/h.txt"));
  EXPECT_THROW(parse_options({"--sweep", "star"}), std::invalid_argument);
  EXPECT_THROW(parse_options({"--no-download=1"}), std::invalid_argument);
  EXPECT_THROW(parse_options({"--harness-file="}), std::invalid_argument);
}

TEST(Options, ColdL2IsAFlagWithoutValue) {
  EXPECT_FALSE(parse_options({}).cold_l2);
  EXPECT_TRUE(parse_options({"--cold-l2"}).cold_l2);
  EXPECT_TRUE(parse_options({"--device", "cpu", "--cold-l2"}).cold_l2);
  EXPECT_THROW(parse_options({"--cold-l2=yes"}), std::invalid_argument);
}

TEST(ColdL2, FlushesOnlyWhenAskedAndThereAreGpuCellsAndNotesTheRest) {
  const ColdL2Plan warm = plan_cold_l2(false, 5, "NVIDIA H100");
  EXPECT_FALSE(warm.flush);
  EXPECT_FALSE(warm.note);
  EXPECT_TRUE(warm.context.starts_with("no: warm")) << warm.context;

  const ColdL2Plan cold = plan_cold_l2(true, 5, "NVIDIA H100");
  EXPECT_TRUE(cold.flush);
  EXPECT_FALSE(cold.note);

  // Without GPU cells: not an error, a note that names why, and the context says so.
  const ColdL2Plan none = plan_cold_l2(true, 0, "none: built without CUDA");
  EXPECT_FALSE(none.flush);
  ASSERT_TRUE(none.note);
  EXPECT_NE(none.note->find("--cold-l2: no GPU cells in this run (GPU: none: built without CUDA)"),
            std::string::npos)
      << *none.note;
  EXPECT_TRUE(none.context.starts_with("requested, not applied")) << none.context;
}

TEST(Options, GpuIterationsArePositive) {
  EXPECT_EQ(parse_options({}).gpu_iterations, 10);
  EXPECT_EQ(parse_options({"--gpu-iterations", "3"}).gpu_iterations, 3);
  EXPECT_THROW(parse_options({"--gpu-iterations=0"}), std::invalid_argument);
  EXPECT_THROW(parse_options({"--gpu-iterations=2x"}), std::invalid_argument);
}

TEST(Options, PathsAreInputsBesideAnExplicitCorpusOnly) {
  EXPECT_EQ(input_corpora(parse_options({})), std::vector<std::string>{"canterbury"});
  const Options paths = parse_options({"my,data", "--include", "*.bin", "b"});
  EXPECT_EQ(input_corpora(paths), (std::vector<std::string>{"path:my,data", "path:b"}));
  EXPECT_EQ(paths.path_filter.include, std::vector<std::string>{"*.bin"});
  EXPECT_EQ(input_corpora(parse_options({"a", "--corpus", "calgary"})),
            (std::vector<std::string>{"calgary", "path:a"}));
}

TEST(Options, RejectsBadInput) {
  EXPECT_THROW(parse_options({"--device", "tpu"}), std::invalid_argument);
  EXPECT_THROW(parse_options({"--work-items", "1024,,2048"}), std::invalid_argument);
  EXPECT_THROW(parse_options({"--corpus"}), std::invalid_argument);
  EXPECT_THROW(parse_options({"--as", "a/b"}), std::invalid_argument);
  // A name that a path reads as another folder would write results outside --out-dir.
  EXPECT_THROW(parse_options({"--as", ".."}), std::invalid_argument);
  EXPECT_THROW(parse_options({"--as", "."}), std::invalid_argument);
  EXPECT_THROW(parse_options({"--list=yes"}), std::invalid_argument);
}

TEST(Axes, DefaultSweepKeepsOnlyAcceptedPointsAndGivenValuesAreChecked) {
  FakeCodec codec("fake", {});
  std::vector<Params> points = param_points(codec.info(), {}, Sweep::product);
  // element_width 1,2,4 x work_items 1024,1536,2048 (2560.. rejected by this codec).
  ASSERT_EQ(points.size(), 9u);
  EXPECT_EQ(points.front(), (Params{{"element_width", 1}, {"work_items", 1024}}));
  EXPECT_EQ(points.back(), (Params{{"element_width", 4}, {"work_items", 2048}}));
  for (Sweep sweep : {Sweep::axes, Sweep::product, Sweep::defaults}) {
    points = param_points(codec.info(), {{"work_items", {"7"}}, {"element_width", {"2"}}}, sweep);
    ASSERT_EQ(points.size(), 1u);
    EXPECT_EQ(points[0].at("work_items"), 7);
  }
  EXPECT_THROW(param_points(codec.info(), {{"element_width", {"3"}}}, Sweep::axes), ParamError);
  EXPECT_THROW(param_points(codec.info(), {{"work_items", {"5120"}}}, Sweep::axes), ParamError);
}

TEST(Axes, SweepsVaryOneAxisAtATimeAllAxesOrNone) {
  FakeCodec codec("fake", {});
  using P = Params;
  // One axis at a time: the default point, then each axis's other values.
  EXPECT_EQ(param_points(codec.info(), {}, Sweep::axes),
            (std::vector<P>{{{"element_width", 1}, {"work_items", 1024}},
                            {{"element_width", 2}, {"work_items", 1024}},
                            {{"element_width", 4}, {"work_items", 1024}},
                            {{"element_width", 1}, {"work_items", 1536}},
                            {{"element_width", 1}, {"work_items", 2048}}}));
  EXPECT_EQ(param_points(codec.info(), {}, Sweep::defaults),
            (std::vector<P>{{{"element_width", 1}, {"work_items", 1024}}}));
  // Given axes take every combination of their values; the rest as the sweep says.
  const AxisValues given{{"element_width", {"2", "4"}}};
  EXPECT_EQ(param_points(codec.info(), given, Sweep::axes),
            (std::vector<P>{{{"element_width", 2}, {"work_items", 1024}},
                            {{"element_width", 2}, {"work_items", 1536}},
                            {{"element_width", 2}, {"work_items", 2048}},
                            {{"element_width", 4}, {"work_items", 1024}},
                            {{"element_width", 4}, {"work_items", 1536}},
                            {{"element_width", 4}, {"work_items", 2048}}}));
  EXPECT_EQ(param_points(codec.info(), given, Sweep::defaults).size(), 2u);
  EXPECT_EQ(parse_sweep("product"), Sweep::product);
  EXPECT_THROW(parse_sweep("all"), std::invalid_argument);
}

TEST(Cells, SelectsByNameAndGroupAndDevice) {
  FakeCodec a_cpu("a", {}), a_gpu("a", {.device = Device::gpu}), b_cpu("b", {});
  std::vector<const Codec*> all{&a_cpu, &a_gpu, &b_cpu};
  EXPECT_EQ(select_codecs(all, {"all"}, "all").size(), 3u);
  EXPECT_EQ(select_codecs(all, {"gpu"}, "all"), std::vector<const Codec*>{&a_gpu});
  EXPECT_EQ(select_codecs(all, {"a"}, "cpu"), std::vector<const Codec*>{&a_cpu});
  EXPECT_EQ(select_codecs(all, {"b", "a", "b"}, "all"),
            (std::vector<const Codec*>{&b_cpu, &a_cpu, &a_gpu}));
  EXPECT_THROW(select_codecs(all, {"zstd"}, "all"), std::invalid_argument);
  EXPECT_NO_THROW(check_axis_flags(all, {{"work_items", {"1"}}}));
  EXPECT_THROW(check_axis_flags(all, {{"frame_size", {"1"}}}), std::invalid_argument);
}

// lzbench's -e: codecs separated by '/', each with its own levels; the registry's zstd, lz4 and
// lz4hc (lz4's HC levels are lz4hc's, as in lzbench); a level a codec cannot take, shared or its
// own, is an error naming that codec.
TEST(Cells, LzbenchSyntaxGivesEachCodecItsOwnLevels) {
  const std::vector<const Codec*> all = registered_codecs();
  if (find_codec("zstd", Device::cpu) == nullptr || find_codec("lz4", Device::cpu) == nullptr) {
    GTEST_SKIP() << "built without the zstd and lz4 peers";
  }
  Options o = parse_options({"-e", "zstd,1,5/lz4/lz4hc,9", "--device", "cpu"});
  EXPECT_EQ(o.codecs, (std::vector<std::string>{"zstd", "lz4", "lz4hc"}));
  const std::vector<const Codec*> selected = select_codecs(all, o.codecs, o.device);
  EXPECT_NO_THROW(check_axis_flags(selected, o.axis_values, o.codec_levels));
  const std::vector<InputFile> inputs = fixture::two_inputs();
  std::map<std::string, std::set<std::string>> levels;  // codec -> levels of its cells
  for (const CellSpec& cell : enumerate_cells(selected, all, {inputs[0]}, o)) {
    levels[cell.id.codec].insert(*cell.id.param("level"));
  }
  EXPECT_EQ(levels["zstd"], (std::set<std::string>{"1", "5"}));
  EXPECT_EQ(levels["lz4"], std::set<std::string>{"0"});
  EXPECT_EQ(levels["lz4hc"], std::set<std::string>{"9"});
  const auto error_of = [&](const std::vector<std::string>& args) {
    const Options bad = parse_options(args);
    try {
      check_axis_flags(select_codecs(all, bad.codecs, "cpu"), bad.axis_values, bad.codec_levels);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_NE(error_of({"-e", "lz4,1"}).find("-e lz4, 1: lz4/cpu takes"), std::string::npos)
      << error_of({"-e", "lz4,1"});
  EXPECT_NE(error_of({"--codecs", "zstd,lz4", "--level", "12"}).find("--level 12: lz4/cpu takes"),
            std::string::npos)
      << error_of({"--codecs", "zstd,lz4", "--level", "12"});
  EXPECT_NE(error_of({"-e", "zlib,6/fl,3"}).find("fl/cpu has no levels"), std::string::npos);
  EXPECT_THROW(parse_options({"-e", "zstd//lz4"}), std::invalid_argument);
}

TEST(Cells, EnumeratesEveryPointWithCpuBeforeGpuAndReferences) {
  FakeCodec gpu("a", {.device = Device::gpu}), cpu("a", {});
  std::vector<const Codec*> all{&gpu, &cpu};
  Options o;
  o.sweep = "product";
  o.axis_values = {{"work_items", {"1024", "2048"}}};
  std::vector<CellSpec> cells = enumerate_cells(all, all, two_inputs(), o);
  // 2 files x 2 devices x (3 widths x 2 work-item counts) x 2 directions
  ASSERT_EQ(cells.size(), 2u * 2 * 6 * 2);
  EXPECT_EQ(cells[0].name, "a/cpu/compress/test/a.bin/element_width:1/work_items:1024");
  EXPECT_EQ(cells[1].direction, Direction::decompress);
  EXPECT_EQ(cells[0].reference, nullptr);
  EXPECT_EQ(cells[12].codec, &gpu);
  EXPECT_EQ(cells[12].reference, &cpu);
  EXPECT_EQ(cells[24].id.file, "b.bin");
  o.direction = "decompress";
  EXPECT_EQ(enumerate_cells({&cpu}, all, two_inputs(), o).size(), 2u * 6);
  o.sweep = "axes";  // the widths one at a time: 1, 2, 4 at the given work-item counts
  EXPECT_EQ(enumerate_cells({&cpu}, all, two_inputs(), o).size(), 2u * 6);
  o.sweep = "defaults";
  EXPECT_EQ(enumerate_cells({&cpu}, all, two_inputs(), o).size(), 2u * 2);
}

// A GPU codec that names its CPU reference (rle-cub: rle) is checked against that one.
TEST(Cells, AGpuCodecsNamedReferenceIsItsReference) {
  FakeCodec named("a-cub", {.device = Device::gpu, .cpu_reference = "a"}), cpu("a", {}),
      own("a-cub", {}), unnamed("b", {.device = Device::gpu});
  Options o;
  o.direction = "compress";
  std::vector<const Codec*> all{&named, &cpu, &unnamed};
  for (const CellSpec& cell : enumerate_cells({&named}, all, two_inputs(), o)) {
    EXPECT_EQ(cell.reference, &cpu);
  }
  for (const CellSpec& cell : enumerate_cells({&unnamed}, all, two_inputs(), o)) {
    EXPECT_EQ(cell.reference, nullptr);
  }
  all.push_back(&own);  // a CPU codec of its own name does not take the named one's place
  for (const CellSpec& cell : enumerate_cells({&named}, all, two_inputs(), o)) {
    EXPECT_EQ(cell.reference, &cpu);
  }
}

TEST(Verify, NamesTheFirstDifferingByte) {
  Bytes a{1, 2, 3, 4};
  EXPECT_EQ(first_difference(a, a), std::nullopt);
  EXPECT_EQ(first_difference(a, Bytes{1, 2, 9, 4}), 2u);
  EXPECT_EQ(first_difference(a, Bytes{1, 2}), 2u);
  EXPECT_EQ(*describe_difference(a, Bytes{1, 9, 3, 4}, "x", "y"),
            "x differs from y at byte 1 (sizes 4 vs 4)");
}

// A container kept for two codecs (a GPU codec's found equal to its CPU reference's) is one
// copy, counted once against the cache's budget (the input's size and 64 MiB): two entries of
// one 40 MiB container both stay, where two copies would evict the older.
TEST(Workspace, AContainerKeptForTwoCodecsIsOneCopy) {
  const std::vector<InputFile> inputs = gather_inputs({"synthetic:small_ints:4KiB"}, {}).present;
  Workspace workspace(inputs);
  workspace.input(0);
  const Codec& fl = *find_codec("fl", Device::cpu);
  const Codec& rle = *find_codec("rle", Device::cpu);
  workspace.remember(fl, {}, Bytes(std::size_t{40} << 20, 7), true);
  const Bytes* kept = workspace.verified(fl, {});
  ASSERT_NE(kept, nullptr);
  workspace.remember_same(rle, {}, *kept);
  EXPECT_EQ(workspace.verified(rle, {}), kept);
  EXPECT_EQ(workspace.verified(fl, {}), kept);
  const Bytes elsewhere(16);
  EXPECT_THROW(workspace.remember_same(rle, {}, elsewhere), std::logic_error);
  // Entries sharing the newest container stay whatever its size: a 2 GiB container is kept
  // for both a GPU codec and its reference.
  workspace.remember(fl, {{"threads", 1}}, Bytes(std::size_t{70} << 20, 8), true);
  const Bytes* large = workspace.verified(fl, {{"threads", 1}});
  workspace.remember_same(rle, {{"threads", 1}}, *large);
  EXPECT_EQ(workspace.verified(fl, {{"threads", 1}}), large);
  EXPECT_EQ(workspace.verified(rle, {{"threads", 1}}), large);
  EXPECT_EQ(workspace.verified(fl, {}), nullptr);  // evicted: 110 MiB over the budget
  // A container held outside the cache outlives its eviction.
  const std::shared_ptr<const Bytes> held = workspace.held(fl, {{"threads", 1}});
  workspace.remember(rle, {{"threads", 2}}, Bytes(std::size_t{70} << 20, 9), true);
  EXPECT_EQ(workspace.verified(fl, {{"threads", 1}}), nullptr);
  EXPECT_EQ(held->size(), std::size_t{70} << 20);
  // Room for a container about to be made: the oldest go until it fits, no more.
  workspace.remember(fl, {}, Bytes(std::size_t{30} << 20, 1), true);
  workspace.remember(rle, {}, Bytes(16, 2), true);
  workspace.make_room(std::size_t{40} << 20);
  EXPECT_EQ(workspace.verified(fl, {}), nullptr);
  EXPECT_NE(workspace.verified(rle, {}), nullptr);
}

TEST(Inputs, ParsesSizes) {
  EXPECT_EQ(parse_size("4096"), 4096u);
  EXPECT_EQ(parse_size("64MiB"), 64u << 20);
  EXPECT_EQ(parse_size("2KiB"), 2048u);
  EXPECT_THROW(parse_size("12MB"), std::invalid_argument);
  EXPECT_THROW(parse_size("x"), std::invalid_argument);
}

TEST(Inputs, SyntheticTakesAnElementWidth) {
  const InputFile bytes = gather_inputs({"synthetic:small_ints:4KiB"}, {}).present.at(0);
  const InputFile words = gather_inputs({"synthetic:small_ints:4KiB:4"}, {}).present.at(0);
  EXPECT_EQ(bytes.name, "small_ints-4KiB");
  EXPECT_EQ(words.name, "small_ints-4KiB-w4");
  EXPECT_EQ(words.size, 4096u);
  const Bytes w = loaded(words);
  EXPECT_EQ(w, synthetic::generate(
                   {.kind = synthetic::Kind::small_ints, .size_bytes = 4096, .element_width = 4}));
  EXPECT_NE(w, loaded(bytes));
  EXPECT_THROW(gather_inputs({"synthetic:small_ints:4KiB:3"}, {}), std::invalid_argument);
}

TEST(Inputs, SyntheticRunsTakeADistributionAndAMean) {
  const InputFile geo = gather_inputs({"synthetic:runs-geo64:64KiB:4"}, {}).present.at(0);
  const InputFile uni = gather_inputs({"synthetic:runs-uni64:64KiB:4"}, {}).present.at(0);
  EXPECT_EQ(geo.name, "runs-geo64-64KiB-w4");
  EXPECT_EQ(uni.name, "runs-uni64-64KiB-w4");
  synthetic::Spec spec = synthetic::parse_kind_text("runs-uni64");
  spec.size_bytes = 64 << 10;
  spec.element_width = 4;
  EXPECT_EQ(loaded(uni), synthetic::generate(spec));
  EXPECT_NE(loaded(uni), loaded(geo));
  // Plain runs stay what they were: geometric, mean 8.
  EXPECT_EQ(loaded(gather_inputs({"synthetic:runs:4KiB"}, {}).present.at(0)),
            synthetic::generate({.kind = synthetic::Kind::runs, .size_bytes = 4096}));
  for (const char* bad :
       {"synthetic:runs-geo0:4KiB", "synthetic:runs-poisson8:4KiB", "synthetic:runs-uni8x:4KiB"}) {
    EXPECT_THROW(gather_inputs({bad}, {}), std::invalid_argument) << bad;
  }
}

TEST(Inputs, ACorpusNamedTwiceIsGatheredOnce) {
  const Inputs once = gather_inputs({"canterbury", "synthetic:runs:1KiB"}, {});
  const Inputs twice =
      gather_inputs({"canterbury", "synthetic:runs:1KiB", "canterbury", "synthetic:runs:1KiB"}, {});
  EXPECT_EQ(twice.present.size(), once.present.size());
  EXPECT_EQ(twice.missing.size(), once.missing.size());
}

TEST(Inputs, ConcatenatesACorpusIntoOneInput) {
  Inputs whole = gather_inputs({"canterbury"}, {});
  if (whole.present.empty()) GTEST_SKIP() << "no Canterbury file available (no corpus mirror)";
  Inputs concat = gather_inputs({"concat:canterbury"}, {});
  ASSERT_EQ(concat.present.size(), 1u);
  const InputFile& all = concat.present[0];
  EXPECT_EQ(all.corpus, "canterbury-concat");
  EXPECT_EQ(all.name, "all-" + std::to_string(whole.present.size()) + "-of-" +
                          std::to_string(whole.present.size() + whole.missing.size()));
  Bytes expected;
  for (const InputFile& f : whole.present) {
    Bytes part = loaded(f);
    expected.insert(expected.end(), part.begin(), part.end());
  }
  EXPECT_EQ(all.size, expected.size());
  EXPECT_TRUE(loaded(all) == expected);
  // A corpus file is mapped; the concatenation, bytes of several files, is in memory.
  EXPECT_TRUE(whole.present.at(0).load().mapped());
  EXPECT_FALSE(all.load().mapped());
}

TEST(Progress, TimeLeftIsShownOnlyOnceItsOwnForecastHasHeld) {
  std::ostringstream out;
  std::map<std::string, double> weights;
  for (int i = 0; i < 10; ++i) weights["c" + std::to_string(i)] = 1;
  weights["big"] = 30;  // the model's seconds: 30 cells' worth
  Progress p(weights, out);
  EXPECT_EQ(p.line("x", 0), "[gcbench] cell 0 of 11, elapsed 0s (x)");
  p.cell_done_at("c0", 1);
  p.cell_done_at("c0", 1);  // runs and aggregates of one cell count once
  EXPECT_NE(out.str().find("cell 1 of 11"), std::string::npos);
  for (std::size_t i = 1; i + 1 < Progress::kMinCells; ++i)
    p.cell_done_at("c" + std::to_string(i), static_cast<double>(i + 1));
  EXPECT_EQ(p.time_left(3), std::nullopt) << "too few cells to have checked the rate";
  // Cells at the rate the model expects: the rate of the first half forecast the second half.
  p.cell_done_at("c3", 4);
  ASSERT_TRUE(p.time_left(4).has_value());
  EXPECT_DOUBLE_EQ(*p.time_left(4), 36);  // 36 of 40 weights left at 1 s each
  EXPECT_EQ(p.line("c3", 4), "[gcbench] cell 4 of 11, elapsed 4s, about 36s left (c3)");
  // A cell five times slower than the model said: the forecast failed, nothing is shown ...
  p.cell_done_at("c4", 9);
  EXPECT_EQ(p.time_left(9), std::nullopt);
  EXPECT_EQ(p.line("c4", 9), "[gcbench] cell 5 of 11, elapsed 9s (c4)");
  // ... until cells at one rate make it hold again: 2 s per weight from here on, forecast at
  // 1.8 s from the half point (5 weights in 9 s).
  for (int i = 5; i < 9; ++i) p.cell_done_at("c" + std::to_string(i), 9 + 2 * (i - 4));
  // The half point (4 weights in 4 s) forecast 5 s for the 5 weights since; they took 13 s.
  EXPECT_EQ(p.time_left(17), std::nullopt);
  p.cell_done_at("c9", 19);
  ASSERT_TRUE(p.time_left(19).has_value());
  EXPECT_DOUBLE_EQ(*p.time_left(19), 57);  // 30 weights at 19 s / 10
  p.cell_done_at("big", 79);
  EXPECT_EQ(p.time_left(79), std::nullopt) << "every cell done: nothing left to estimate";
  EXPECT_EQ(format_duration(3725), "1h02m");
  EXPECT_EQ(format_duration(65), "1m05s");
}

TEST(Progress, LiveLineIsRedrawnInPlaceWithinTheWidthAndClearedForTheTable) {
  const std::string name =
      "lz77/cpu/compress/canterbury/alice29.txt/finder:z/work_items:2048/chunk:4096/"
      "config:thesis/window_scope:block/decode_mode:parallel/threads:0";
  std::ostringstream out;
  Progress p({{name, 100}, {"other", 100}}, out, ProgressStyle::live, 100,
             ConsoleNames::of(registered_codecs()));
  p.cell_done(name);
  const std::string drawn = out.str();
  ASSERT_TRUE(drawn.starts_with("\r")) << drawn;
  EXPECT_EQ(drawn.find('\n'), std::string::npos) << drawn;  // stays on one line
  const std::string text = drawn.substr(1, drawn.find("\033[K") - 1);
  EXPECT_EQ(text.size(), 99u) << text;  // the last column stays free
  EXPECT_TRUE(text.starts_with("[gcbench] cell 1 of 2, elapsed ")) << text;
  // Codec, direction and file kept; the axes off their defaults cut at the end.
  EXPECT_NE(text.find("(lz77/cpu/compress canterbury/alice29.txt finder:z work"), std::string::npos)
      << text;
  EXPECT_TRUE(text.ends_with("...)")) << text;
  EXPECT_EQ(text.find("threads"), std::string::npos) << "an axis at its default shown: " << text;

  out.str("");
  p.clear();  // before a table row
  EXPECT_EQ(out.str(), "\r\033[K");
  out.str("");
  p.cell_done(name);  // the same cell's aggregates: drawn again, not counted again
  EXPECT_EQ(out.str(), drawn);
  out.str("");
  p.finish();
  EXPECT_EQ(out.str(), "\n");
  out.str("");
  p.clear();  // nothing on screen: nothing to erase
  EXPECT_EQ(out.str(), "");

  // A name that fits is shown whole; in a narrow line the file's middle goes, not the codec.
  EXPECT_EQ(p.fitted_line("short", 0, 200), p.line("short", 0));
  const std::string narrow = p.fitted_line(name, 0, 64);
  EXPECT_EQ(narrow.size(), 64u) << narrow;
  EXPECT_NE(narrow.find("(lz77/cpu/compress ..."), std::string::npos) << narrow;
  EXPECT_TRUE(narrow.ends_with("29.txt)")) << narrow;
}

TEST(Reporter, ExplainsGoogleBenchmarksDebugWarning) {
  const std::string printed =
      "Running gcbench\n***WARNING*** Library was built as DEBUG. Timings may be affected.\n"
      "Load Average: 1.00\n";
  const std::string said = explain_debug_warning(printed);
  EXPECT_EQ(said.find("***WARNING*** Library was built as DEBUG"), std::string::npos) << said;
  EXPECT_NE(said.find("built without NDEBUG (Debian's package)"), std::string::npos) << said;
  EXPECT_TRUE(said.starts_with("Running gcbench\n")) << said;
  EXPECT_TRUE(said.ends_with("\nLoad Average: 1.00\n")) << said;
  EXPECT_EQ(explain_debug_warning("no warning\n"), "no warning\n");
}

// A cell skipped on purpose (its reason begins "skipped: ") is recorded as not measured, and
// is no failure of the run.
TEST(Reporter, ASkippedCellIsNoFailure) {
  struct Run {
    bool error_occurred;
    std::string error_message;
  };
  const Run skipped{true, "skipped: needs 150.2 GB on the device, 139.1 GB free"};
  EXPECT_TRUE(run_failed(skipped));
  EXPECT_TRUE(run_skipped(skipped));
  EXPECT_FALSE(run_skipped(Run{true, "decompressed output differs from the input at byte 7"}));
  EXPECT_FALSE(run_skipped(Run{false, ""}));
}

TEST(DeviceFit, ACellWhoseBuffersDoNotFitIsSkippedWithWhatItNeeds) {
  constexpr std::uint64_t GB = 1000 * 1000 * 1000;
  EXPECT_EQ(device_shortfall(10 * GB, 80 * GB), std::nullopt);
  EXPECT_EQ(device_shortfall(150'200'000'000, 139'100'000'000),
            "skipped: needs 150.2 GB on the device, 139.1 GB free");
  // The headroom for the cell's small buffers is kept free too.
  EXPECT_EQ(device_shortfall(80 * GB - kDeviceHeadroomBytes, 80 * GB), std::nullopt);
  EXPECT_TRUE(device_shortfall(80 * GB - kDeviceHeadroomBytes + 1, 80 * GB).has_value());
  EXPECT_EQ(device_shortfall(100'000'000, 32'000'000),
            "skipped: needs 100.0 MB on the device, 32.0 MB free");
}

TEST(EntropyCounter, Lz77DeclaresItCodedOncePerDistinctContainer) {
  const Codec* lz77 = nullptr;
  for (const CodecPtr& c : registry()) {
    if (c->info().name == "lz77" && c->info().device == Device::cpu) lz77 = c.get();
  }
  ASSERT_NE(lz77, nullptr);
  Bytes input(20000);
  for (std::size_t i = 0; i < input.size(); ++i)
    input[i] = static_cast<std::uint8_t>(i % 251 ^ i / 97);
  const Params params = resolve_params(lz77->info().axes, {});
  const Bytes a = lz77->compress(input, params);
  input[123] ^= 0x55;
  const Bytes b = lz77->compress(input, params);
  ASSERT_NE(a, b);
  // Asked again (the memo) or for other bytes of the same size: the coder's own answer.
  const auto& counters = lz77->info().container_counters;
  ASSERT_TRUE(counters);
  for (const Bytes* c : {&a, &b, &a, &b}) {
    const auto own = counters(*c);
    ASSERT_EQ(own.size(), 1u);
    EXPECT_EQ(own[0].first, "entropy_bytes");
    EXPECT_EQ(own[0].second, static_cast<double>(gcbench::lz77::entropy_size(*c)));
  }
}

benchmark::BenchmarkReporter::Run fake_run(const std::string& name, double accumulated_s) {
  benchmark::BenchmarkReporter::Run r;
  r.run_name.function_name = name;
  r.iterations = 4;
  r.real_accumulated_time = accumulated_s;
  return r;
}

TEST(Harness, TimedSecondsAreTheReportedIterationsPlusEachRepetitionsEndToEndRuns) {
  using Run = benchmark::BenchmarkReporter::Run;
  const std::string cpu = "fl/cpu/compress/c/f/element_width:1";
  const std::string gpu = "fl/gpu/decompress/c/f/element_width:1";
  Run plain = fake_run(cpu, 0.5);
  EXPECT_DOUBLE_EQ(HarnessTally::timed_seconds(plain), 0.5);
  Run with_e2e = fake_run(gpu, 0.25);
  with_e2e.counters["e2e_timed_s"] = benchmark::Counter(2.0);
  EXPECT_DOUBLE_EQ(HarnessTally::timed_seconds(with_e2e), 2.25);
  Run aggregate = fake_run(cpu, 9);
  aggregate.run_type = Run::RT_Aggregate;
  EXPECT_DOUBLE_EQ(HarnessTally::timed_seconds(aggregate), 0);

  HarnessTally tally;
  tally.add({plain}, 2.0);
  // Two repetitions of one GPU cell, each with end-to-end runs of its own, then their aggregate.
  Run second = with_e2e;
  second.repetition_index = 1;
  second.counters["e2e_timed_s"] = benchmark::Counter(1.5);
  tally.add({with_e2e, second}, 5.0);
  tally.add({aggregate}, 0.0);
  EXPECT_EQ(tally.cells(), 2);
  EXPECT_DOUBLE_EQ(tally.timed_s(), 0.5 + 2.25 + 1.75);
  EXPECT_DOUBLE_EQ(tally.cells_wall_s(), 7.0);
  ASSERT_EQ(tally.groups().size(), 2u);
  const HarnessGroup& g = tally.groups().at("fl/gpu/decompress");
  EXPECT_EQ(g.cells, 1);
  EXPECT_DOUBLE_EQ(g.wall_s, 5.0);
  EXPECT_DOUBLE_EQ(g.timed_s, 4.0);
}

TEST(Harness, SummaryStatesShareWallAndMemoryBound) {
  HarnessSummary s;
  s.wall_s = 200;
  s.timed_s = 50;
  s.setup_s = 12.5;
  s.cells = 7;
  s.peak_rss_bytes = std::uint64_t{3} << 29;  // 1.5 GiB
  s.largest_input_bytes = 100'000'000;
  EXPECT_DOUBLE_EQ(s.share(), 0.25);
  const std::string text = format_summary(s, {{"lz77/gpu/compress", {3, 120, 30}}});
  EXPECT_NE(text.find("harness share 25.0%: 50.0 s timed of 200.0 s wall, 7 cells (12.5 s "
                      "before the first cell)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("peak RSS 1.50 GiB"), std::string::npos) << text;
  EXPECT_NE(text.find("3 x largest input (100.0 MB) + 1 GiB = 1.28 GiB"), std::string::npos)
      << text;
  EXPECT_NE(text.find("lz77/gpu/compress"), std::string::npos) << text;
  EXPECT_NE(text.find("25.0%\n"), std::string::npos) << text;
  EXPECT_EQ(harness_line(s),
            "timed_s=50.000 wall_s=200.000 setup_s=12.500 cells=7 peak_rss_bytes=1610612736 "
            "largest_input_bytes=100000000");
  const auto context = harness_context(s);
  ASSERT_FALSE(context.empty());
  EXPECT_EQ(context[0], (std::pair<std::string, std::string>{"peak_rss_bytes", "1610612736"}));
  EXPECT_GT(peak_rss_bytes(), 0u);
}

TEST_F(DriverRun, GoodCellsReportVerifiedCounters) {
  FakeCodec cpu("a", {});
  Capture cap;
  run({&cpu}, {&cpu}, cap);
  ASSERT_EQ(cap.got.size(), 4u);
  for (const auto& r : cap.got) {
    EXPECT_FALSE(run_failed(r)) << run_message(r);
    EXPECT_EQ(r.counters.at("verified").value, 1);
    EXPECT_EQ(r.counters.at("compressed_bytes").value, r.counters.at("input_bytes").value + 1);
    EXPECT_GT(r.counters.at("e2e_s").value, 0);
    EXPECT_EQ(r.counters.count("entropy_bytes"), 0u);  // not an LZ77 container
  }
  EXPECT_EQ(cap.got[0].counters.at("input_bytes").value, 1000);
}

// The stopping rule in a cell: a codec whose calls alternate between fast and 1 ms slower
// samples until the cap and records its mean's error over the target. The cap is long enough
// for more than the minimum count even where a loaded machine oversleeps each call severalfold.
TEST_F(DriverRun, JitteredCellSamplesUntilItsCapAndSaysItIsNoisy) {
  stopping_.max_time_s = 0.1;
  FakeCodec jittered("a", {.jitter_s = 1e-3});
  Capture cap;
  run({&jittered}, {&jittered}, cap, "compress");
  ASSERT_EQ(cap.got.size(), 2u);
  for (const auto& r : cap.got) {
    ASSERT_FALSE(run_failed(r)) << run_message(r);
    const auto& c = r.counters;
    EXPECT_GT(c.at("samples").value, 5);  // past the minimum count
    EXPECT_GT(c.at("error_pct").value, c.at("max_error_pct").value);
    EXPECT_NEAR(c.at("error_pct").value, c.at("noise_pct").value / std::sqrt(c.at("samples").value),
                1e-9);
    EXPECT_DOUBLE_EQ(c.at("max_error_pct").value, 3);  // a CPU cell's target
    // Within the 0.1 s cap: every other call sleeps 1 ms, so at most 100 sleeping calls fit, and
    // a loaded machine (sleeps oversleep) only gives fewer.
    EXPECT_LE(c.at("samples").value, 2 * 100 + 1);
    EXPECT_GT(c.at("cpu_share").value, 0);
    // Asleep half its calls, the timing thread was off a CPU as on a busy machine: marked.
    EXPECT_LT(c.at("cpu_share").value, results::kBusyBelow);
    EXPECT_EQ(c.at("busy").value, 1);
    // The iteration's time is the samples' mean.
    EXPECT_NEAR(r.real_accumulated_time, c.at("sampled_s").value / c.at("samples").value, 1e-9);
  }
}

TEST_F(DriverRun, VerifiesOncePerCellAndComparesEveryTimedOutput) {
  FakeCodec cpu("a", {});
  Capture cap;
  run({&cpu}, {&cpu}, cap, "compress");
  ASSERT_EQ(cap.got.size(), 2u);
  // One Google Benchmark iteration per cell holds its samples (the stopping rule's timed
  // calls): the container is decoded once per cell all the same, the untimed call's.
  double sampled = 0;
  for (const auto& r : cap.got) {
    EXPECT_FALSE(run_failed(r)) << run_message(r);
    EXPECT_EQ(r.iterations, 1);
    sampled += r.counters.at("samples").value;
  }
  EXPECT_EQ(cpu.compress_calls, static_cast<int>(sampled) + 2);  // and one untimed call per cell
  EXPECT_EQ(cpu.decompress_calls, 2);
  // Parameters are bound once per cell, not per body call or timed call.
  EXPECT_EQ(cpu.bind_calls, 2);

  benchmark::ClearRegisteredBenchmarks();
  // From the second trial on, other bytes: they round-trip, so they are verified in full
  // (one more decode) and pass; a GPU cell's must still equal the CPU reference's.
  FakeCodec changing("b", {.change_after = 3});
  Capture ok;
  run({&changing}, {&changing}, ok, "compress");
  ASSERT_EQ(ok.got.size(), 2u);
  for (const auto& r : ok.got) EXPECT_FALSE(run_failed(r)) << run_message(r);
  EXPECT_EQ(changing.decompress_calls, 2 + 1);  // a.bin's changed output; b.bin's all alike

  benchmark::ClearRegisteredBenchmarks();
  FakeCodec cpu_b("c", {}), gpu_b("c", {.device = Device::gpu, .change_after = 3});
  Capture bad;
  run({&gpu_b}, {&cpu_b, &gpu_b}, bad, "compress");
  ASSERT_EQ(bad.got.size(), 2u);
  EXPECT_TRUE(run_failed(bad.got[0]));
  EXPECT_NE(
      run_message(bad.got[0]).find("GPU container differs from the CPU reference's container"),
      std::string::npos)
      << run_message(bad.got[0]);
}

TEST_F(DriverRun, WrongOutputIsAnErrorNamingTheOffset) {
  FakeCodec bad("a", {.corrupt_decode = true});
  Capture cap;
  run({&bad}, {&bad}, cap);
  ASSERT_EQ(cap.got.size(), 4u);
  for (const auto& r : cap.got) {
    EXPECT_TRUE(run_failed(r));
    EXPECT_NE(run_message(r).find("differs from the input at byte 5"), std::string::npos)
        << run_message(r);
  }
}

TEST_F(DriverRun, GpuContainerMustMatchTheCpuReference) {
  FakeCodec cpu("a", {}), gpu("a", {.device = Device::gpu, .tag = 0x43});
  Capture cap;
  run({&gpu}, {&cpu, &gpu}, cap);
  ASSERT_EQ(cap.got.size(), 4u);
  for (const auto& r : cap.got) {
    EXPECT_TRUE(run_failed(r));
    EXPECT_NE(
        run_message(r).find("GPU container differs from the CPU reference's container at byte 0"),
        std::string::npos)
        << run_message(r);
  }
}

TEST_F(DriverRun, GpuCellsUseKernelTimeAndRefuseZero) {
  FakeCodec cpu("a", {}), gpu("a", {.device = Device::gpu, .kernel_s = 0.25});
  Capture good;
  run({&gpu}, {&cpu, &gpu}, good);
  ASSERT_EQ(good.got.size(), 4u);
  for (const auto& r : good.got) {
    ASSERT_FALSE(run_failed(r)) << run_message(r);
    EXPECT_DOUBLE_EQ(r.counters.at("kernel_s").value, 0.25);
    EXPECT_NEAR(r.GetAdjustedRealTime() * 1e-9, 0.25, 1e-9);  // manual time = kernel time
  }
  benchmark::ClearRegisteredBenchmarks();
  FakeCodec zero("a", {.device = Device::gpu, .kernel_s = 0});
  Capture bad;
  run({&zero}, {&cpu, &zero}, bad);
  ASSERT_EQ(bad.got.size(), 4u);
  EXPECT_TRUE(run_failed(bad.got[0]));
  EXPECT_EQ(run_message(bad.got[0]), "GPU codec reported no kernel time");
}

}  // namespace
}  // namespace gcbench::driver
