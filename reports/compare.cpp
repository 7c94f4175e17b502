#include "reports/compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "reports/stats.hpp"

namespace gcbench::reports {
namespace fs = std::filesystem;

namespace {

std::optional<double> counter_of(const Measurement& m, const std::string& name) {
  auto it = m.counters.find(name);
  if (it == m.counters.end()) return std::nullopt;
  return it->second;
}

// Files written before the ratio counter existed still have both sizes.
std::optional<double> ratio_of(const Measurement& m) {
  if (auto r = counter_of(m, "ratio")) return r;
  auto in = counter_of(m, "input_bytes"), out = counter_of(m, "compressed_bytes");
  if (in && out && *out > 0) return *in / *out;
  return std::nullopt;
}

std::optional<double> change_pct(std::optional<double> base, std::optional<double> now) {
  if (!base || !now || !(*base > 0)) return std::nullopt;
  return (*now / *base - 1) * 100;
}

std::optional<double> iqr_pct(const Measurement& m) {
  if (m.times_s.size() < 2 || !(m.time_s > 0)) return std::nullopt;
  return stats::iqr(m.times_s) / m.time_s * 100;
}

void append_note(std::string& note, const std::string& text) {
  note += (note.empty() ? "" : "; ") + text;
}

CellComparison compare_cell(const Measurement& b, const Measurement& n,
                            const CompareOptions& options) {
  CellComparison c;
  c.name = results::format_cell_name(b.id);
  c.id = b.id;
  c.base_reps = b.repetitions;
  c.new_reps = n.repetitions;
  if (b.error) append_note(c.note, options.base_label + " failed: " + *b.error);
  if (n.error) append_note(c.note, options.new_label + " failed: " + *n.error);
  if (b.error || n.error) return c;
  c.base_time_s = b.time_s;
  c.new_time_s = n.time_s;
  c.time_change_pct = change_pct(b.time_s, n.time_s);
  c.base_iqr_pct = iqr_pct(b);
  c.new_iqr_pct = iqr_pct(n);
  c.base_ratio = ratio_of(b);
  c.new_ratio = ratio_of(n);
  c.ratio_change_pct = change_pct(c.base_ratio, c.new_ratio);
  if (b.id.device == "gpu") {
    c.kernel_change_pct = change_pct(counter_of(b, "kernel_s"), counter_of(n, "kernel_s"));
    c.e2e_change_pct = change_pct(counter_of(b, "e2e_s"), counter_of(n, "e2e_s"));
  }
  if (b.times_s.empty() || n.times_s.empty()) {
    // --benchmark_report_aggregates_only: medians, but no repetitions to test.
    append_note(c.note, "no repetitions recorded (aggregates only)");
    return c;
  }
  if (!stats::enough_for_u_test(b.times_s.size(), n.times_s.size(), options.alpha)) {
    append_note(c.note, "too few repetitions");
    return c;
  }
  c.p_value = stats::mann_whitney_u(b.times_s, n.times_s).p;
  if (*c.p_value < options.alpha && c.time_change_pct) {
    if (*c.time_change_pct > options.threshold_pct) c.verdict = Verdict::regression;
    if (*c.time_change_pct < -options.threshold_pct) c.verdict = Verdict::improvement;
  }
  return c;
}

// The first cell whose input sizes differ, and how many do; empty when none.
std::string input_difference(
    const ResultSet& base, const ResultSet& now,
    const std::vector<std::pair<const Measurement*, const Measurement*>>& pairs,
    const CompareOptions& options) {
  std::string first;
  std::size_t differing = 0;
  for (auto [b, n] : pairs) {
    auto bi = counter_of(*b, "input_bytes"), ni = counter_of(*n, "input_bytes");
    if (!bi || !ni || *bi == *ni) continue;
    if (differing++ == 0) {
      first =
          fmt::format("{} has input_bytes {} in {} and {} in {}", results::format_cell_name(b->id),
                      *bi, options.base_label, *ni, options.new_label);
    }
  }
  std::string what;
  if (differing > 0) {
    what = first + (differing > 1 ? fmt::format(" (and {} more cells)", differing - 1) : "");
  }
  const std::string key = "corpus_manifest_sha256";
  auto bm = base.context.find(key), nm = now.context.find(key);
  if (bm != base.context.end() && nm != now.context.end() && bm->second != nm->second) {
    append_note(what,
                fmt::format("the corpus manifests differ ({} {}, {} {})", options.base_label,
                            bm->second.substr(0, 12), options.new_label, nm->second.substr(0, 12)));
  }
  return what;
}

std::vector<GroupComparison> geometric_means(const std::vector<CellComparison>& cells) {
  std::map<std::tuple<std::string, std::string, std::string, std::string>, std::vector<double>>
      ratios;
  for (const CellComparison& c : cells) {
    if (!c.base_time_s || !c.new_time_s || !(*c.base_time_s > 0)) continue;
    ratios[{c.id.corpus, c.id.codec, c.id.device, c.id.direction}].push_back(*c.new_time_s /
                                                                             *c.base_time_s);
  }
  std::vector<GroupComparison> groups;
  for (const auto& [key, values] : ratios) {
    auto mean = stats::geometric_mean(values);
    if (!mean) continue;
    const auto& [corpus, codec, device, direction] = key;
    groups.push_back({corpus, codec, device, direction, values.size(), *mean});
  }
  return groups;
}

}  // namespace

std::size_t Comparison::count(Verdict v) const {
  return static_cast<std::size_t>(
      std::count_if(cells.begin(), cells.end(), [&](const auto& c) { return c.verdict == v; }));
}

ResultSet load_side(const fs::path& path, const std::string& label) {
  if (!fs::exists(path))
    throw BadInput(fmt::format("{}: no such file or directory: {}", label, path.string()));
  ResultSet set;
  try {
    set = load_results({path});
  } catch (const std::exception& e) {
    throw BadInput(fmt::format("{}: {}", label, e.what()));
  }
  if (set.cells.empty()) {
    throw BadInput(
        fmt::format("{}: {} holds no gcbench cells (not gcbench results)", label, path.string()));
  }
  return set;
}

Comparison compare(const ResultSet& base, const ResultSet& now, const CompareOptions& options) {
  std::vector<std::pair<const Measurement*, const Measurement*>> pairs;
  Comparison out;
  for (const Measurement& b : base.cells) {
    auto n = std::find_if(now.cells.begin(), now.cells.end(),
                          [&](const Measurement& m) { return m.id == b.id; });
    if (n == now.cells.end()) {
      ++out.only_base;
    } else {
      pairs.emplace_back(&b, &*n);
    }
  }
  out.only_new = now.cells.size() - pairs.size();
  if (pairs.empty()) {
    throw BadInput(fmt::format("no cell is in both {} ({} cells) and {} ({} cells)",
                               options.base_label, base.cells.size(), options.new_label,
                               now.cells.size()));
  }
  if (std::string diff = input_difference(base, now, pairs, options); !diff.empty()) {
    if (!options.allow_different_inputs) {
      throw BadInput("different inputs: " + diff + " (--allow-different-inputs compares anyway)");
    }
    out.input_note = diff;
  }
  for (auto [b, n] : pairs) out.cells.push_back(compare_cell(*b, *n, options));
  std::sort(out.cells.begin(), out.cells.end(),
            [](const auto& x, const auto& y) { return x.name < y.name; });
  out.groups = geometric_means(out.cells);
  return out;
}

}  // namespace gcbench::reports
