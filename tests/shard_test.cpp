// --shard K/N: parsing and its errors, the shard of a Slurm job array task or a Kubernetes
// Indexed Job pod, the cost-balanced split (disjoint, covering, deterministic, balanced), and
// the plan (results_test.cpp: its file, which gcbench-report --merge-shards reads).
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <set>

#include "bench/driver/cells.hpp"
#include "bench/driver/estimate.hpp"
#include "bench/driver/options.hpp"
#include "bench/driver/shard.hpp"
#include "gcbench/registry.hpp"

namespace gcbench::driver {
namespace {
using results::Shard;

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(Shard, ParsesKOfN) {
  EXPECT_EQ(parse_shard("3/8"), (Shard{3, 8}));
  EXPECT_EQ(parse_shard("1/1"), (Shard{1, 1}));
  EXPECT_EQ(parse_shard("7/7").to_string(), "7/7");
  EXPECT_EQ(parse_options({"--shard", "2/3"}).shard, (Shard{2, 3}));
  EXPECT_EQ(parse_options({"--shard=5/9"}).shard, (Shard{5, 9}));
  EXPECT_FALSE(parse_options({}).shard);
}

TEST(Shard, BadShardsNameTheProblem) {
  EXPECT_NE(error_of([] { parse_shard("3/2"); }).find("from 1 to N = 2"), std::string::npos);
  EXPECT_NE(error_of([] { parse_shard("0/0"); }).find("N must be at least 1"), std::string::npos);
  EXPECT_NE(error_of([] { parse_shard("0/4"); }).find("numbered from 1"), std::string::npos);
  EXPECT_NE(error_of([] { parse_shard("-1/4"); }).find("numbered from 1"), std::string::npos);
  for (const char* bad : {"", "3", "3/", "/8", "a/8", "3/8x", "3-8", "1/2/3", " 1/2"}) {
    const std::string e = error_of([&] { parse_options({"--shard", bad}); });
    EXPECT_NE(e.find("expected K/N"), std::string::npos) << "'" << bad << "': " << e;
    EXPECT_NE(e.find(std::string("'") + bad + "'"), std::string::npos) << e;
  }
}

EnvLookup env_of(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const char* name) -> const char* {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  };
}

TEST(Shard, FromASlurmJobArray) {
  EXPECT_FALSE(shard_from_environment(env_of({})));
  auto zero_based = shard_from_environment(env_of({{"SLURM_ARRAY_TASK_ID", "0"},
                                                   {"SLURM_ARRAY_TASK_COUNT", "4"},
                                                   {"SLURM_ARRAY_TASK_MIN", "0"}}));
  ASSERT_TRUE(zero_based);
  EXPECT_EQ(zero_based->shard, (Shard{1, 4}));
  EXPECT_NE(zero_based->source.find("Slurm job array"), std::string::npos);
  EXPECT_NE(zero_based->source.find("SLURM_ARRAY_TASK_ID=0"), std::string::npos);
  // --array=1-8
  auto one_based = shard_from_environment(env_of({{"SLURM_ARRAY_TASK_ID", "8"},
                                                  {"SLURM_ARRAY_TASK_COUNT", "8"},
                                                  {"SLURM_ARRAY_TASK_MIN", "1"}}));
  ASSERT_TRUE(one_based);
  EXPECT_EQ(one_based->shard, (Shard{8, 8}));
  // --array=10-40:10
  auto stepped = shard_from_environment(env_of({{"SLURM_ARRAY_TASK_ID", "30"},
                                                {"SLURM_ARRAY_TASK_COUNT", "4"},
                                                {"SLURM_ARRAY_TASK_MIN", "10"},
                                                {"SLURM_ARRAY_TASK_STEP", "10"}}));
  ASSERT_TRUE(stepped);
  EXPECT_EQ(stepped->shard, (Shard{3, 4}));
  // --shard wins over the environment.
  auto flag = choose_shard(Shard{2, 5},
                           env_of({{"SLURM_ARRAY_TASK_ID", "0"}, {"SLURM_ARRAY_TASK_COUNT", "4"}}));
  ASSERT_TRUE(flag);
  EXPECT_EQ(flag->shard, (Shard{2, 5}));
  EXPECT_EQ(flag->source, "--shard");
}

TEST(Shard, BadSlurmVariablesNameTheProblem) {
  EXPECT_NE(error_of([] {
              shard_from_environment(env_of({{"SLURM_ARRAY_TASK_ID", "2"}}));
            }).find("but SLURM_ARRAY_TASK_COUNT is not"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              shard_from_environment(
                  env_of({{"SLURM_ARRAY_TASK_ID", "x"}, {"SLURM_ARRAY_TASK_COUNT", "4"}}));
            }).find("SLURM_ARRAY_TASK_ID='x' is not an integer"),
            std::string::npos);
  // A task outside a contiguous 0..N-1 (a list such as --array=1,5,9).
  EXPECT_NE(error_of([] {
              shard_from_environment(env_of({{"SLURM_ARRAY_TASK_ID", "9"},
                                             {"SLURM_ARRAY_TASK_COUNT", "3"},
                                             {"SLURM_ARRAY_TASK_MIN", "1"}}));
            }).find("submit a contiguous array"),
            std::string::npos);
}

TEST(Shard, FromAKubernetesIndexedJob) {
  auto pod =
      shard_from_environment(env_of({{"JOB_COMPLETION_INDEX", "2"}, {"GCBENCH_SHARD_COUNT", "3"}}));
  ASSERT_TRUE(pod);
  EXPECT_EQ(pod->shard, (Shard{3, 3}));
  EXPECT_NE(pod->source.find("Kubernetes Indexed Job"), std::string::npos);
  EXPECT_NE(error_of([] {
              shard_from_environment(env_of({{"JOB_COMPLETION_INDEX", "2"}}));
            }).find("GCBENCH_SHARD_COUNT is not"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              shard_from_environment(
                  env_of({{"JOB_COMPLETION_INDEX", "3"}, {"GCBENCH_SHARD_COUNT", "3"}}));
            }).find("from 0 to GCBENCH_SHARD_COUNT - 1"),
            std::string::npos);
}

TEST(Shard, LongestProcessingTimeFirst) {
  // 7, 5, 4, 3, 2, 1 over 2 shards: 7->1, 5->2, 4->2 (5 < 7), 3->1 (7 < 9), 2->2 (9 < 10),
  // 1->1 (10 < 11): loads 11 and 11.
  const std::vector<double> costs{3, 7, 1, 5, 2, 4};
  const std::vector<std::string> names{"c", "a", "f", "b", "e", "d"};
  EXPECT_EQ(assign_shards(costs, names, 2), (std::vector<int>{1, 1, 1, 2, 2, 2}));
  // Equal costs: by name, round robin.
  EXPECT_EQ(assign_shards({1, 1, 1}, {"z", "x", "y"}, 3), (std::vector<int>{3, 1, 2}));
  EXPECT_EQ(assign_shards({5, 1}, {"a", "b"}, 1), (std::vector<int>{1, 1}));
}

// The CPU cells of FL, RLE and LZ77 (hash finder) over synthetic inputs of mixed sizes.
struct Sweep {
  std::vector<InputFile> inputs;
  std::vector<CellSpec> cells;
};

Sweep small_sweep() {
  Sweep s;
  const std::uint64_t sizes[] = {1000, 250000, 7000, 3000000, 64, 90000};
  for (std::size_t i = 0; i < std::size(sizes); ++i) {
    InputFile f;
    f.corpus = "test";
    f.name = "file" + std::to_string(i);
    f.size = sizes[i];
    s.inputs.push_back(f);
  }
  const std::vector<const Codec*> all = registered_codecs();
  Options options = parse_options({"--finder", "hash"});
  const auto selected = select_codecs(all, {"fl", "rle", "lz77"}, "cpu");
  s.cells = enumerate_cells(selected, all, s.inputs, options);
  return s;
}

TEST(Shard, EveryCellInExactlyOneShardBalancedByCost) {
  const Sweep sweep = small_sweep();
  ASSERT_GT(sweep.cells.size(), 20u);
  for (int n : {1, 2, 3, 7}) {
    std::multiset<std::string> seen;
    std::vector<double> load;
    std::vector<std::pair<std::string, int>> first_plan;
    for (int k = 1; k <= n; ++k) {
      const ShardedCells s = shard_cells(sweep.cells, sweep.inputs, {{k, n}, "--shard"});
      EXPECT_EQ(s.plan.shard, (Shard{k, n}));
      ASSERT_EQ(s.plan.cells.size(), sweep.cells.size());
      if (k == 1) first_plan = s.plan.cells;
      EXPECT_EQ(s.plan.cells, first_plan) << "every shard computes the same plan";
      EXPECT_NE(s.summary.find(fmt::format("shard {}/{} from --shard: {} of {} cells", k, n,
                                           s.cells.size(), sweep.cells.size())),
                std::string::npos)
          << s.summary;
      double cost = 0;
      std::size_t at = 0;
      for (const CellSpec& c : s.cells) {
        seen.insert(c.name);
        cost += estimate_cell_s(c, sweep.inputs[c.input].size, 16);
        // Run order kept: the shard's cells appear in the sweep's order.
        auto it =
            std::find_if(sweep.cells.begin() + static_cast<std::ptrdiff_t>(at), sweep.cells.end(),
                         [&](const CellSpec& all) { return all.name == c.name; });
        ASSERT_NE(it, sweep.cells.end()) << c.name << " out of order";
        at = static_cast<std::size_t>(it - sweep.cells.begin());
      }
      load.push_back(cost);
    }
    std::multiset<std::string> all;
    for (const CellSpec& c : sweep.cells) all.insert(c.name);
    EXPECT_EQ(seen, all) << n << " shards";
    // LPT's bound: no shard exceeds the mean by more than the costliest cell.
    double costliest = 0;
    for (const CellSpec& c : sweep.cells)
      costliest = std::max(costliest, estimate_cell_s(c, sweep.inputs[c.input].size, 16));
    const double mean = std::accumulate(load.begin(), load.end(), 0.0) / n;
    for (double l : load) EXPECT_LE(l, mean + costliest) << n << " shards";
  }
}

TEST(Shard, PlanDoesNotDependOnInputOrderOfEqualCosts) {
  Sweep sweep = small_sweep();
  const ShardedCells a = shard_cells(sweep.cells, sweep.inputs, {{2, 3}, "--shard"});
  std::reverse(sweep.cells.begin(), sweep.cells.end());
  const ShardedCells b = shard_cells(sweep.cells, sweep.inputs, {{2, 3}, "--shard"});
  std::map<std::string, int> ma(a.plan.cells.begin(), a.plan.cells.end());
  std::map<std::string, int> mb(b.plan.cells.begin(), b.plan.cells.end());
  EXPECT_EQ(ma, mb);
}

}  // namespace
}  // namespace gcbench::driver
