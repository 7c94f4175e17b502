#pragma once
// Comparing two runs cell by cell (gcbench-report --compare BASE NEW): time and ratio change,
// the spread of both sides, a Mann-Whitney U test over repetitions, and per corpus, codec,
// device and direction the geometric mean of the time ratios.
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
  double threshold_pct = 5;  // a significant slowdown beyond this is a regression
  double alpha = 0.05;
  bool allow_different_inputs = false;
  std::string base_label = "BASE";
  std::string new_label = "NEW";
};

enum class Verdict { none, regression, improvement };

struct CellComparison {
  std::string name;
  results::CellId id;
  // Medians; absent when that side failed.
  std::optional<double> base_time_s, new_time_s, time_change_pct;
  // Interquartile range over repetitions as % of the median; absent below 2 repetitions.
  std::optional<double> base_iqr_pct, new_iqr_pct;
  std::size_t base_reps = 0, new_reps = 0;
  std::optional<double> p_value;  // absent with too few repetitions (see note)
  std::optional<double> base_ratio, new_ratio, ratio_change_pct;
  std::optional<double> kernel_change_pct, e2e_change_pct;  // GPU cells' counters
  Verdict verdict = Verdict::none;
  std::string note;
};

struct GroupComparison {
  std::string corpus, codec, device, direction;
  std::size_t cells = 0;
  double time_ratio = 1;  // geometric mean of NEW/BASE over the group's cells
};

struct Comparison {
  std::vector<CellComparison> cells;  // by name
  std::vector<GroupComparison> groups;
  std::size_t only_base = 0, only_new = 0;
  std::string input_note;  // what differs, when different inputs were allowed
  std::size_t count(Verdict v) const;
};

// Loads one side as load_results does; BadInput for a missing path, a file that is not
// Google Benchmark JSON, or results without a single gcbench cell.
ResultSet load_side(const std::filesystem::path& path, const std::string& label);

// BadInput for zero overlapping cells, and for different inputs (a cell's input_bytes, the
// corpus manifest digest) unless options.allow_different_inputs.
Comparison compare(const ResultSet& base, const ResultSet& now, const CompareOptions& options);

std::string to_markdown(const Comparison& c, const CompareOptions& options);
std::string cells_csv(const Comparison& c);
std::string groups_csv(const Comparison& c);

}  // namespace gcbench::reports
