// gcbench-report --compare: the Mann-Whitney U test against hand-computed values.
#include <gtest/gtest.h>

#include "reports/stats.hpp"

namespace gcbench::reports {
namespace {

// --- the statistics ---

TEST(Stats, MannWhitneyUCompleteSeparation) {
  // U = 0, mean 12.5, sigma^2 = 5*5/12 * 11 = 22.9167; z = (12.5 - 0.5) / 4.78714 = 2.50672;
  // p = erfc(z / sqrt 2) = 0.0121858.
  const stats::UTest t = stats::mann_whitney_u({1, 2, 3, 4, 5}, {6, 7, 8, 9, 10});
  EXPECT_DOUBLE_EQ(t.u, 0);
  EXPECT_NEAR(t.z, 2.50672, 1e-5);
  EXPECT_NEAR(t.p, 0.0121858, 1e-6);
  // Symmetric: the other order gives U = 25 and the same p.
  const stats::UTest r = stats::mann_whitney_u({6, 7, 8, 9, 10}, {1, 2, 3, 4, 5});
  EXPECT_DOUBLE_EQ(r.u, 25);
  EXPECT_NEAR(r.p, t.p, 1e-12);
}

TEST(Stats, MannWhitneyUWithTies) {
  // Ranks of 1 2 2 2 3 3 3 4: 1, 3 3 3, 6 6 6, 8. x = {1,2,2,3}: R = 13, U = 13 - 10 = 3.
  // Ties: two groups of 3, sum(t^3 - t) = 48; sigma^2 = 16/12 * (9 - 48/56) = 10.857143;
  // z = (|3 - 8| - 0.5) / 3.295018 = 1.365698; p = 0.172034.
  const stats::UTest t = stats::mann_whitney_u({1, 2, 2, 3}, {2, 3, 3, 4});
  EXPECT_DOUBLE_EQ(t.u, 3);
  EXPECT_NEAR(t.z, 1.365698, 1e-6);
  EXPECT_NEAR(t.p, 0.172034, 1e-6);
}

TEST(Stats, MannWhitneyUAllTiedOrIdenticalIsNotSignificant) {
  EXPECT_DOUBLE_EQ(stats::mann_whitney_u({3, 3, 3}, {3, 3, 3}).p, 1);
  EXPECT_DOUBLE_EQ(stats::mann_whitney_u({1, 2, 3, 4}, {1, 2, 3, 4}).p, 1);
}

TEST(Stats, EnoughRepetitionsMeansSomeOutcomeCouldBeSignificant) {
  // 3 a side: at best z = 4 / 2.2913 = 1.746, p = 0.081; 4 a side: p = 0.030.
  EXPECT_FALSE(stats::enough_for_u_test(3, 3, 0.05));
  EXPECT_TRUE(stats::enough_for_u_test(4, 4, 0.05));
  EXPECT_FALSE(stats::enough_for_u_test(1, 100, 0.05));
  EXPECT_TRUE(stats::enough_for_u_test(2, 10, 0.05));
  EXPECT_FALSE(stats::enough_for_u_test(0, 10, 0.05));
}

TEST(Stats, QuartilesAndGeometricMean) {
  EXPECT_DOUBLE_EQ(stats::median({4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(stats::quantile({1, 2, 3, 4}, 0.25), 1.75);
  EXPECT_DOUBLE_EQ(stats::iqr({1, 2, 3, 4}), 1.5);
  EXPECT_NEAR(*stats::geometric_mean({2, 8}), 4, 1e-12);
  EXPECT_FALSE(stats::geometric_mean({2, 0}));
  EXPECT_FALSE(stats::geometric_mean({}));
}

}  // namespace
}  // namespace gcbench::reports
