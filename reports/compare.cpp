#include "reports/compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "reports/stats.hpp"
#include "src/results/counters.hpp"

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
  if (auto r = counter_of(m, results::counter::kRatio)) return r;
  auto in = counter_of(m, results::counter::kInputBytes),
       out = counter_of(m, results::counter::kCompressedBytes);
  if (in && out && *out > 0) return *in / *out;
  return std::nullopt;
}

std::optional<double> change_pct(std::optional<double> base, std::optional<double> now) {
  if (!base || !now || !(*base > 0)) return std::nullopt;
  return (*now / *base - 1) * 100;
}

// The larger of two sides' noise, where both have one.
std::optional<double> larger_noise(std::optional<double> base, std::optional<double> now) {
  if (!base || !now) return std::nullopt;
  return std::max(*base, *now);
}

std::optional<double> iqr_pct(const std::vector<double>& times) {
  if (times.size() < 2) return std::nullopt;
  const double median = stats::median(times);
  if (!(median > 0)) return std::nullopt;
  return stats::iqr(times) / median * 100;
}

// A side whose cells' timing threads were on a CPU for less than this share of the other
// side's on-CPU time ran on a busier machine.
constexpr double kBusierShare = 0.75;

void append_note(std::string& note, const std::string& text) {
  note += (note.empty() ? "" : "; ") + text;
}

// A GPU cell's device memory is its buffers' sizes, a function of the input like its container:
// any growth counts. A CPU cell's heap peak is measured: growth beyond the threshold and beyond
// kMemorySlackBytes counts. Either change is noted.
void note_memory_growth(const Measurement& b, const Measurement& n, const CompareOptions& options,
                        CellComparison& c) {
  const bool gpu = b.id.device == "gpu";
  const std::string name =
      gpu ? results::counter::kMemoryDeviceBytes : results::counter::kMemoryHostBytes;
  const auto before = counter_of(b, name), after = counter_of(n, name);
  if (!before || !after || !(*before > 0) || *after == *before) return;
  const double pct = (*after / *before - 1) * 100;
  append_note(c.note,
              fmt::format("{} {:+.2f}% ({:.0f} -> {:.0f} bytes)", name, pct, *before, *after));
  const bool grew =
      gpu ? *after > *before : pct > options.threshold_pct && *after - *before > kMemorySlackBytes;
  if (grew) c.memory_growth_pct = pct;
}

// The side whose timing thread had much less of its wall time on a CPU than the other's (a
// machine busy with other work slows every cell it shares the cores with), if either.
std::optional<std::string> busier_side(const CellComparison& c, const CompareOptions& options) {
  if (!c.base_on_cpu || !c.new_on_cpu) return std::nullopt;
  if (*c.new_on_cpu < kBusierShare * *c.base_on_cpu) return options.new_label;
  if (*c.base_on_cpu < kBusierShare * *c.new_on_cpu) return options.base_label;
  return std::nullopt;
}

// How the inputs of a cell's two measurements differ, in words; "" when they are the same bytes
// as far as the results tell: the input's SHA-256 where both recorded one, else its size and
// the runs' corpus manifests (`manifests`: how they differ, "" when they do not).
std::string input_change(const Measurement& b, const Measurement& n, const std::string& manifests,
                         const CompareOptions& o) {
  if (!b.input_sha256.empty() && !n.input_sha256.empty()) {
    if (b.input_sha256 == n.input_sha256) return "";
    return fmt::format("the input differs (sha256 {} in {}, {} in {})",
                       b.input_sha256.substr(0, 12), o.base_label, n.input_sha256.substr(0, 12),
                       o.new_label);
  }
  const auto bi = counter_of(b, results::counter::kInputBytes),
             ni = counter_of(n, results::counter::kInputBytes);
  if (bi && ni && *bi != *ni) {
    return fmt::format("the input differs ({} bytes in {}, {} in {})", *bi, o.base_label, *ni,
                       o.new_label);
  }
  return manifests;
}

// Why a GPU cell's end-to-end times cannot be tested; "" where they can.
std::string why_e2e_untested(const Measurement& b, const Measurement& n,
                             const CompareOptions& options) {
  if (b.e2e_measured_once || n.e2e_measured_once)
    return "measured once a run, not per repetition: untested";
  if (!stats::enough_for_u_test(b.e2e_times_s.size(), n.e2e_times_s.size(), options.alpha))
    return "too few repetitions: untested";
  return "";
}

CellComparison compare_cell(const Measurement& b, const Measurement& n,
                            const std::string& manifests, const CompareOptions& options) {
  CellComparison c;
  c.name = results::format_cell_name(b.id);
  c.id = b.id;
  c.base_reps = b.repetitions;
  c.new_reps = n.repetitions;
  if (b.error) append_note(c.note, options.base_label + " failed: " + *b.error);
  if (n.error) append_note(c.note, options.new_label + " failed: " + *n.error);
  // A cell that passed and now fails is a regression; one that failed before is no baseline.
  if (n.error && !b.error) c.verdict = Verdict::failed;
  if (b.error || n.error) return c;
  if (const std::string changed = input_change(b, n, manifests, options); !changed.empty()) {
    if (!options.allow_different_inputs) {
      c.verdict = Verdict::not_comparable;
      append_note(c.note, changed);
      return c;
    }
    append_note(c.note, changed + ", compared as allowed");
  }
  c.base_time_s = b.time_s;
  c.new_time_s = n.time_s;
  c.time_change_pct = change_pct(b.time_s, n.time_s);
  c.base_iqr_pct = iqr_pct(b.times_s);
  c.new_iqr_pct = iqr_pct(n.times_s);
  c.base_ratio = ratio_of(b);
  c.new_ratio = ratio_of(n);
  c.ratio_change_pct = change_pct(c.base_ratio, c.new_ratio);
  // A codec's container at a point is a function of its input: any growth is a regression,
  // unless the inputs were allowed to differ.
  const auto bc = counter_of(b, results::counter::kCompressedBytes),
             nc = counter_of(n, results::counter::kCompressedBytes);
  if (bc && nc && *bc > 0 && *nc != *bc) {
    c.compressed_change_pct = (*nc / *bc - 1) * 100;
    append_note(c.note, fmt::format("compressed size {:+.2f}% ({:.0f} -> {:.0f} bytes)",
                                    *c.compressed_change_pct, *bc, *nc));
  }
  note_memory_growth(b, n, options, c);
  if (b.id.device == "gpu") {
    c.kernel_change_pct = change_pct(counter_of(b, results::counter::kKernelS),
                                     counter_of(n, results::counter::kKernelS));
    c.e2e_change_pct =
        change_pct(counter_of(b, results::counter::kE2eS), counter_of(n, results::counter::kE2eS));
    c.e2e_noise_pct = larger_noise(iqr_pct(b.e2e_times_s), iqr_pct(n.e2e_times_s));
    if (c.e2e_change_pct) c.e2e_untested = why_e2e_untested(b, n, options);
    if (c.e2e_change_pct && c.e2e_untested.empty()) {
      c.e2e_p_value = stats::mann_whitney_u(b.e2e_times_s, n.e2e_times_s).p;
    }
  }
  c.base_on_cpu = b.on_cpu;
  c.new_on_cpu = n.on_cpu;
  if (const std::optional<std::string> side = busier_side(c, options)) {
    append_note(c.note, fmt::format("{}'s timing thread was on a CPU {:.0f}% of its wall time, "
                                    "the other's {:.0f}%: its machine was busier",
                                    *side, 100 * std::min(*b.on_cpu, *n.on_cpu),
                                    100 * std::max(*b.on_cpu, *n.on_cpu)));
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
  return c;
}

// The larger of the two sides' noise in the cell's time, where both have one.
std::optional<double> noise_of(const CellComparison& c) {
  return larger_noise(c.base_iqr_pct, c.new_iqr_pct);
}

// SAME within the threshold; FASTER or SLOWER beyond it, beyond the noise and significant
// after correction; UNCLEAR otherwise, with `why` saying which test it did not pass.
Verdict judge(double change_pct, std::optional<double> noise_pct, std::optional<double> p_adjusted,
              const CompareOptions& options, std::string& why) {
  if (std::abs(change_pct) <= options.threshold_pct) return Verdict::same;
  if (noise_pct && std::abs(change_pct) <= options.noise_factor * *noise_pct) {
    why = fmt::format("within the noise (IQR {:.1f}%)", *noise_pct);
    return Verdict::unclear;
  }
  if (!p_adjusted) return Verdict::unclear;  // untested: the cell's note says why
  if (*p_adjusted >= options.alpha) {
    why = fmt::format("not significant after correction (adjusted p {:.3g})", *p_adjusted);
    return Verdict::unclear;
  }
  return change_pct > 0 ? Verdict::slower : Verdict::faster;
}

// The graver of two timing verdicts, in the order summaries count them.
Verdict graver(Verdict a, Verdict b) {
  for (Verdict v : kVerdictsGravestFirst) {
    if (v == a || v == b) return v;
  }
  return a;
}

void judge_cells(std::vector<CellComparison>& cells, const CompareOptions& options) {
  // One family of tests: every cell's time, and the end-to-end times of the GPU cells that have
  // them.
  std::vector<double> p;
  for (const CellComparison& c : cells) {
    if (c.p_value) p.push_back(*c.p_value);
    if (c.e2e_p_value) p.push_back(*c.e2e_p_value);
  }
  const std::vector<double> adjusted = stats::benjamini_hochberg(p);
  std::size_t next = 0;
  for (CellComparison& c : cells) {
    if (c.p_value) c.p_adjusted = adjusted[next++];
    if (c.e2e_p_value) c.e2e_p_adjusted = adjusted[next++];
    if (!c.time_change_pct) continue;  // failed, missing or not comparable: the note says why
    std::string why;
    c.verdict = judge(*c.time_change_pct, noise_of(c), c.p_adjusted, options, why);
    if (!why.empty()) append_note(c.note, why);
    if (c.e2e_change_pct) {
      std::string e2e_why = c.e2e_untested;
      c.e2e_verdict = judge(*c.e2e_change_pct, c.e2e_noise_pct, c.e2e_p_adjusted, options, e2e_why);
      append_note(c.note, fmt::format("end to end {} ({:+.1f}%{})", verdict_name(*c.e2e_verdict),
                                      *c.e2e_change_pct, e2e_why.empty() ? "" : ", " + e2e_why));
      c.verdict = graver(c.verdict, *c.e2e_verdict);
    }
    if (c.compressed_change_pct && *c.compressed_change_pct > 0 &&
        !options.allow_different_inputs) {
      c.verdict = Verdict::ratio_worse;
    } else if (c.memory_growth_pct && !options.allow_different_inputs) {
      c.verdict = Verdict::memory_worse;
    }
  }
}

// How the runs' corpus manifests differ, in words; "" when they do not (or either has none).
std::string manifest_difference(const ResultSet& base, const ResultSet& now,
                                const CompareOptions& options) {
  const std::string key = "corpus_manifest_sha256";
  auto bm = base.context.find(key), nm = now.context.find(key);
  if (bm == base.context.end() || nm == now.context.end() || bm->second == nm->second) return "";
  return fmt::format("the corpus manifests differ ({} {}, {} {})", options.base_label,
                     bm->second.substr(0, 12), options.new_label, nm->second.substr(0, 12));
}

// What differs between the runs' inputs as a whole: how many cells were measured on other
// input bytes, and the corpus manifests; empty when nothing does.
std::string input_difference(const std::vector<CellComparison>& cells,
                             const std::string& manifests) {
  std::string what;
  const auto differing = std::count_if(cells.begin(), cells.end(), [](const CellComparison& c) {
    return c.verdict == Verdict::not_comparable ||
           c.note.find("compared as allowed") != std::string::npos;
  });
  if (differing > 0) what = fmt::format("{} cells were measured on other input bytes", differing);
  if (!manifests.empty()) append_note(what, manifests);
  return what;
}

// Per corpus, codec, device and direction: the geometric mean of the time ratios, a sign test
// over the cells (a change shared by the group's cells is evidence that single cells with few
// repetitions cannot give), Holm's correction over the groups, and the group's verdict.
std::vector<GroupComparison> judge_groups(const std::vector<CellComparison>& cells,
                                          const CompareOptions& options) {
  std::map<std::tuple<std::string, std::string, std::string, std::string>,
           std::vector<const CellComparison*>>
      members;
  for (const CellComparison& c : cells) {
    if (!c.base_time_s || !c.new_time_s || !(*c.base_time_s > 0)) continue;
    members[{c.id.corpus, c.id.codec, c.id.device, c.id.direction}].push_back(&c);
  }
  std::vector<GroupComparison> groups;
  for (const auto& [key, group] : members) {
    std::vector<double> ratios, noises;
    GroupComparison g;
    for (const CellComparison* c : group) {
      ratios.push_back(*c->new_time_s / *c->base_time_s);
      g.slower += *c->new_time_s > *c->base_time_s ? 1 : 0;
      g.faster += *c->new_time_s < *c->base_time_s ? 1 : 0;
      if (const auto noise = noise_of(*c)) noises.push_back(*noise);
    }
    const auto mean = stats::geometric_mean(ratios);
    if (!mean) continue;
    std::tie(g.corpus, g.codec, g.device, g.direction) = key;
    g.cells = ratios.size();
    g.time_ratio = *mean;
    g.p_value = stats::sign_test(g.slower, g.faster);
    if (!noises.empty()) g.noise_pct = stats::median(noises);
    groups.push_back(std::move(g));
  }
  std::vector<double> p;
  for (const GroupComparison& g : groups) p.push_back(g.p_value);
  const std::vector<double> adjusted = stats::holm(p);
  for (std::size_t i = 0; i < groups.size(); ++i) {
    GroupComparison& g = groups[i];
    g.p_adjusted = adjusted[i];
    std::string why;
    g.verdict = judge((g.time_ratio - 1) * 100, g.noise_pct, g.p_adjusted, options, why);
  }
  return groups;
}

}  // namespace

bool fails(Verdict v, const CompareOptions& options) {
  switch (v) {
    case Verdict::same:
    case Verdict::faster:
      return false;
    case Verdict::unclear:
      return options.fail_on_unclear;
    case Verdict::slower:
    case Verdict::missing:
    case Verdict::failed:
    case Verdict::not_comparable:
    case Verdict::ratio_worse:
    case Verdict::memory_worse:
      break;
  }
  return true;
}

bool Comparison::failed(const CompareOptions& options) const {
  return std::any_of(cells.begin(), cells.end(),
                     [&](const CellComparison& c) { return fails(c.verdict, options); }) ||
         std::any_of(groups.begin(), groups.end(),
                     [&](const GroupComparison& g) { return fails(g.verdict, options); });
}

std::size_t Comparison::count(Verdict v) const {
  return static_cast<std::size_t>(
      std::count_if(cells.begin(), cells.end(), [&](const auto& c) { return c.verdict == v; }));
}

std::size_t Comparison::count_groups(Verdict v) const {
  return static_cast<std::size_t>(
      std::count_if(groups.begin(), groups.end(), [&](const auto& g) { return g.verdict == v; }));
}

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::same:
      return "SAME";
    case Verdict::faster:
      return "FASTER";
    case Verdict::slower:
      return "SLOWER";
    case Verdict::missing:
      return "MISSING";
    case Verdict::failed:
      return "FAILED";
    case Verdict::not_comparable:
      return "NOT COMPARABLE";
    case Verdict::ratio_worse:
      return "RATIO WORSE";
    case Verdict::memory_worse:
      return "MEMORY WORSE";
    case Verdict::unclear:
      break;
  }
  return "UNCLEAR";
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

// How many CPU cells ran on a busier machine on either side, with the median on-CPU shares of
// those cells; "" when none did. Verdicts are left as they are: a busier machine is slower.
std::string busy_note(const std::vector<CellComparison>& cells, const CompareOptions& options) {
  std::string note;
  for (const std::string& side : {options.base_label, options.new_label}) {
    std::vector<double> busy, other;
    for (const CellComparison& c : cells) {
      if (busier_side(c, options) != side) continue;
      const bool is_new = side == options.new_label;
      busy.push_back(*(is_new ? c.new_on_cpu : c.base_on_cpu));
      other.push_back(*(is_new ? c.base_on_cpu : c.new_on_cpu));
    }
    if (busy.empty()) continue;
    note += fmt::format(
        "{}{} of the CPU cells ran on a busier machine in {}: their timing threads were on a CPU "
        "{:.0f}% of their wall time (median), against {:.0f}% in the other run. Their changes "
        "may be the machine's, not the code's: compare runs on a quiet machine.",
        note.empty() ? "" : " ", busy.size(), side, 100 * stats::median(busy),
        100 * stats::median(other));
  }
  return note;
}

using GroupKey = std::tuple<std::string, std::string, std::string, std::string>;

GroupKey group_of(const results::CellId& id) {
  return {id.corpus, id.codec, id.device, id.direction};
}

Comparison compare(const ResultSet& base, const ResultSet& now, const CompareOptions& options) {
  Comparison out;
  const std::string manifests = manifest_difference(base, now, options);
  std::size_t both = 0;
  std::set<GroupKey> base_groups;  // of BASE's cells that passed
  for (const Measurement& b : base.cells) {
    if (!b.error) base_groups.insert(group_of(b.id));
    auto n = std::find_if(now.cells.begin(), now.cells.end(),
                          [&](const Measurement& m) { return m.id == b.id; });
    if (n != now.cells.end()) {
      ++both;
      out.cells.push_back(compare_cell(b, *n, manifests, options));
      continue;
    }
    ++out.only_base;
    if (b.error) continue;  // it failed in BASE: nothing lost
    CellComparison gone;
    gone.name = results::format_cell_name(b.id);
    gone.id = b.id;
    gone.base_reps = b.repetitions;
    gone.base_time_s = b.time_s;
    gone.verdict = Verdict::missing;
    gone.note = fmt::format("measured in {}, not in {}", options.base_label, options.new_label);
    out.cells.push_back(std::move(gone));
  }
  out.only_new = now.cells.size() - both;
  if (both == 0) {
    throw BadInput(fmt::format("no cell is in both {} ({} cells) and {} ({} cells)",
                               options.base_label, base.cells.size(), options.new_label,
                               now.cells.size()));
  }
  std::sort(out.cells.begin(), out.cells.end(),
            [](const auto& x, const auto& y) { return x.name < y.name; });
  judge_cells(out.cells, options);
  out.input_note = input_difference(out.cells, manifests);
  out.groups = judge_groups(out.cells, options);
  // A group of BASE whose every cell is missing or failed in NEW is missing as a whole.
  for (const GroupKey& key : base_groups) {
    if (std::any_of(out.cells.begin(), out.cells.end(), [&](const CellComparison& c) {
          return group_of(c.id) == key && c.verdict != Verdict::missing &&
                 c.verdict != Verdict::failed;
        })) {
      continue;
    }
    GroupComparison gone;
    std::tie(gone.corpus, gone.codec, gone.device, gone.direction) = key;
    gone.verdict = Verdict::missing;
    out.groups.push_back(std::move(gone));
  }
  out.busy_note = busy_note(out.cells, options);
  return out;
}

}  // namespace gcbench::reports
