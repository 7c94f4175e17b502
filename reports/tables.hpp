#pragma once
// Tables built from a ResultSet: rows are the files of one corpus, columns are queries for one
// cell each (the studies, studies/, declare which). A missing cell is a blank with its reason
// ("no device", "file not available", the cell's error, "not measured"), never a zero.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "reports/results.hpp"

namespace gcbench::reports {

enum class Unit { seconds, bytes, ratio, gb_per_s, percent };

// The blank of a ratio over an empty input (no ratio to give); a total leaves it out, and its
// label names the file.
inline constexpr const char* kEmptyInput = "empty input";

// What a column reads from a measurement.
enum class Quantity {
  time,              // the cell's median time (GPU: kernel time; CPU: wall time)
  kernel,            // kernel_s counter
  transfer,          // transfer_s counter
  e2e,               // e2e_s counter (wall time of the whole call)
  size,              // input_bytes
  compressed_bytes,  // the container (gzip member for zlib)
  entropy_bytes,     // LZ77 after the entropy stage (the thesis's ratio basis)
  ratio,             // input_bytes / compressed_bytes
  entropy_ratio,     // input_bytes / entropy_bytes
  memory_host,       // memory_host_bytes: the heap the cell's timed calls held (heap_meter.hpp)
  memory_device,     // memory_device_bytes: the device call's operands and the codec's own
};

struct Query {
  std::string codec;
  std::string device;
  std::string direction = "compress";
  std::map<std::string, std::string> fixed;  // other axes take the codec's defaults
  Quantity quantity = Quantity::time;
  // Only a cell measured on this GPU model (set by TableBuilder::make's split by model).
  std::optional<std::string> gpu_model = std::nullopt;
};

struct Value {
  std::optional<double> value;
  std::string reason;  // why there is no value
  double num = 0;      // ratios: numerator and denominator, for the total row
  double den = 0;
  // How sure a measured time is (Measurement::uncertainty: over repetitions, else over its
  // samples); none for counters and totals. Marked when over the cell's target or throttled.
  std::optional<double> spread = std::nullopt;
  bool over_target = false;
  bool throttled = false;
  bool busy = false;  // a CPU cell measured while the machine was busy

  static Value of(double v) { return Value{v, {}, 0, 0}; }
  static Value blank(std::string why) { return Value{std::nullopt, std::move(why), 0, 0}; }
};

struct Column {
  std::string header;  // Markdown and LaTeX, without the unit (chosen when rendered)
  std::string csv;     // CSV column name, its unit in the name (_s, _gbps, _bytes)
  Unit unit = Unit::seconds;
  Query query;
};

struct Row {
  std::string label;
  std::vector<Value> values;
  std::vector<std::string> texts = {};  // one per Table::text_headers, between label and values
};

struct Table {
  std::string id;  // file stem, e.g. "lz77_t7"
  std::string title;
  std::string caption;
  std::vector<Column> columns;
  std::vector<Row> rows;
  std::optional<Row> total;
  std::string label_header = "file";           // what the rows are
  std::vector<std::string> text_headers = {};  // more label-like columns (e.g. "direction")
};

// "<codec>/<device>" -> axis -> default value as formatted in cell names (a codec's CPU and
// GPU implementations may have different speed-only axes and defaults).
using Defaults = std::map<std::string, std::map<std::string, std::string>>;

class TableBuilder {
 public:
  TableBuilder(const ResultSet& set, Defaults defaults, std::string corpus,
               std::vector<std::string> files);

  // The measurement a query names for `file`, or the reason there is none.
  Value value(const std::string& file, const Query& query) const;

  // Rows for every file; a total row when `with_total`. Where the corpus's GPU cells were
  // measured on several GPU models (gpu_models), each GPU column becomes one per model (header
  // "<header> (<model>)", CSV name "<model>_<csv>" in lower case), so that no value or total
  // mixes models; a file measured on another model is a blank that names it.
  Table make(std::string id, std::string title, std::string caption, std::vector<Column> columns,
             bool with_total = true) const;

  // The values of `axis` seen in cells of `codec` (any device) that have the `where` values,
  // numerically sorted.
  std::vector<std::string> axis_values(const std::string& codec, const std::string& axis,
                                       const std::string& direction = "compress",
                                       const std::map<std::string, std::string>& where = {}) const;

  bool has_codec(const std::string& codec) const;
  // The default of `axis` for "<codec>/<device>", or "" when none is known.
  std::string default_value(const std::string& codec_device, const std::string& axis) const;
  const std::string& corpus() const { return corpus_; }
  const ResultSet& results() const { return set_; }

 private:
  const Measurement* find(const std::string& file, const Query& query, bool errors) const;
  // A query at some work items of a file no longer than one launch block at the default (or
  // that) work-item count: the same single block either way, so a preset sweeps it only at the
  // default.
  bool one_launch_block(const std::string& file, const Query& query) const;
  Row total_row(const std::vector<Column>& columns, const std::vector<Row>& rows) const;
  std::vector<Column> split_by_model(std::vector<Column> columns) const;

  const ResultSet& set_;
  Defaults defaults_;
  std::string corpus_;
  std::vector<std::string> files_;
  std::vector<std::string> models_;  // the GPU models of the corpus's cells, when several
};

// A column and the query that fills it, in one call: the study tables' shorthands.
Column col(std::string header, std::string csv, Unit unit, Query query);
Query q(std::string codec, std::string device, std::string direction,
        std::map<std::string, std::string> fixed, Quantity quantity);

}  // namespace gcbench::reports
