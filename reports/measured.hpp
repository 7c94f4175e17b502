#pragma once
// What a person needs to see of a table: the rows and columns that hold at least one value.
// A row or column with none (a file not available, GPU columns of a run without a device) is
// left out and named, with its reasons, in one note line instead of filling the table with
// "n/a"; so is a column with a value in nearly no row (a design measured on the first file
// only), with the rows that have one. CSV files keep the whole table, for programs that read a
// fixed layout.
#include <string>

#include "reports/tables.hpp"

namespace gcbench::reports {

struct MeasuredPart {
  bool any = false;  // some cell has a value; if not, `note` says why none has
  Table table;       // without the rows and columns that have no value
  // "Not shown, no value: mozilla, samba (file not available); ...", then "Not shown, a value
  // for bib only (the others: not measured), in the CSV: <columns>."; or ""
  std::string note;
};

MeasuredPart measured_part(const Table& t);

}  // namespace gcbench::reports
