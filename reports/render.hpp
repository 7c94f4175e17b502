#pragma once
// Tables as Markdown, CSV and LaTeX. Markdown and LaTeX are for people: each time or throughput
// column in its own display unit (ms or s, MB/s or GB/s, named in the header), three
// significant digits, a measured time's spread as "±CV%", a blank as "n/a (reason)". CSV is
// for programs: numbers only, in the stored units its column names say (_s, _gbps, _bytes),
// an empty field for a blank and the blanks' reasons in a last column, "reason".
#include <string>
#include <vector>

#include "reports/tables.hpp"
#include "reports/units.hpp"

namespace gcbench::reports {

// Quoted when it holds a comma, a quote or a newline.
std::string csv_field(const std::string& s);
// Each column's display unit, chosen from its rows' values.
std::vector<DisplayUnit> column_units(const Table& t);
// A value for people, in `shown` units: "12.3", "12.3 ±2.1%", "n/a (no device)".
std::string display_value(const Value& v, Unit unit, const DisplayUnit& shown);
// A value for programs, in stored units: "0.01234", "" for a blank.
std::string csv_number(const Value& v, Unit unit);
// A column's header with its display unit: "gzip time [ms]".
std::string display_header(const Table& t, std::size_t column);
std::string to_markdown(const Table& t);
// Header: the label header, the text headers, each column's csv name, then "reason".
std::string to_csv(const Table& t);
std::string to_latex(const Table& t);

}  // namespace gcbench::reports
