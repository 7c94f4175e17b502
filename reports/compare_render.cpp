// The comparison as Markdown (stdout, compare.md) and CSV (compare.csv, compare_groups.csv).
#include <fmt/format.h>

#include <algorithm>

#include "reports/compare.hpp"
#include "reports/render.hpp"
#include "src/results/cell_name.hpp"

namespace gcbench::reports {
namespace {

std::string md(std::optional<double> v, const char* spec) {
  return v ? fmt::format(fmt::runtime(spec), *v) : "";
}

std::string csv(std::optional<double> v) {
  return v ? fmt::format("{:.6g}", *v) : "";
}

}  // namespace

std::string human_time(double s) {
  const auto [value, unit] = s >= 1      ? std::pair{s, "s"}
                             : s >= 1e-3 ? std::pair{s * 1e3, "ms"}
                                         : std::pair{s * 1e6, "us"};
  const int decimals = value < 10 ? 2 : value < 100 ? 1 : 0;
  return fmt::format("{:.{}f} {}", value, decimals, unit);
}

std::string compare_method(const Comparison& c, const CompareOptions& o) {
  return fmt::format(
      "Comparing {} with {}: {} cells in both, {} only in {}, {} only in {}.\n\n"
      "Times are medians over repetitions (GPU cells: kernel time); IQR is the interquartile "
      "range as % of the median, a side's noise; p is the two-sided Mann-Whitney U test over "
      "repetitions, p adj. the same corrected for the {} tests made (Benjamini-Hochberg). "
      "Verdicts: SAME within {}%; SLOWER or FASTER beyond it, beyond {} x the larger IQR and "
      "with p adj. < {}; UNCLEAR otherwise (the result says why). A GPU cell whose repetitions "
      "record end-to-end times is judged on them alike, and takes the graver verdict (its note "
      "says the end-to-end one). Groups: the geometric mean of "
      "their cells' time ratios, a sign test over those cells (corrected for the {} groups, "
      "Holm) and the median of their cells' noise, judged alike. Before any time: MISSING, a "
      "cell (or every cell of a group) of {} that {} lacks or failed in; FAILED, a cell that "
      "passed in {} and failed in {}; NOT COMPARABLE, a cell measured on other input bytes "
      "(its input's SHA-256, else its size); RATIO WORSE, a cell whose container grew (sizes "
      "are deterministic: any growth); MEMORY WORSE, a cell whose memory grew (a GPU cell's "
      "device buffers, deterministic: any growth; a CPU cell's measured heap peak: beyond {}% "
      "and 1 MiB). These and SLOWER fail{}.",
      o.base_label, o.new_label, c.cells.size(), c.only_base, o.base_label, c.only_new, o.new_label,
      std::count_if(c.cells.begin(), c.cells.end(), [](const auto& x) { return x.p_value; }) +
          std::count_if(c.cells.begin(), c.cells.end(),
                        [](const auto& x) { return x.e2e_p_value; }),
      o.threshold_pct, o.noise_factor, o.alpha, c.groups.size(), o.base_label, o.new_label,
      o.base_label, o.new_label, o.threshold_pct,
      o.fail_on_unclear ? ", and so does UNCLEAR (--fail-on unclear)" : "");
}

std::string to_markdown(const Comparison& c, const CompareOptions& o) {
  const bool gpu = std::any_of(c.cells.begin(), c.cells.end(), [](const auto& x) {
    return x.kernel_change_pct || x.e2e_change_pct;
  });
  std::string out = compare_method(c, o) + "\n\n";
  if (!c.input_note.empty()) {
    out += "**Different inputs**" +
           std::string(o.allow_different_inputs
                           ? " (allowed): "
                           : " (NOT COMPARABLE; --allow-different-inputs compares them): ") +
           c.input_note + ".\n\n";
  }
  if (!c.busy_note.empty()) out += "**A busier machine**: " + c.busy_note + "\n\n";
  out += fmt::format("| cell | {} | {} | time | IQR {} | IQR {} | reps | p | p adj. | ratio |",
                     o.base_label, o.new_label, o.base_label, o.new_label);
  out += gpu ? " kernel_s | e2e_s | result |\n" : " result |\n";
  out += "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|";
  out += gpu ? "---:|---:|---|\n" : "---|\n";
  const auto shown = [&](Verdict v) {
    return fails(v, o) ? fmt::format("**{}**", verdict_name(v)) : std::string(verdict_name(v));
  };
  for (const CellComparison& x : c.cells) {
    std::string result = shown(x.verdict);
    if (!x.note.empty()) result += ": " + results::markdown_text(x.note);
    out += fmt::format(
        "| {} | {} | {} | {} | {} | {} | {}/{} | {} | {} | {} |", results::markdown_text(x.name),
        x.base_time_s ? human_time(*x.base_time_s) : "",
        x.new_time_s ? human_time(*x.new_time_s) : "", md(x.time_change_pct, "{:+.1f}%"),
        md(x.base_iqr_pct, "{:.1f}%"), md(x.new_iqr_pct, "{:.1f}%"), x.base_reps, x.new_reps,
        md(x.p_value, "{:.3g}"), md(x.p_adjusted, "{:.3g}"), md(x.ratio_change_pct, "{:+.2f}%"));
    if (gpu) {
      out += fmt::format(" {} | {} |", md(x.kernel_change_pct, "{:+.1f}%"),
                         md(x.e2e_change_pct, "{:+.1f}%"));
    }
    out += fmt::format(" {} |\n", result);
  }
  out += fmt::format("\nGeometric mean of the time ratios {}/{}:\n\n", o.new_label, o.base_label);
  out +=
      "| corpus | codec | device | direction | cells | time ratio | change | slower/faster | "
      "p adj. | noise | verdict |\n"
      "|---|---|---|---|---:|---:|---:|---:|---:|---:|---|\n";
  for (const GroupComparison& g : c.groups) {
    out +=
        fmt::format("| {} | {} | {} | {} | {} | {:.3f} | {:+.1f}% | {}/{} | {:.3g} | {} | {} |\n",
                    results::markdown_text(g.corpus), results::markdown_text(g.codec), g.device,
                    g.direction, g.cells, g.time_ratio, (g.time_ratio - 1) * 100, g.slower,
                    g.faster, g.p_adjusted, md(g.noise_pct, "{:.1f}%"), shown(g.verdict));
  }
  auto tally = [&](auto count) {
    std::string text;
    for (Verdict v : kVerdictsGravestFirst) {
      const std::size_t n = count(v);
      // The four verdicts of every comparison always; the others when they occur.
      if (n == 0 && v != Verdict::slower && v != Verdict::faster && v != Verdict::unclear &&
          v != Verdict::same) {
        continue;
      }
      text += fmt::format("{}{} {}", text.empty() ? "" : ", ", n, verdict_name(v));
    }
    return text;
  };
  out += fmt::format("\nCells: {}. Groups: {}.\n", tally([&](Verdict v) { return c.count(v); }),
                     tally([&](Verdict v) { return c.count_groups(v); }));
  out += c.failed(o) ? "Result: FAIL (a failing verdict above).\n" : "Result: PASS.\n";
  return out;
}

std::string cells_csv(const Comparison& c) {
  std::string out =
      "cell,base_time_s,new_time_s,time_change_pct,base_iqr_pct,new_iqr_pct,base_reps,new_reps,"
      "p_value,p_adjusted,base_ratio,new_ratio,ratio_change_pct,kernel_change_pct,e2e_change_pct,"
      "e2e_noise_pct,e2e_p_value,e2e_p_adjusted,e2e_verdict,verdict,note\n";
  for (const CellComparison& x : c.cells) {
    out += fmt::format(
        "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", csv_field(x.name),
        csv(x.base_time_s), csv(x.new_time_s), csv(x.time_change_pct), csv(x.base_iqr_pct),
        csv(x.new_iqr_pct), x.base_reps, x.new_reps, csv(x.p_value), csv(x.p_adjusted),
        csv(x.base_ratio), csv(x.new_ratio), csv(x.ratio_change_pct), csv(x.kernel_change_pct),
        csv(x.e2e_change_pct), csv(x.e2e_noise_pct), csv(x.e2e_p_value), csv(x.e2e_p_adjusted),
        x.e2e_verdict ? verdict_name(*x.e2e_verdict) : "", verdict_name(x.verdict),
        csv_field(x.note));
  }
  return out;
}

std::string groups_csv(const Comparison& c) {
  std::string out =
      "corpus,codec,device,direction,cells,time_ratio,time_change_pct,slower,faster,p_value,"
      "p_adjusted,noise_pct,verdict\n";
  for (const GroupComparison& g : c.groups) {
    out += fmt::format("{},{},{},{},{},{:.6g},{:.6g},{},{},{:.6g},{:.6g},{},{}\n",
                       csv_field(g.corpus), g.codec, g.device, g.direction, g.cells, g.time_ratio,
                       (g.time_ratio - 1) * 100, g.slower, g.faster, g.p_value, g.p_adjusted,
                       csv(g.noise_pct), verdict_name(g.verdict));
  }
  return out;
}

}  // namespace gcbench::reports
