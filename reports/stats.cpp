#include "reports/stats.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace gcbench::reports::stats {

double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const double pos = q * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (pos - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

double median(const std::vector<double>& v) {
  return quantile(v, 0.5);
}

double iqr(const std::vector<double>& v) {
  return quantile(v, 0.75) - quantile(v, 0.25);
}

std::optional<double> geometric_mean(const std::vector<double>& v) {
  if (v.empty()) return std::nullopt;
  double log_sum = 0;
  for (double x : v) {
    if (!(x > 0)) return std::nullopt;
    log_sum += std::log(x);
  }
  return std::exp(log_sum / static_cast<double>(v.size()));
}

namespace {

// sigma of U under the null hypothesis, `tie_term` = sum over tie groups of t^3 - t.
double u_sigma(double n1, double n2, double tie_term) {
  const double n = n1 + n2;
  return std::sqrt(n1 * n2 / 12.0 * ((n + 1) - tie_term / (n * (n - 1))));
}

UTest from_u(double u, double n1, double n2, double tie_term) {
  UTest t;
  t.u = u;
  const double sigma = u_sigma(n1, n2, tie_term);
  if (!(sigma > 0)) return t;
  t.z = std::max(0.0, std::abs(u - n1 * n2 / 2) - 0.5) / sigma;
  t.p = std::min(1.0, std::erfc(t.z / std::sqrt(2.0)));
  return t;
}

}  // namespace

UTest mann_whitney_u(const std::vector<double>& x, const std::vector<double>& y) {
  std::vector<std::pair<double, bool>> all;  // value, from x
  for (double v : x) all.emplace_back(v, true);
  for (double v : y) all.emplace_back(v, false);
  std::sort(all.begin(), all.end());
  double rank_sum_x = 0, tie_term = 0;
  for (std::size_t i = 0; i < all.size();) {
    std::size_t j = i;
    while (j < all.size() && all[j].first == all[i].first) ++j;
    const double t = static_cast<double>(j - i);
    const double mid_rank = static_cast<double>(i + j + 1) / 2;  // ranks i+1 .. j, averaged
    for (std::size_t k = i; k < j; ++k) {
      if (all[k].second) rank_sum_x += mid_rank;
    }
    tie_term += t * t * t - t;
    i = j;
  }
  const auto n1 = static_cast<double>(x.size());
  const auto n2 = static_cast<double>(y.size());
  return from_u(rank_sum_x - n1 * (n1 + 1) / 2, n1, n2, tie_term);
}

bool enough_for_u_test(std::size_t n1, std::size_t n2, double alpha) {
  if (n1 == 0 || n2 == 0) return false;
  return from_u(0, static_cast<double>(n1), static_cast<double>(n2), 0).p < alpha;
}

double sign_test(std::size_t up, std::size_t down) {
  const std::size_t n = up + down;
  if (n == 0) return 1;
  // P(X <= min) under Binomial(n, 1/2), in logs so that large n does not underflow each term.
  const std::size_t k = std::min(up, down);
  double tail = 0;
  for (std::size_t i = 0; i <= k; ++i) {
    tail += std::exp(std::lgamma(n + 1.0) - std::lgamma(i + 1.0) - std::lgamma(n - i + 1.0) -
                     static_cast<double>(n) * std::log(2.0));
  }
  return std::min(1.0, 2 * tail);
}

namespace {

// The indices of `p` in ascending order of their values.
std::vector<std::size_t> ascending(const std::vector<double>& p) {
  std::vector<std::size_t> order(p.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return p[a] < p[b]; });
  return order;
}

}  // namespace

std::vector<double> benjamini_hochberg(const std::vector<double>& p) {
  const std::vector<std::size_t> order = ascending(p);
  std::vector<double> adjusted(p.size());
  double running = 1;
  for (std::size_t r = p.size(); r-- > 0;) {
    running = std::min(running, p[order[r]] * static_cast<double>(p.size()) / (r + 1.0));
    adjusted[order[r]] = running;
  }
  return adjusted;
}

std::vector<double> holm(const std::vector<double>& p) {
  const std::vector<std::size_t> order = ascending(p);
  std::vector<double> adjusted(p.size());
  double running = 0;
  for (std::size_t r = 0; r < p.size(); ++r) {
    running = std::max(running, std::min(1.0, p[order[r]] * static_cast<double>(p.size() - r)));
    adjusted[order[r]] = running;
  }
  return adjusted;
}

}  // namespace gcbench::reports::stats
