#include "reports/measured.hpp"
#include "src/results/cell_name.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <vector>

namespace gcbench::reports {
namespace {

// A column with values in at most one row in kSparseShare, of a table of kSparseMinRows rows or
// more, is named under the table instead of filling it with blanks.
constexpr std::size_t kSparseMinRows = 5;
constexpr std::size_t kSparseShare = 10;

// Distinct reasons in order of first appearance.
void add_reason(std::vector<std::string>& reasons, const std::string& reason) {
  if (std::find(reasons.begin(), reasons.end(), reason) == reasons.end()) reasons.push_back(reason);
}

// Names grouped by their reasons: "a, b (no device); c (file not available)".
std::string grouped(const std::vector<std::pair<std::string, std::string>>& name_reason) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<std::string>> names;
  for (const auto& [name, reason] : name_reason) {
    if (names[reason].empty()) order.push_back(reason);
    names[reason].push_back(results::markdown_text(name));  // a file's name, in prose
  }
  std::vector<std::string> parts;
  for (const std::string& reason : order) {
    parts.push_back(fmt::format("{} ({})", fmt::join(names[reason], ", "), reason));
  }
  return fmt::format("{}", fmt::join(parts, "; "));
}

bool has_value(const Row& r, const std::vector<std::size_t>& columns) {
  return std::any_of(columns.begin(), columns.end(),
                     [&](std::size_t c) { return r.values[c].value.has_value(); });
}

}  // namespace

MeasuredPart measured_part(const Table& t) {
  std::vector<std::size_t> all(t.columns.size());
  for (std::size_t c = 0; c < all.size(); ++c) all[c] = c;
  MeasuredPart out{false, t, ""};
  out.table.rows.clear();
  std::vector<std::pair<std::string, std::string>> left_out;
  std::vector<std::string> table_reasons;
  for (const Row& r : t.rows) {
    if (has_value(r, all)) {
      out.table.rows.push_back(r);
      continue;
    }
    std::vector<std::string> reasons;
    for (const Value& v : r.values) add_reason(reasons, v.reason);
    for (const std::string& reason : reasons) add_reason(table_reasons, reason);
    left_out.emplace_back(r.label, fmt::format("{}", fmt::join(reasons, ", ")));
  }
  if (out.table.rows.empty()) {
    out.note = fmt::format("{}", fmt::join(table_reasons, ", "));
    return out;
  }
  out.any = true;

  std::vector<std::size_t> kept;
  // Columns with a value in a few rows only: row labels -> the columns, their blanks' reasons.
  std::map<std::string, std::vector<std::string>> sparse_columns;
  std::map<std::string, std::vector<std::string>> sparse_reasons;
  std::vector<std::string> sparse_order;
  std::vector<std::size_t> sparse;
  const std::size_t rows = out.table.rows.size();
  for (std::size_t c = 0; c < t.columns.size(); ++c) {
    std::vector<std::string> reasons, with_value;
    for (const Row& r : out.table.rows) {
      if (r.values[c].value) {
        with_value.push_back(r.label);
      } else {
        add_reason(reasons, r.values[c].reason);
      }
    }
    if (with_value.empty()) {
      left_out.emplace_back(t.columns[c].header, fmt::format("{}", fmt::join(reasons, ", ")));
    } else if (rows >= kSparseMinRows && with_value.size() * kSparseShare <= rows) {
      const std::string where = fmt::format("{}", fmt::join(with_value, ", "));
      if (sparse_columns[where].empty()) sparse_order.push_back(where);
      sparse_columns[where].push_back(t.columns[c].header);
      for (const std::string& reason : reasons) add_reason(sparse_reasons[where], reason);
      sparse.push_back(c);
    } else {
      kept.push_back(c);
    }
  }
  if (kept.empty()) {  // every column is sparse: a table of them beats an empty one
    kept = sparse;
    sparse_order.clear();
  }
  auto select = [&](Row& r) {
    std::vector<Value> values;
    for (std::size_t c : kept) values.push_back(r.values[c]);
    r.values = std::move(values);
  };
  out.table.columns.clear();
  for (std::size_t c : kept) out.table.columns.push_back(t.columns[c]);
  for (Row& r : out.table.rows) select(r);
  if (out.table.total) select(*out.table.total);
  std::vector<std::string> notes;
  if (!left_out.empty()) notes.push_back("Not shown, no value: " + grouped(left_out) + ".");
  for (const std::string& where : sparse_order) {
    notes.push_back(fmt::format("Not shown, a value for {} only (the others: {}), in the CSV: {}.",
                                where, fmt::join(sparse_reasons[where], ", "),
                                fmt::join(sparse_columns[where], ", ")));
  }
  out.note = fmt::format("{}", fmt::join(notes, " "));
  return out;
}

}  // namespace gcbench::reports
