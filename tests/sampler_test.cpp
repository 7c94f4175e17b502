// The stopping rule (bench/driver/sampler.hpp): quiet samples stop at the minimums, noisy ones
// once their mean is known well enough or at the wall cap, a fixed count is exact; and the rule
// read from the flags.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench/driver/sampler.hpp"

namespace gcbench::driver {
namespace {

const char* no_env(const char*) {
  return nullptr;
}

// Feeds `times` (cycled) to a sampler, each call also taking `overhead_s` of wall time,
// until it is done; returns it.
Sampler run(const StoppingRule& rule, bool gpu, const std::vector<double>& times,
            double overhead_s = 0) {
  Sampler s(rule, gpu);
  double wall = 0;
  for (std::size_t i = 0; !s.done(); ++i) {
    const double t = times[i % times.size()];
    wall += t + overhead_s;
    s.add(t, wall);
  }
  return s;
}

TEST(Sampler, QuietCallsStopAtTheMinimums) {
  StoppingRule rule;  // 0.02 s, 5 samples, 1% GPU
  const Sampler fast = run(rule, true, {1e-3});
  EXPECT_EQ(fast.samples(), 20u);  // 0.02 s of 1 ms calls
  EXPECT_DOUBLE_EQ(fast.noise(), 0);
  EXPECT_FALSE(fast.over_target());
  const Sampler slow = run(rule, true, {0.01});
  EXPECT_EQ(slow.samples(), 5u);  // the minimum count
}

TEST(Sampler, JitteredCallsRunMoreSamplesThanQuietOnesWithinTheCap) {
  StoppingRule rule;
  const Sampler quiet = run(rule, false, {1e-2, 1.001e-2});
  EXPECT_EQ(quiet.samples(), 5u);
  // About 33% spread: the mean's error reaches 3% only past 120 samples, 0.18 s of them.
  const Sampler jittered = run(rule, false, {1e-3, 2e-3});
  EXPECT_GT(jittered.samples(), 100u);
  EXPECT_FALSE(jittered.over_target());
  EXPECT_NEAR(100 * jittered.noise(), 33.5, 1);
  EXPECT_LE(jittered.error(), 0.03);
  EXPECT_NEAR(jittered.mean_s(), 1.5e-3, 1e-5);
  // 50% spread needs about 280 samples, 0.56 s: the 0.2 s cap ends it first, the error over
  // its target, not a sample later than the one that passed the cap.
  const Sampler capped = run(rule, false, {1e-3, 3e-3});
  EXPECT_TRUE(capped.over_target());
  EXPECT_GE(capped.total_s(), rule.cap_s());
  EXPECT_LE(capped.total_s(), rule.cap_s() + 3e-3);
  EXPECT_NEAR(capped.error(), capped.noise() / std::sqrt(capped.samples()), 1e-12);
}

TEST(Sampler, SpreadStopsOnlyWhenTheMeanIsKnownWellEnough) {
  StoppingRule rule;
  rule.min_time_s = 1e-6;
  rule.max_time_s = 1;
  // 10% spread, GPU target 1%: about 100 samples, not the minimum 5.
  const Sampler s = run(rule, true, {0.9e-4, 1.1e-4});
  EXPECT_GE(s.samples(), 99u);
  EXPECT_LE(s.samples(), 102u);
  EXPECT_FALSE(s.over_target());
}

TEST(Sampler, TheCapCountsWallTimeNotJustTimedTime) {
  StoppingRule rule;
  // 10 us kernels behind 1 ms of checks each: the 0.2 s cap is reached in wall time.
  const Sampler s = run(rule, true, {1e-5, 2e-5}, 1e-3);
  EXPECT_LE(s.samples(), 200u);
  EXPECT_GE(s.samples(), 190u);
}

TEST(Sampler, ACallLongerThanTheCapIsTakenOnce) {
  const Sampler s = run(StoppingRule{}, false, {0.5});
  EXPECT_EQ(s.samples(), 1u);
  EXPECT_DOUBLE_EQ(s.noise(), 0);
}

TEST(Sampler, AFixedCountIsExactWhateverTheNoise) {
  StoppingRule rule;
  rule.fixed_samples = 3;
  EXPECT_EQ(run(rule, false, {0.5, 0.01}).samples(), 3u);
}

TEST(Sampler, GpuAndCpuHaveTheirOwnTargets) {
  StoppingRule rule;
  rule.fixed_samples = 4;
  // 20% spread over 4 samples: the mean's error about 10%, over both targets; 5% spread: 2.5%,
  // over the GPU's 1% and under the CPU's 3%.
  EXPECT_TRUE(run(rule, true, {0.8e-3, 1.2e-3}).over_target());
  EXPECT_TRUE(run(rule, true, {0.95e-3, 1.05e-3}).over_target());
  EXPECT_FALSE(run(rule, false, {0.95e-3, 1.05e-3}).over_target());
}

TEST(StoppingRule, ReadFromTheFlags) {
  StoppingRule r = stopping_rule({"--benchmark_min_time=0.02", "--benchmark_min_time=0.5s"}, no_env,
                                 "0.02", std::nullopt, std::nullopt);
  EXPECT_DOUBLE_EQ(r.min_time_s, 0.5);  // the last one given
  EXPECT_DOUBLE_EQ(r.cap_s(), 5);
  EXPECT_FALSE(r.fixed_samples);
  r = stopping_rule({"--benchmark_min_time=7x"}, no_env, "0.02", std::string("0.5,2"), 1.5);
  EXPECT_EQ(r.fixed_samples, 7u);
  EXPECT_DOUBLE_EQ(r.max_error_gpu, 0.005);
  EXPECT_DOUBLE_EQ(r.max_error_cpu, 0.02);
  EXPECT_DOUBLE_EQ(r.cap_s(), 1.5);
  r = stopping_rule({}, no_env, "0.02", std::string("4"), std::nullopt);
  EXPECT_DOUBLE_EQ(r.max_error_gpu, 0.04);
  EXPECT_DOUBLE_EQ(r.max_error_cpu, 0.04);
  const auto env = [](const char* name) -> const char* {
    return std::string(name) == "BENCHMARK_MIN_TIME" ? "0.1s" : nullptr;
  };
  EXPECT_DOUBLE_EQ(stopping_rule({}, env, "0.02", std::nullopt, std::nullopt).min_time_s, 0.1);
}

TEST(StoppingRule, BadValuesSayWhatTheFlagTakes) {
  for (const char* bad :
       {"--benchmark_min_time=fast", "--benchmark_min_time=2.5x", "--benchmark_min_time=-1s"}) {
    SCOPED_TRACE(bad);
    EXPECT_THROW(stopping_rule({bad}, no_env, "0.02", std::nullopt, std::nullopt),
                 std::invalid_argument);
  }
  for (const char* bad : {"x", "1,", "-1", "0"}) {
    SCOPED_TRACE(bad);
    EXPECT_THROW(stopping_rule({}, no_env, "0.02", std::string(bad), std::nullopt),
                 std::invalid_argument);
  }
  EXPECT_THROW(stopping_rule({}, no_env, "0.02", std::nullopt, 0.0), std::invalid_argument);
}

TEST(StoppingRule, DescribedForTheContext) {
  EXPECT_EQ(describe(StoppingRule{}),
            "timed calls until the relative standard error of their mean is under 1% (GPU) or 3% "
            "(CPU), with at least 5 calls and 0.02 s timed, or until 0.2 s of wall time per cell");
  StoppingRule fixed;
  fixed.fixed_samples = 4;
  EXPECT_EQ(describe(fixed), "4 timed calls per cell (--benchmark_min_time=4x)");
}

}  // namespace
}  // namespace gcbench::driver
