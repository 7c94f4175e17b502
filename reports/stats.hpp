#pragma once
// Small statistics for comparing two runs: quartiles, the geometric mean, the two-sided
// Mann-Whitney U test that Google Benchmark's tools/compare.py applies to repetitions, the sign
// test, and the corrections for testing many cells at once.
#include <cstddef>
#include <optional>
#include <vector>

namespace gcbench::reports::stats {

// Linear interpolation between order statistics (numpy's default); `v` must not be empty.
double quantile(std::vector<double> v, double q);
double median(const std::vector<double>& v);
// Interquartile range, q3 - q1.
double iqr(const std::vector<double>& v);

// Of positive values; nullopt for an empty list or a value <= 0.
std::optional<double> geometric_mean(const std::vector<double>& v);

struct UTest {
  double u = 0;  // U of the first sample: pairs (x, y) with x > y, ties counting one half
  double z = 0;  // with continuity correction, >= 0
  double p = 1;  // two-sided
};

// Normal approximation with tie and continuity correction (scipy.stats.mannwhitneyu's
// asymptotic method). All values tied: p = 1.
UTest mann_whitney_u(const std::vector<double>& x, const std::vector<double>& y);

// Whether samples of these sizes can reach p < alpha at all (complete separation, no ties):
// below that the test says nothing, and the caller reports "too few repetitions".
bool enough_for_u_test(std::size_t n1, std::size_t n2, double alpha);

// Two-sided exact sign test: `up` of `up + down` paired changes went one way; 1 for none.
double sign_test(std::size_t up, std::size_t down);

// Adjusted p-values, in the input's order, for testing them all at once: Benjamini-Hochberg's
// (rejecting those below alpha keeps the expected share of false discoveries below alpha) and
// Holm's (keeps the chance of any false discovery below alpha).
std::vector<double> benjamini_hochberg(const std::vector<double>& p);
std::vector<double> holm(const std::vector<double>& p);

}  // namespace gcbench::reports::stats
