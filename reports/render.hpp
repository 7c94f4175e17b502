#pragma once
// Tables as Markdown, CSV and LaTeX. A blank is written "n/a (<reason>)" in all three.
#include <string>

#include "reports/tables.hpp"

namespace gcbench::reports {

// Quoted when it holds a comma, a quote or a newline.
std::string csv_field(const std::string& s);
std::string format_value(const Value& v, Unit unit);
std::string to_markdown(const Table& t);
// Header: "file" then each column's csv name; the total row's first field is its label.
std::string to_csv(const Table& t);
std::string to_latex(const Table& t);

}  // namespace gcbench::reports
