#pragma once
// Comparing two runs cell by cell (gcbench-report --compare BASE NEW): time and ratio change,
// the noise of both sides, a Mann-Whitney U test over repetitions corrected for the number of
// tests (a GPU cell's end-to-end times tested and judged alike), and per corpus, codec, device
// and direction the geometric mean of the time ratios with a sign test over its cells. Each
// cell and group gets a verdict in the spirit of nvbench_compare: SAME, FASTER, SLOWER or
// UNCLEAR, where SLOWER needs an effect beyond the threshold and both runs' noise, significant
// after correction. What a CI gate must also stop has verdicts of its own: MISSING (in BASE,
// not in NEW), FAILED (passed in BASE, failed in NEW), NOT COMPARABLE (measured on other input
// bytes), RATIO WORSE (a larger container: sizes are deterministic, so any growth counts) and
// MEMORY WORSE (a GPU cell's device memory grew: its buffers' sizes, deterministic; a CPU cell's
// heap peak, measured, grew beyond the threshold and kMemorySlackBytes). These and SLOWER fail a
// comparison; UNCLEAR too when asked (CompareOptions::fail_on_unclear).
#include <array>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "reports/results.hpp"

namespace gcbench::reports {

// Input that cannot be compared: the tool exits 2 with the message.
struct BadInput : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct CompareOptions {
  double threshold_pct = 5;  // a change within this is SAME
  double alpha = 0.05;       // after correction: Benjamini-Hochberg over cells, Holm over groups
  // A change must exceed this many times the larger of the two sides' noise (the interquartile
  // range of the repetitions as % of the median) to be FASTER or SLOWER.
  double noise_factor = 1;
  // Cells measured on other input bytes are compared anyway (noted) instead of failing as
  // NOT COMPARABLE.
  bool allow_different_inputs = false;
  bool fail_on_unclear = false;  // --fail-on unclear: a noisy runner cannot pass a regression
  std::string base_label = "BASE";
  std::string new_label = "NEW";
};

enum class Verdict {
  same,
  faster,
  slower,
  unclear,
  missing,
  failed,
  not_comparable,
  ratio_worse,
  memory_worse
};

// Every verdict, the gravest first: the order summaries count them in.
inline constexpr std::array<Verdict, 9> kVerdictsGravestFirst = {
    Verdict::missing,     Verdict::failed,       Verdict::not_comparable,
    Verdict::ratio_worse, Verdict::memory_worse, Verdict::slower,
    Verdict::faster,      Verdict::unclear,      Verdict::same};

// A CPU cell's heap peak may move this much (threads, the allocator) without counting as growth.
inline constexpr double kMemorySlackBytes = 1 << 20;

// Whether a verdict fails the comparison under `options`.
bool fails(Verdict v, const CompareOptions& options);

struct CellComparison {
  std::string name;
  results::CellId id;
  // Medians; absent when that side failed.
  std::optional<double> base_time_s, new_time_s, time_change_pct;
  // Interquartile range over repetitions as % of the median; absent below 2 repetitions.
  std::optional<double> base_iqr_pct, new_iqr_pct;
  std::size_t base_reps = 0, new_reps = 0;
  std::optional<double> p_value;     // absent with too few repetitions (see note)
  std::optional<double> p_adjusted;  // Benjamini-Hochberg over the cells with a p-value
  std::optional<double> base_ratio, new_ratio, ratio_change_pct;
  std::optional<double> compressed_change_pct;  // of compressed_bytes, where it changed
  std::optional<double> memory_growth_pct;  // of the cell's memory, where it grew (MEMORY WORSE)
  std::optional<double> kernel_change_pct, e2e_change_pct;  // GPU cells' counters
  // GPU cells with end-to-end times on both sides are judged on those too, as on their time (a
  // pipeline change moves the end-to-end time, not the kernel's): the larger side's IQR % of
  // the repetitions' times, the U test over them (corrected with the cells' tests), its
  // verdict; the cell's verdict is the graver of the two. Untested (e2e_untested says why),
  // a change beyond the threshold is UNCLEAR, as a time's is.
  std::optional<double> e2e_noise_pct, e2e_p_value, e2e_p_adjusted;
  std::optional<Verdict> e2e_verdict;
  std::string e2e_untested;
  // CPU cells: the share of wall time each side's timing thread was on a CPU (Measurement::
  // on_cpu); one side's far below the other's says its machine was busier.
  std::optional<double> base_on_cpu, new_on_cpu;
  Verdict verdict = Verdict::unclear;
  std::string note;
};

struct GroupComparison {
  std::string corpus, codec, device, direction;
  std::size_t cells = 0;
  double time_ratio = 1;               // geometric mean of NEW/BASE over the group's cells
  std::size_t slower = 0, faster = 0;  // cells whose median moved that way
  double p_value = 1;                  // sign test over those cells
  double p_adjusted = 1;               // Holm over the groups
  std::optional<double> noise_pct;     // median over the cells of the larger side's IQR %
  Verdict verdict = Verdict::unclear;
};

struct Comparison {
  std::vector<CellComparison> cells;  // by name
  std::vector<GroupComparison> groups;
  std::size_t only_base = 0, only_new = 0;
  std::string input_note;  // what differs, when different inputs were allowed
  // What the cells' on-CPU shares say of the machines, when one side's was busier ("" if not).
  std::string busy_note;
  std::size_t count(Verdict v) const;
  std::size_t count_groups(Verdict v) const;
  // Whether the comparison fails: some cell or group has a failing verdict (fails()).
  bool failed(const CompareOptions& options) const;
};

const char* verdict_name(Verdict v);

// Loads one side as load_results does; BadInput for a missing path, a file that is not
// Google Benchmark JSON, or results without a single gcbench cell.
ResultSet load_side(const std::filesystem::path& path, const std::string& label);

// BadInput for zero overlapping cells. A cell of BASE that NEW lacks is MISSING, one NEW failed
// FAILED; one whose input differs (its input_sha256, else its input_bytes) NOT COMPARABLE unless
// options.allow_different_inputs; one whose compressed size grew RATIO WORSE, one whose memory
// grew MEMORY WORSE; the rest are timed.
Comparison compare(const ResultSet& base, const ResultSet& now, const CompareOptions& options);

// A median time as the comparison shows it: three significant digits in s, ms or us.
std::string human_time(double s);

// What was compared and how the verdicts are reached, one paragraph.
std::string compare_method(const Comparison& c, const CompareOptions& options);
std::string to_markdown(const Comparison& c, const CompareOptions& options);
std::string cells_csv(const Comparison& c);
std::string groups_csv(const Comparison& c);

}  // namespace gcbench::reports
