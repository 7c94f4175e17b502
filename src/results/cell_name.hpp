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

// Characters that would break the name ('/' and ':' in a file name) become '_'.
std::string format_cell_name(const CellId& id);

// The axis part of a cell name alone, "<axis>:<value>/..." (the driver records each codec's
// defaults this way); parse_params gives nullopt for a malformed segment.
std::string format_params(const std::vector<std::pair<std::string, std::string>>& params);
std::optional<std::vector<std::pair<std::string, std::string>>> parse_params(std::string_view text);

// Accepts a Google Benchmark run name: the suffixes it appends (/real_time, /manual_time,
// /min_time:..., /repeats:..., ...) are dropped first. nullopt when it is not a gcbench cell.
std::optional<CellId> parse_cell_name(std::string_view run_name);

}  // namespace gcbench::results
