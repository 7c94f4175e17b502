#pragma once
// The stable, parseable name of one benchmark cell:
//   <codec>/<device>/<compress|decompress>/<corpus>/<file>/<axis>:<value>/...
// shared by the driver (registration, resume) and the report tools (reading results).
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gcbench::results {

struct CellId {
  std::string codec;
  std::string device;     // "cpu" | "gpu"
  std::string direction;  // "compress" | "decompress"
  std::string corpus;
  std::string file;
  std::vector<std::pair<std::string, std::string>> params;  // in the codec's axis order

  // The value of `axis`, or nullptr when the cell has no such axis.
  const std::string* param(std::string_view axis) const;
  bool operator==(const CellId&) const = default;
};

// A CellId holds names as they are (a file's path relative to its folder, "sub/a b.txt"); the
// cell name escapes each part (escape_name_part), and parse_cell_name undoes it, so that any
// file name survives the round trip through names, result files and the merge.
std::string format_cell_name(const CellId& id);

// '%', '/', ':', ',', control bytes and bytes that are not valid UTF-8 become %XX (upper-case
// hex); every other character, non-ASCII UTF-8 included, stays as it is.
std::string escape_name_part(std::string_view text);
std::string unescape_name_part(std::string_view text);

// A corpus name as one folder name inside a results or report folder: escape_name_part's
// escapes, and names that a path would read as no folder of their own ("", ".", "..") with
// their dots escaped too, so that no name from a result file, a flag or a file system leads
// outside the folder it is written into.
std::string folder_name(std::string_view corpus);

// A name as text any output can hold: valid UTF-8 without control characters, bytes that are
// not valid UTF-8 and control bytes (newlines, carriage returns, a terminal's escapes) written
// \xNN; every other character as it is.
std::string printable(std::string_view name);

// printable(), then what Markdown would read as markup escaped with a backslash: '\\', '|'
// (a table's cell separator), '<' and '>' (raw HTML), '[' and ']' (links) and '`' (code); a
// name of letters, digits, '.', '-', '_' and spaces stays as it is.
std::string markdown_text(std::string_view name);

// Whether `name` is a plain file name: not empty, not "." or "..", no '/' or NUL.
bool is_plain_file_name(std::string_view name);

// The result file of a cell's input inside its corpus folder: the escaped file name and
// ".json", cut to fit a file system's 255-byte limit with a digest of the whole name.
std::string result_file_name(std::string_view file);

// The axis part of a cell name alone, "<axis>:<value>/..." (the driver records each codec's
// defaults this way); parse_params gives nullopt for a malformed segment.
std::string format_params(const std::vector<std::pair<std::string, std::string>>& params);
std::optional<std::vector<std::pair<std::string, std::string>>> parse_params(std::string_view text);

// Accepts a Google Benchmark run name: the suffixes it appends (/real_time, /manual_time,
// /min_time:..., /repeats:..., ...) are dropped first. nullopt when it is not a gcbench cell.
std::optional<CellId> parse_cell_name(std::string_view run_name);

}  // namespace gcbench::results
