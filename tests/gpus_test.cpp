// --gpus without a GPU: the request's parsing and errors, the GPUs' numbering, the core split,
// the workers' command lines and environment, the flags it cannot go with, the child
// processes (prefixed lines, exit statuses, pinned cores), the hidden workers' folder that the
// readers skip, and the clear error on a machine with no usable GPU.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "bench/driver/context.hpp"
#include "bench/driver/gpus.hpp"
#include "bench/driver/gpus_run.hpp"
#include "bench/driver/harness.hpp"
#include "bench/driver/options.hpp"
#include "bench/driver/processes.hpp"
#include "src/results/folder_export.hpp"
#include "src/results/result_files.hpp"
#include "src/results/shard_plan.hpp"

namespace gcbench::driver {
namespace {
namespace fs = std::filesystem;

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

std::vector<int> range(int from, int to) {  // [from, to)
  std::vector<int> v;
  for (int i = from; i < to; ++i) v.push_back(i);
  return v;
}

const std::vector<GpuIdentity> kTwoGpus = {{0, "GPU A", "0000:1B:00.0", "GPU-aaaa"},
                                           {1, "GPU B", "0000:9C:00.0", "GPU-bbbb"}};

TEST(Gpus, ParsesAllAndLists) {
  EXPECT_TRUE(parse_gpus("all").all);
  EXPECT_EQ(parse_gpus("0,2").gpus, (std::vector<std::string>{"0", "2"}));
  EXPECT_EQ(parse_gpus("3").gpus, (std::vector<std::string>{"3"}));
  EXPECT_EQ(parse_gpus("GPU-AB12,1").gpus, (std::vector<std::string>{"GPU-ab12", "1"}));
  EXPECT_EQ(parse_options({"--gpus", "1,0"}).gpus->gpus, (std::vector<std::string>{"1", "0"}));
  EXPECT_TRUE(parse_options({"--gpus=all"}).gpus->all);
  EXPECT_FALSE(parse_options({}).gpus);
}

TEST(Gpus, BadRequestsSayWhatIsWrong) {
  EXPECT_NE(error_of([] { parse_gpus("-1"); }).find("'-1' is not a GPU index"), std::string::npos);
  EXPECT_NE(error_of([] { parse_gpus("x"); }).find("'x' is not a GPU index"), std::string::npos);
  EXPECT_NE(error_of([] { parse_gpus("1x"); }).find("'1x'"), std::string::npos);
  EXPECT_NE(error_of([] { parse_gpus("0,0"); }).find("GPU 0 is named twice"), std::string::npos);
  EXPECT_NE(error_of([] { parse_gpus("GPU-Ab,GPU-aB"); }).find("GPU GPU-aB is named twice"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_gpus("GPU-"); }).find("'GPU-' is not a GPU index or UUID"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_gpus("0,"); }).find("empty item"), std::string::npos);
  EXPECT_NE(error_of([] { parse_options({"--gpus"}); }).find("--gpus needs a value"),
            std::string::npos);
}

TEST(Gpus, NumbersGpusInPciBusOrder) {
  // CUDA's default order puts the fastest first; nvidia-smi numbers by bus id.
  const std::vector<GpuIdentity> cuda_order = {{0, "fast", "0000:9C:00.0", "GPU-f"},
                                               {1, "slow", "0000:1B:00.0", "GPU-s"}};
  const std::vector<GpuIdentity> numbered = number_by_bus(cuda_order);
  ASSERT_EQ(numbered.size(), 2u);
  EXPECT_EQ(numbered[0].uuid, "GPU-s");
  EXPECT_EQ(numbered[0].index, 0);
  EXPECT_EQ(numbered[1].uuid, "GPU-f");
  EXPECT_EQ(numbered[1].index, 1);
}

TEST(Gpus, ChoosesTheNamedGpusOrSaysWhatExists) {
  EXPECT_EQ(choose_gpus(parse_gpus("all"), kTwoGpus), kTwoGpus);
  const std::vector<GpuIdentity> second = choose_gpus(parse_gpus("1"), kTwoGpus);
  ASSERT_EQ(second.size(), 1u);
  EXPECT_EQ(second[0].uuid, "GPU-bbbb");
  const std::string error = error_of([] { choose_gpus(parse_gpus("0,7"), kTwoGpus); });
  EXPECT_NE(error.find("there is no GPU 7"), std::string::npos) << error;
  EXPECT_NE(error.find("it has 2: 0 GPU A (0000:1B:00.0, GPU-aaaa), 1 GPU B (0000:9C:00.0, "
                       "GPU-bbbb)"),
            std::string::npos)
      << error;
}

TEST(Gpus, ChoosesGpusByUuidAndRefusesOneGpuNamedTwice) {
  const std::vector<GpuIdentity> chosen = choose_gpus(parse_gpus("GPU-BBBB,0"), kTwoGpus);
  EXPECT_EQ(chosen, (std::vector<GpuIdentity>{kTwoGpus[1], kTwoGpus[0]}));
  const std::string twice = error_of([] { choose_gpus(parse_gpus("1,0,GPU-aaaa"), kTwoGpus); });
  EXPECT_NE(twice.find("'0' and 'GPU-aaaa' name the same GPU, 0 GPU A (0000:1B:00.0, GPU-aaaa)"),
            std::string::npos)
      << twice;
  const std::string unknown = error_of([] { choose_gpus(parse_gpus("GPU-cccc"), kTwoGpus); });
  EXPECT_NE(unknown.find("no GPU of this host has UUID GPU-cccc; it has 2: "), std::string::npos)
      << unknown;
}

TEST(Gpus, SplitsCoresBetweenGpuWorkersAndTheCpuWorker) {
  // One H100 host: 16 cores, 1 GPU.
  CoreSplit split = split_cores(range(0, 16), 1, true);
  EXPECT_FALSE(split.shared);
  EXPECT_EQ(split.gpu_workers, (std::vector<std::vector<int>>{range(0, 8)}));
  EXPECT_EQ(split.cpu_worker, range(8, 16));
  // Two H200s, 32 cores: each GPU worker at most kMaxGpuWorkerCores.
  split = split_cores(range(0, 32), 2, true);
  EXPECT_EQ(split.gpu_workers, (std::vector<std::vector<int>>{range(0, 10), range(10, 20)}));
  EXPECT_EQ(split.cpu_worker, range(20, 32));
  // Eight GPUs, 128 cores.
  split = split_cores(range(0, 128), 8, true);
  ASSERT_EQ(split.gpu_workers.size(), 8u);
  EXPECT_EQ(split.gpu_workers[7], range(70, 80));
  EXPECT_EQ(split.cpu_worker, range(80, 128));
  // No CPU cells: the GPU workers take every core, the first ones the remainder.
  split = split_cores({0, 1, 2, 4, 5}, 2, false);
  EXPECT_EQ(split.gpu_workers, (std::vector<std::vector<int>>{{0, 1, 2}, {4, 5}}));
  EXPECT_TRUE(split.cpu_worker.empty());
  // Fewer cores than workers: all share all.
  split = split_cores({0}, 1, true);
  EXPECT_TRUE(split.shared);
  EXPECT_EQ(split.gpu_workers, (std::vector<std::vector<int>>{{0}}));
  EXPECT_EQ(split.cpu_worker, (std::vector<int>{0}));
}

TEST(Gpus, FormatsCoreLists) {
  EXPECT_EQ(format_core_list({0, 1, 2, 3, 8, 10, 11}), "0-3,8,10-11");
  EXPECT_EQ(format_core_list({5}), "5");
  EXPECT_EQ(format_core_list({}), "");
  EXPECT_FALSE(affinity_cores().empty());
}

// The worker arguments of gcbench flags `args` and Google Benchmark flags `benchmark`.
std::vector<std::string> base_of(const std::vector<std::string>& args,
                                 const std::vector<std::string>& benchmark = {}) {
  return worker_base_args(parse_options(args), benchmark);
}

TEST(Gpus, WorkerArgumentsComeFromTheParserInEveryForm) {
  const std::vector<std::string> want = {"--benchmark_filter=lz77", "--corpus=calgary"};
  // The flags the parent handles go, whichever form they take; the others pass as --flag=value.
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"--corpus", "calgary", "--gpus", "all", "--out-dir", "res"},
           {"--gpus=all", "--corpus=calgary", "--out-dir=res"},
           {"--out-dir", "res", "--gpus", "0,1", "--device=all", "--corpus", "calgary"},
           {"--gpus", "all", "--gpu-replicas", "--device", "gpu", "--corpus", "canterbury",
            "--corpus=calgary", "--harness-file", "h.txt", "--out-dir=res"}}) {
    EXPECT_EQ(base_of(args, {"--benchmark_filter=lz77"}), want) << ::testing::PrintToString(args);
  }
  // A switch passes alone; axis flags pass.
  EXPECT_EQ(
      base_of({"--gpus", "all", "--out-dir", "r", "--no-download", "--frame-size", "1024,4096"}),
      (std::vector<std::string>{"--no-download", "--frame-size=1024,4096"}));
  // A plugin reaches every worker, which loads it before parsing (plugin_arguments).
  const std::vector<std::string> with_plugin =
      base_of({"--gpus", "all", "--out-dir", "r", "--plugin", "lib/a.so,b.so"});
  EXPECT_EQ(with_plugin, (std::vector<std::string>{"--plugin=lib/a.so,b.so"}));
  EXPECT_EQ(plugin_arguments(with_plugin), (std::vector<std::string>{"lib/a.so", "b.so"}));
  // What the worker parses back is what the parent was given.
  const Options parent =
      parse_options({"--gpus", "all", "--out-dir", "r", "--codecs", "fl", "--gpu-iterations", "3"});
  const Options worker = parse_options(worker_base_args(parent, {}));
  EXPECT_EQ(worker.codecs, parent.codecs);
  EXPECT_EQ(worker.gpu_iterations, 3);
  EXPECT_FALSE(worker.gpus);
  EXPECT_FALSE(worker.out_dir);
}

TEST(Gpus, WorkersGetTheirShardDeviceFolderAndGpu) {
  const std::vector<std::string> base = {"--benchmark_filter=lz77", "--corpus=calgary"};
  const CoreSplit split = split_cores(range(0, 32), 2, true);
  const std::vector<Worker> workers = plan_workers(base, kTwoGpus, split, "res", true, false);
  ASSERT_EQ(workers.size(), 3u);
  const auto expect_args = [&](const Worker& w, std::vector<std::string> own) {
    std::vector<std::string> want = base;
    want.insert(want.end(), own.begin(), own.end());
    want.insert(want.end(), {"--out-dir", "res/.workers/" + w.name, "--harness-file",
                             "res/.workers/" + w.name + ".harness"});
    EXPECT_EQ(w.args, want) << w.name;
  };
  using Env = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(workers[0].name, "gpu0");
  EXPECT_EQ(workers[0].out_dir, fs::path("res/.workers/gpu0"));
  EXPECT_EQ(workers[0].harness_file, fs::path("res/.workers/gpu0.harness"));
  EXPECT_EQ(workers[0].cores, range(0, 10));
  expect_args(workers[0], {"--device", "gpu", "--shard", "1/2"});
  EXPECT_EQ(workers[0].env, (Env{{"CUDA_VISIBLE_DEVICES", "GPU-aaaa"}, {kGpuIndexVariable, "0"}}));
  EXPECT_EQ(workers[1].name, "gpu1");
  expect_args(workers[1], {"--device", "gpu", "--shard", "2/2"});
  EXPECT_EQ(workers[1].env, (Env{{"CUDA_VISIBLE_DEVICES", "GPU-bbbb"}, {kGpuIndexVariable, "1"}}));
  EXPECT_EQ(workers[2].name, "cpu");
  EXPECT_FALSE(workers[2].gpu);
  EXPECT_EQ(workers[2].cores, range(20, 32));
  expect_args(workers[2], {"--device", "cpu", "--claim-dir", "res/.workers/.cpu-claims"});
  EXPECT_EQ(workers[2].env, (Env{{"CUDA_VISIBLE_DEVICES", ""}}));
  // The helper that takes CPU cells on gpu1's cores once its GPU cells are done.
  const Worker helper = queue_helper(base, workers[1], workers[2], "res");
  EXPECT_EQ(helper.name, "cpu-gpu1");
  EXPECT_FALSE(helper.gpu);
  EXPECT_EQ(helper.cores, workers[1].cores);
  expect_args(helper, {"--device", "cpu", "--claim-dir", "res/.workers/.cpu-claims",
                       "--also-recorded", "res/.workers/cpu"});
  EXPECT_EQ(helper.env, (Env{{"CUDA_VISIBLE_DEVICES", ""}}));
  // A list in its order, without a CPU worker.
  const std::vector<Worker> one =
      plan_workers(base, choose_gpus(parse_gpus("1"), kTwoGpus), split_cores(range(0, 4), 1, false),
                   "res", false, false);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].name, "gpu1");
  EXPECT_EQ(one[0].cores, range(0, 4));
  expect_args(one[0], {"--device", "gpu", "--shard", "1/1"});
  // Replicas: every GPU worker runs every GPU cell; the CPU worker as before.
  const std::vector<Worker> replicas = plan_workers(base, kTwoGpus, split, "res", true, true);
  ASSERT_EQ(replicas.size(), 3u);
  expect_args(replicas[0], {"--device", "gpu", "--shard", "1/1"});
  expect_args(replicas[1], {"--device", "gpu", "--shard", "1/1"});
  expect_args(replicas[2], {"--device", "cpu", "--claim-dir", "res/.workers/.cpu-claims"});
}

TEST(Gpus, RefusesFlagsItCannotGoWith) {
  const auto no_env = [](const char*) -> const char* { return nullptr; };
  const auto check = [&](std::vector<std::string> args, const EnvLookup& env) {
    return error_of([&] { check_gpus_options(parse_options(args), env); });
  };
  EXPECT_EQ(check({"--gpus", "all", "--out-dir", "d"}, no_env), "");
  EXPECT_NE(check({"--gpus", "all", "--out-dir", "d", "--shard", "1/2"}, no_env)
                .find("--gpus and --shard cannot be combined"),
            std::string::npos);
  EXPECT_NE(check({"--gpus", "all", "--out-dir", "d", "--device", "cpu"}, no_env)
                .find("--device cpu has none"),
            std::string::npos);
  EXPECT_NE(check({"--gpus", "all"}, no_env).find("--gpus needs --out-dir DIR"), std::string::npos);
  EXPECT_EQ(check({"--gpus", "all", "--gpu-replicas", "--out-dir", "d"}, no_env), "");
  EXPECT_EQ(error_of([] { parse_options({"--gpu-replicas"}); }),
            "--gpu-replicas needs --gpus all|LIST: it runs the GPU cells on every GPU named there");
  EXPECT_EQ(error_of([] {
              parse_options({"--gpus=all", "--gpu-replicas", "--shard", "1/2"});
            }),
            "--gpu-replicas and --shard cannot be combined: every GPU runs all of the GPU cells");
  EXPECT_NE(error_of([] {
              parse_options({"--gpus=all", "--gpu-replicas=yes"});
            }).find("--gpu-replicas takes no value"),
            std::string::npos);
  const std::map<std::string, std::string> slurm = {{"SLURM_ARRAY_TASK_ID", "0"},
                                                    {"SLURM_ARRAY_TASK_COUNT", "2"}};
  const auto in_slurm = [&](const char* name) -> const char* {
    const auto it = slurm.find(name);
    return it == slurm.end() ? nullptr : it->second.c_str();
  };
  EXPECT_NE(check({"--gpus", "all", "--out-dir", "d"}, in_slurm)
                .find("--gpus cannot run as one shard of the Slurm job array"),
            std::string::npos);
}

TEST(Gpus, ChildProcessesRunSideBySideWithPrefixedLines) {
  const std::vector<ProcessSpec> specs = {
      {"one", {"/bin/sh", "-c", "echo out1; echo err1 >&2; printf 'no newline'"}, {}, {}},
      {"two",
       {"/bin/sh", "-c", "echo \"$GCBENCH_TEST_VAR\"; exit 3"},
       {{"GCBENCH_TEST_VAR", "set"}},
       {}},
      {"three", {"/bin/sh", "-c", "kill -9 $$"}, {}, {}},
      {"pinned", {"/bin/sh", "-c", "grep Cpus_allowed_list /proc/self/status"}, {}, {0}},
      {"missing", {"/nonexistent/program"}, {}, {}}};
  std::ostringstream out, err;
  const std::vector<ProcessExit> exits = run_processes(specs, out, err);
  ASSERT_EQ(exits.size(), 5u);
  EXPECT_EQ(exits[0].status, 0);
  EXPECT_EQ(exits[1].status, 3);
  EXPECT_EQ(exits[1].description, "exit status 3");
  EXPECT_EQ(exits[2].status, 128 + 9);
  EXPECT_NE(exits[2].description.find("killed by signal 9"), std::string::npos);
  EXPECT_EQ(exits[3].status, 0);
  EXPECT_EQ(exits[4].status, 127);
  const std::string o = out.str(), e = err.str();
  EXPECT_NE(o.find("[one] out1\n"), std::string::npos) << o;
  EXPECT_NE(o.find("[one] no newline\n"), std::string::npos) << o;
  EXPECT_NE(e.find("[one] err1\n"), std::string::npos) << e;
  EXPECT_NE(o.find("[two] set\n"), std::string::npos) << o;
  EXPECT_NE(o.find("[pinned] Cpus_allowed_list:\t0\n"), std::string::npos) << o;
}

TEST(Gpus, AProcessThatEndsCanStartOthers) {
  const std::vector<ProcessSpec> specs = {{"first", {"/bin/sh", "-c", "exit 4"}, {}, {}},
                                          {"slow", {"/bin/sh", "-c", "sleep 0.3"}, {}, {}}};
  std::ostringstream out, err;
  std::vector<std::string> ended;
  const std::vector<ProcessExit> exits =
      run_processes(specs, out, err, [&](const ProcessExit& e) -> std::vector<ProcessSpec> {
        ended.push_back(e.name);
        if (e.name != "first") return {};
        return {{"next", {"/bin/sh", "-c", "echo after $0", e.description}, {}, {}}};
      });
  ASSERT_EQ(exits.size(), 3u);
  EXPECT_EQ(exits[0].status, 4);
  EXPECT_EQ(exits[2].name, "next");
  EXPECT_EQ(exits[2].status, 0);
  EXPECT_EQ(out.str(), "[next] after exit status 4\n");
  EXPECT_GE(exits[2].started_s, exits[0].ended_s);
  EXPECT_GE(exits[1].ended_s, 0.3);
  EXPECT_EQ(ended.size(), 3u);
}

TEST(Gpus, ResultReadersSkipTheHiddenWorkersFolder) {
  const fs::path dir =
      fs::temp_directory_path() / ("gcbench_gpus_test_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "canterbury");
  fs::create_directories(workers_dir(dir) / "gpu0" / "canterbury");
  std::ofstream(dir / "canterbury" / "a.json") << "{}";
  std::ofstream(workers_dir(dir) / "gpu0" / "canterbury" / "a.json") << "{}";
  EXPECT_EQ(results::json_files_under(dir), (std::vector<fs::path>{dir / "canterbury" / "a.json"}));
  EXPECT_EQ(results::json_files_under(workers_dir(dir) / "gpu0"),
            (std::vector<fs::path>{workers_dir(dir) / "gpu0" / "canterbury" / "a.json"}));
  fs::remove_all(dir);
}

// Worker folders as the workers leave them: two GPU shards with their plans, the CPU worker's
// cells without one.
class MergeWorkers : public ::testing::Test {
 protected:
  using json = nlohmann::json;

  void SetUp() override {
    out_ = fs::temp_directory_path() / ("gcbench_gpus_merge_" + std::to_string(getpid()));
    fs::remove_all(out_);
    workers_ = plan_workers({}, kTwoGpus, split_cores(range(0, 3), 2, true), out_, true, false);
    const results::ShardPlan plan{{1, 2},
                                  {{gpu_cell("a"), 1}, {gpu_cell("b"), 2}, {gpu_cell("c"), 1}}};
    for (const auto& [cell, shard] : plan.cells) {
      if (cell != skipped_)
        add(workers_[static_cast<std::size_t>(shard - 1)], cell, "GPU " + std::to_string(shard));
    }
    for (int shard : {1, 2}) {
      results::ShardPlan own = plan;
      own.shard.index = shard;
      results::write_plan(workers_[static_cast<std::size_t>(shard - 1)].out_dir, own);
    }
    add(workers_[2], "fl/cpu/compress/cant/x.txt/element_width:1/frame_size:1024", "none: hidden");
  }
  void TearDown() override { fs::remove_all(out_); }

  // The workers of --gpu-replicas instead: each GPU worker ran every GPU cell (--shard 1/1, but
  // `skipped_` on the second GPU), each entry naming its GPU.
  void record_replicas() {
    fs::remove_all(out_);
    workers_ = plan_workers({}, kTwoGpus, split_cores(range(0, 3), 2, true), out_, true, true);
    const results::ShardPlan plan{{1, 1}, {{gpu_cell("a"), 1}, {gpu_cell("b"), 1}}};
    for (std::size_t g = 0; g < 2; ++g) {
      for (const auto& [cell, shard] : plan.cells) {
        if (cell != skipped_ || g == 0) add(workers_[g], cell, kTwoGpus[g].name, kTwoGpus[g]);
      }
      results::write_plan(workers_[g].out_dir, plan);
    }
    add(workers_[2], "fl/cpu/compress/cant/x.txt/element_width:1/frame_size:1024", "none: hidden");
  }

  static std::string gpu_cell(const std::string& width) {
    return "fl/gpu/compress/cant/x.txt/element_width:1/frame_size:" + width;
  }

  void add(const Worker& w, const std::string& cell, const std::string& gpu,
           const std::optional<GpuIdentity>& ran_on = std::nullopt) {
    const fs::path path = w.out_dir / "cant" / "x.txt.json";
    json doc = {{"context", {{"git_revision", "abc"}, {"gpu", gpu}}},
                {"benchmarks", json::array()}};
    if (fs::exists(path)) doc = json::parse(std::ifstream(path));
    doc["benchmarks"].push_back({{"name", cell}, {"run_name", cell}, {"real_time", 1.0}});
    if (ran_on) doc["benchmarks"].back()["gpu"] = to_json(*ran_on);
    fs::create_directories(path.parent_path());
    std::ofstream(path) << doc.dump();
  }

  fs::path out_;
  std::vector<Worker> workers_;
  std::string skipped_;
};

TEST_F(MergeWorkers, IntoTheLayoutOfAPlainRun) {
  std::ostringstream err;
  ASSERT_EQ(merge_workers(workers_, out_, {}, false, err), 0) << err.str();
  const json doc = json::parse(std::ifstream(out_ / "cant" / "x.txt.json"));
  std::vector<std::string> cells;
  for (const json& b : doc["benchmarks"]) cells.push_back(b["run_name"]);
  EXPECT_EQ(cells, (std::vector<std::string>{
                       gpu_cell("a"), gpu_cell("b"), gpu_cell("c"),
                       "fl/cpu/compress/cant/x.txt/element_width:1/frame_size:1024"}));
  EXPECT_EQ(doc["context"]["gpu"], "GPU 1");  // a GPU shard's context, not the CPU worker's
  EXPECT_FALSE(doc["context"].contains("merged_from"));
  EXPECT_NE(doc["context"]["gpus_workers"].get<std::string>().find("gpu0, gpu1, cpu"),
            std::string::npos);
  EXPECT_FALSE(fs::exists(workers_dir(out_) / ".merged"));
  EXPECT_NE(err.str().find("4 cells of 3 workers merged into"), std::string::npos) << err.str();
  // What --benchmark_out gets: OUT's cells once, not the workers' as well.
  EXPECT_EQ(results::export_folder(out_)["benchmarks"].size(), 4u);
  // A rerun replaces the merged files.
  ASSERT_EQ(merge_workers(workers_, out_, {}, false, err), 0) << err.str();
  EXPECT_EQ(results::export_folder(out_)["benchmarks"].size(), 4u);
}

TEST_F(MergeWorkers, AMissingGpuCellFailsTheMergeUnlessAWorkerFailed) {
  skipped_ = gpu_cell("b");
  fs::remove_all(out_);
  SetUp();
  std::ostringstream err;
  EXPECT_EQ(merge_workers(workers_, out_, {}, false, err), 2);
  EXPECT_NE(err.str().find("shard 2/2"), std::string::npos) << err.str();
  EXPECT_FALSE(fs::exists(out_ / "cant" / "x.txt.json"));
  std::ostringstream err2;
  EXPECT_EQ(merge_workers(workers_, out_, {"gpu1"}, false, err2), 0) << err2.str();
  EXPECT_EQ(results::export_folder(out_)["benchmarks"].size(), 3u);
  const fs::path list = out_ / "missing-cells.txt";
  EXPECT_NE(err2.str().find("worker gpu1's cells not recorded (1 of its 1; every missing cell is "
                            "listed in " +
                            list.string() + "): " + gpu_cell("b") + "\n"),
            std::string::npos)
      << err2.str();
  std::ifstream listed(list);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(listed), {}), gpu_cell("b") + " (2/2)\n");
  // The cell recorded at last: a complete merge removes the list.
  add(workers_[1], gpu_cell("b"), "GPU 2");
  std::ostringstream err3;
  EXPECT_EQ(merge_workers(workers_, out_, {}, false, err3), 0) << err3.str();
  EXPECT_EQ(results::export_folder(out_)["benchmarks"].size(), 4u);
  EXPECT_FALSE(fs::exists(list));
}

TEST_F(MergeWorkers, ReplicasKeepEveryGpusEntriesOfACell) {
  record_replicas();
  std::ostringstream err;
  // Read as shards, the same cell twice is a duplicate (and the plans are given twice).
  EXPECT_EQ(merge_workers(workers_, out_, {}, false, err), 2);
  EXPECT_NE(err.str().find("shard 1/1 is given twice"), std::string::npos) << err.str();
  EXPECT_NE(err.str().find("duplicated cell " + gpu_cell("a")), std::string::npos) << err.str();
  ASSERT_EQ(merge_workers(workers_, out_, {}, true, err), 0) << err.str();
  const json doc = json::parse(std::ifstream(out_ / "cant" / "x.txt.json"));
  std::vector<std::pair<std::string, int>> cells;  // (cell, GPU index or -1)
  for (const json& b : doc["benchmarks"])
    cells.emplace_back(b["run_name"], b.contains("gpu") ? b["gpu"]["index"].get<int>() : -1);
  EXPECT_EQ(cells, (std::vector<std::pair<std::string, int>>{
                       {gpu_cell("a"), 0},
                       {gpu_cell("a"), 1},
                       {gpu_cell("b"), 0},
                       {gpu_cell("b"), 1},
                       {"fl/cpu/compress/cant/x.txt/element_width:1/frame_size:1024", -1}}));
  EXPECT_EQ(doc["context"]["gpu_replicas"], "0,1");
  EXPECT_FALSE(doc["context"].contains("merged_from"));
}

TEST_F(MergeWorkers, AReplicasMissingCellIsNamedWithItsWorker) {
  skipped_ = gpu_cell("b");
  record_replicas();
  std::ostringstream err;
  EXPECT_EQ(merge_workers(workers_, out_, {}, true, err), 2);
  EXPECT_NE(err.str().find(workers_[1].out_dir.string() + ": shard 1/1"), std::string::npos)
      << err.str();
  EXPECT_EQ(err.str().find(workers_[0].out_dir.string() + ": shard 1/1"), std::string::npos)
      << err.str();
}

TEST(Gpus, HarnessLinesReadBackAndAddUpOverWorkers) {
  HarnessSummary one{10.5, 4.25, 0.5, 7, 1000, 300};  // wall, timed, setup, cells, RSS, input
  const std::optional<HarnessSummary> read = parse_harness_line(harness_line(one));
  ASSERT_TRUE(read);
  EXPECT_DOUBLE_EQ(read->wall_s, 10.5);
  EXPECT_DOUBLE_EQ(read->timed_s, 4.25);
  EXPECT_DOUBLE_EQ(read->setup_s, 0.5);
  EXPECT_EQ(read->cells, 7);
  EXPECT_EQ(read->peak_rss_bytes, 1000u);
  EXPECT_EQ(read->largest_input_bytes, 300u);
  EXPECT_FALSE(parse_harness_line("timed_s=1 wall_s=2"));
  EXPECT_FALSE(
      parse_harness_line("timed_s=x wall_s=2 setup_s=0 cells=1 peak_rss_bytes=1 "
                         "largest_input_bytes=1"));
  EXPECT_FALSE(parse_harness_line("no fields here"));
  const HarnessSummary two{9.0, 6.0, 1.5, 3, 4000, 200};
  const HarnessSummary all = combine_workers({one, two}, 11.0);
  EXPECT_DOUBLE_EQ(all.wall_s, 11.0);  // the parent's, not the workers' 19.5
  EXPECT_DOUBLE_EQ(all.timed_s, 10.25);
  EXPECT_DOUBLE_EQ(all.setup_s, 1.5);
  EXPECT_EQ(all.cells, 10);
  EXPECT_EQ(all.peak_rss_bytes, 4000u);
  EXPECT_EQ(all.largest_input_bytes, 300u);
}

// A whole --gpus run with real child processes on two faked GPUs: the workers are a script
// that records what a gcbench worker would (a GPU cell naming its GPU, or a CPU cell, and a
// harness line) and prints the arguments it was given.
class FakeHostRun : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("gcbench_gpus_fake_" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    host_.program = dir_ / "worker.sh";
    std::ofstream(host_.program) << R"(#!/bin/sh
while [ $# -gt 0 ]; do
  case $1 in
    --out-dir) out=$2; shift ;;
    --harness-file) harness=$2; shift ;;
    --device) device=$2; shift ;;
    --also-recorded) helper=$2; shift ;;
    *) echo "arg $1" ;;
  esac
  shift
done
if [ -n "$helper" ]; then  # a helper on a freed GPU worker's cores: the CPU worker has every cell
  echo "timed_s=0 wall_s=0 setup_s=0 cells=0 peak_rss_bytes=0 largest_input_bytes=0" > "$harness"
  exit 0
fi
mkdir -p "$out/cant"
if [ "$device" = gpu ]; then
  cell=fl/gpu/compress/cant/x.txt/element_width:1/frame_size:1024
  gpu="\"gpu\": {\"index\": $GCBENCH_GPU_INDEX, \"name\": \"G\", \"pci_bus_id\": \"b\", \"uuid\": \"$CUDA_VISIBLE_DEVICES\"}"
else
  cell=fl/cpu/compress/cant/x.txt/element_width:1/frame_size:1024
  gpu="\"cpu\": 1"
fi
printf '{"context": {"git_revision": "abc"}, "benchmarks": [{"name": "%s", "run_name": "%s", "real_time": 1.0, %s}]}\n' "$cell" "$cell" "$gpu" > "$out/cant/x.txt.json"
echo "timed_s=2.500 wall_s=3.000 setup_s=0.200 cells=1 peak_rss_bytes=100 largest_input_bytes=10" > "$harness"
)";
    fs::permissions(host_.program, fs::perms::owner_all);
    host_.gpus = [] { return kTwoGpus; };
  }
  void TearDown() override { fs::remove_all(dir_); }

  int run(std::vector<std::string> args) {
    args.insert(args.end(), {"--out-dir", (dir_ / "out").string(), "--harness-file",
                             (dir_ / "harness.txt").string()});
    const Options options = parse_options(args);
    return run_on_gpus(worker_base_args(options, {"--benchmark_filter=fl"}), options, std::nullopt,
                       host_, out_, err_);
  }

  std::vector<std::string> harness_lines() const {
    std::ifstream in(dir_ / "harness.txt");
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
  }

  // The start of a fake worker that records cells itself: the arguments a gcbench worker is
  // given, read into variables.
  static constexpr const char* kReadArguments = R"sh(#!/bin/sh
while [ $# -gt 0 ]; do
  case $1 in
    --out-dir) out=$2; shift ;;
    --harness-file) harness=$2; shift ;;
    --device) device=$2; shift ;;
    --shard) shard=$2; shift ;;
    --claim-dir) claims=$2; shift ;;
    --also-recorded) helper=$2; shift ;;
  esac
  shift
done)sh";

  fs::path dir_;
  WorkerHost host_;
  std::ostringstream out_, err_;
};

TEST_F(FakeHostRun, ReplicasRunEveryGpuCellOnEachGpuAndWriteOneHarnessLine) {
  ASSERT_EQ(run({"--gpus", "all", "--gpu-replicas", "--codecs=fl"}), 0) << err_.str();
  const std::string out = out_.str();
  for (const char* worker : {"gpu0", "gpu1", "cpu"}) {
    for (const char* arg : {"--benchmark_filter=fl", "--codecs=fl"}) {
      EXPECT_NE(out.find(fmt::format("[{}] arg {}\n", worker, arg)), std::string::npos) << out;
    }
  }
  // The workers run side by side, so only one worker's own lines keep their order.
  std::string gpu1;
  std::istringstream lines_out(out);
  for (std::string line; std::getline(lines_out, line);) {
    if (line.starts_with("[gpu1] ")) gpu1 += line + "\n";
  }
  EXPECT_NE(gpu1.find("[gpu1] arg --shard\n[gpu1] arg 1/1\n"), std::string::npos) << out;
  EXPECT_EQ(out.find("--gpu-replicas"), std::string::npos) << out;
  const nlohmann::json doc = nlohmann::json::parse(std::ifstream(dir_ / "out/cant/x.txt.json"));
  ASSERT_EQ(doc["benchmarks"].size(), 3u) << doc.dump();
  EXPECT_EQ(doc["benchmarks"][0]["gpu"]["uuid"], "GPU-aaaa");
  EXPECT_EQ(doc["benchmarks"][1]["gpu"]["uuid"], "GPU-bbbb");
  EXPECT_EQ(doc["context"]["gpu_replicas"], "0,1");
  // One line for the run: the three workers' timed seconds and cells, the parent's own wall.
  const std::vector<std::string> lines = harness_lines();
  ASSERT_EQ(lines.size(), 1u);
  const std::optional<HarnessSummary> run = parse_harness_line(lines[0]);
  ASSERT_TRUE(run) << lines[0];
  EXPECT_DOUBLE_EQ(run->timed_s, 7.5);
  EXPECT_EQ(run->cells, 3);
  EXPECT_LT(run->wall_s, 3.0) << "the workers' wall time, not the parent's";
  EXPECT_NE(err_.str().find("[gcbench] harness share"), std::string::npos) << err_.str();
}

TEST_F(FakeHostRun, ShardsSplitTheGpuCellsAndAMissingHarnessLineIsSaid) {
  // Both fake GPU workers record the same cell: as shards of one sweep that is a duplicate.
  EXPECT_EQ(run({"--gpus=0,1", "--codecs=fl"}), 2);
  EXPECT_NE(err_.str().find("duplicated cell"), std::string::npos) << err_.str();
  EXPECT_NE(out_.str().find("[gpu1] arg 2/2\n"), std::string::npos) << out_.str();
  // A second run appends its own line; a worker without one is named.
  std::ofstream(host_.program, std::ios::app) << "rm \"$harness\"\n";
  run({"--gpus", "1", "--codecs", "fl"});
  EXPECT_EQ(harness_lines().size(), 2u);
  EXPECT_NE(err_.str().find("worker gpu1 wrote no harness line"), std::string::npos) << err_.str();
}

// A GPU worker that fails midway: named with its GPU and its cells not recorded, the other
// workers' cells merged; the same command then runs those cells alone. The fake workers record
// each cell in a file of its own and skip the recorded ones, as gcbench resumes; while `fail`
// exists (DIR/fail, three levels above a worker's DIR/out/.workers/<name>), the second GPU
// worker exits 3 after its first cell.
TEST_F(FakeHostRun, AFailedWorkerIsNamedWithItsCellsAndTheSameCommandRunsOnlyThose) {
  const fs::path fail = dir_ / "fail";
  std::ofstream(host_.program) << kReadArguments << R"sh(
if [ -n "$helper" ]; then
  echo "timed_s=0 wall_s=0 setup_s=0 cells=0 peak_rss_bytes=0 largest_input_bytes=0" >"$harness"
  exit 0
fi
mkdir -p "$out/cant"
cell() { echo "fl/$1/compress/cant/$2/element_width:1/frame_size:1024"; }
record() {
  [ -e "$out/cant/$2.json" ] && return 0
  echo "ran $(cell "$1" "$2")"
  printf '{"context": {"git_revision": "abc"}, "benchmarks": [{"name": "%s", "run_name": "%s", "real_time": 1.0%s}]}\n' \
    "$(cell "$1" "$2")" "$(cell "$1" "$2")" "$3" >"$out/cant/$2.json"
}
if [ "$device" = gpu ]; then
  k=${shard%/*}
  printf '{"format": "gcbench shard plan 1", "shard": %s, "shards": 2, "cells": [["%s", 1], ["%s", 2], ["%s", 1], ["%s", 2]]}\n' \
    "$k" "$(cell gpu a.txt)" "$(cell gpu b.txt)" "$(cell gpu c.txt)" "$(cell gpu d.txt)" >"$out/gcbench.plan"
  gpu=", \"gpu\": {\"index\": $GCBENCH_GPU_INDEX, \"name\": \"G\", \"pci_bus_id\": \"b\", \"uuid\": \"$CUDA_VISIBLE_DEVICES\"}"
  if [ "$k" = 1 ]; then files="a.txt c.txt"; else files="b.txt d.txt"; fi
  for f in $files; do
    record gpu "$f" "$gpu"
    if [ "$k" = 2 ] && [ -e "$out/../../../fail" ]; then exit 3; fi
  done
else
  record cpu e.txt ""
fi
echo "timed_s=1 wall_s=1 setup_s=0 cells=1 peak_rss_bytes=1 largest_input_bytes=1" >"$harness"
)sh";
  const auto cell = [](const std::string& device, const std::string& file) {
    return "fl/" + device + "/compress/cant/" + file + "/element_width:1/frame_size:1024";
  };
  std::ofstream{fail};
  EXPECT_EQ(run({"--gpus", "all", "--codecs=fl"}), 2);
  const fs::path out = dir_ / "out";
  EXPECT_NE(err_.str().find("[gcbench] worker gpu1 (GPU B, 0000:9C:00.0, cores "),
            std::string::npos)
      << err_.str();
  EXPECT_NE(err_.str().find("failed: exit status 3"), std::string::npos) << err_.str();
  EXPECT_NE(err_.str().find("worker gpu1's cells not recorded (1 of its 2; every missing cell is "
                            "listed in " +
                            (out / "missing-cells.txt").string() + "): " + cell("gpu", "d.txt")),
            std::string::npos)
      << err_.str();
  // The other workers' cells and the failed one's first are kept.
  EXPECT_EQ(results::export_folder(out)["benchmarks"].size(), 4u);
  EXPECT_TRUE(fs::exists(out / "missing-cells.txt"));

  fs::remove(fail);
  out_.str("");
  err_.str("");
  EXPECT_EQ(run({"--gpus", "all", "--codecs=fl"}), 0) << err_.str();
  EXPECT_EQ(out_.str(), "[gpu1] ran " + cell("gpu", "d.txt") + "\n");
  EXPECT_EQ(results::export_folder(out)["benchmarks"].size(), 5u);
  EXPECT_FALSE(fs::exists(out / "missing-cells.txt"));
}

// The CPU cells as a queue: as each GPU worker ends, a helper on its cores takes CPU cells too
// (given the claim folder and the CPU worker's folder), its results are folded into the CPU
// worker's folder, and the run says which worker bounded it. The fake CPU worker waits until
// both helpers have recorded their cell and then a little, so that it ends last every time.
TEST_F(FakeHostRun, FreedGpuWorkersCoresTakeCpuCellsFromTheQueue) {
  std::ofstream(host_.program) << kReadArguments << R"sh(
if [ -n "$claims" ]; then echo "claims $claims"; fi
if [ -n "$helper" ]; then echo "also $helper"; fi
name=${out##*/}
record() {
  mkdir -p "$out/cant"
  cell="fl/$1/compress/cant/$2/element_width:1/frame_size:1024"
  printf '{"context": {"git_revision": "abc"}, "benchmarks": [{"name": "%s", "run_name": "%s", "real_time": 1.0%s}]}\n' \
    "$cell" "$cell" "$3" >"$out/cant/$2.json"
}
if [ "$device" = gpu ]; then
  record gpu "$name.txt" ", \"gpu\": {\"index\": $GCBENCH_GPU_INDEX, \"name\": \"G\", \"pci_bus_id\": \"b\", \"uuid\": \"$CUDA_VISIBLE_DEVICES\"}"
elif [ -n "$helper" ]; then
  record cpu "$name.txt" ""
else
  for i in $(seq 200); do
    [ -e "${out%/*}/cpu-gpu0/cant/cpu-gpu0.txt.json" ] &&
      [ -e "${out%/*}/cpu-gpu1/cant/cpu-gpu1.txt.json" ] && break
    sleep 0.05
  done
  sleep 0.2  # the helpers' last line and exit, before this worker's
  record cpu "$name.txt" ""
fi
echo "timed_s=1 wall_s=1 setup_s=0 cells=1 peak_rss_bytes=1 largest_input_bytes=1" >"$harness"
)sh";
  ASSERT_EQ(run({"--gpus", "all", "--codecs=fl"}), 0) << err_.str();
  const fs::path out = dir_ / "out", workers = out / ".workers";
  const std::string o = out_.str(), e = err_.str();
  for (const char* worker : {"cpu", "cpu-gpu0", "cpu-gpu1"}) {
    EXPECT_NE(o.find(fmt::format("[{}] claims {}\n", worker, (workers / ".cpu-claims").string())),
              std::string::npos)
        << o;
  }
  for (const char* helper : {"cpu-gpu0", "cpu-gpu1"}) {
    EXPECT_NE(o.find(fmt::format("[{}] also {}\n", helper, (workers / "cpu").string())),
              std::string::npos)
        << o;
    EXPECT_FALSE(fs::exists(workers / helper)) << "folded into the CPU worker's folder";
    EXPECT_TRUE(fs::exists(workers / "cpu/cant" / (std::string(helper) + ".txt.json")));
  }
  EXPECT_NE(e.find("[gcbench] --gpus: gpu0 done at "), std::string::npos) << e;
  EXPECT_NE(e.find("; cpu-gpu0 (cores "), std::string::npos) << e;
  EXPECT_NE(e.find("takes CPU cells on its cores"), std::string::npos) << e;
  EXPECT_NE(e.find("; the last, cpu, bounded the run"), std::string::npos) << e;
  // Two GPU cells, the CPU worker's and each helper's.
  EXPECT_EQ(results::export_folder(out)["benchmarks"].size(), 5u);
  // Five harness lines summed: every worker that ran.
  const std::optional<HarnessSummary> line = parse_harness_line(harness_lines().at(0));
  ASSERT_TRUE(line);
  EXPECT_EQ(line->cells, 5);
}

TEST(Gpus, SaysSoWhenNoGpuIsUsable) {
  try {
    const std::vector<GpuIdentity> gpus = list_gpus();
    GTEST_SKIP() << "this machine has " << gpus.size()
                 << " GPUs (tests/gpu/gpus_test.cpp runs them)";
  } catch (const std::runtime_error&) {
  }
  const fs::path dir =
      fs::temp_directory_path() / ("gcbench_gpus_none_" + std::to_string(getpid()));
  const std::vector<std::string> args = {"--gpus", "all", "--out-dir", dir.string()};
  std::ostringstream out, err;
  const std::string error =
      error_of([&] { run_on_gpus({}, parse_options(args), std::nullopt, this_host(), out, err); });
  EXPECT_NE(error.find("--gpus: no usable GPU ("), std::string::npos) << error;
  EXPECT_FALSE(fs::exists(dir));
}

}  // namespace
}  // namespace gcbench::driver
