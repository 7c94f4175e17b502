#pragma once
// TPC-H columns as corpus files: the schema, a streaming parser of dbgen's `.tbl` text and the
// generation of every column file with tpchgen-cli (see corpora/README.md, "TPC-H corpora").
#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gcbench::corpora {

// How a `.tbl` field becomes an unsigned integer.
enum class TpchParse {
  kInteger,   // decimal digits: 1552 -> 1552
  kHundreds,  // a decimal with up to two fraction digits, in hundredths: 12345.67 -> 1234567
  kDate,      // YYYY-MM-DD -> days since 1970-01-01: 1992-01-02 -> 8036
  kChar,      // a one-byte field -> that byte: "N" -> 78
  kPriority,  // the leading digit of "1-URGENT" .. "5-LOW" -> 1 .. 5
};

struct TpchColumn {
  std::string_view table;   // "lineitem", "orders"
  std::string_view column;  // "extendedprice"
  std::uint32_t width;      // bytes per little-endian value: 1, 2 or 4
  std::uint32_t field;      // 0-based field index in the table's `.tbl` rows
  TpchParse parse;
};

// Every column of every table, in the manifest's order (lineitem's, then orders').
std::span<const TpchColumn> tpch_columns();
// The tables tpch_columns() covers, in order.
std::span<const std::string_view> tpch_tables();
// "<table>.<column>.<width>", e.g. "lineitem.orderkey.4".
std::string tpch_file_name(const TpchColumn& column);
// The number of '|'-terminated fields in a row of `table`; throws std::invalid_argument for a
// table tpch_tables() does not list.
std::uint32_t tpch_field_count(std::string_view table);

// Parses `.tbl` rows of one table (each row "f0|f1|...|fN|\n") into its columns. Text may be
// fed in pieces split anywhere. Each column's values reach `sink` as little-endian bytes, in row
// order, in blocks. Any row with the wrong number of fields, an unparsable value or a value
// that does not fit its column's width throws std::runtime_error naming the table, column,
// row (1-based) and value.
class TblParser {
 public:
  // `column` indexes columns().
  using Sink = std::function<void(std::size_t column, std::span<const std::uint8_t> bytes)>;
  TblParser(std::string_view table, Sink sink);

  void feed(std::string_view text);
  // Hands over what is buffered; throws if the text ended within a row.
  void finish();

  const std::vector<TpchColumn>& columns() const { return columns_; }
  std::uint64_t rows() const { return rows_; }

 private:
  void parse_row(const char* begin, const char* end);
  void flush();

  std::string table_;
  std::uint32_t fields_;
  std::vector<TpchColumn> columns_;
  Sink sink_;
  std::vector<std::vector<std::uint8_t>> buffers_;
  std::string partial_;  // the start of a row split across feed() calls
  std::uint64_t rows_ = 0;
};

// Parses whole `.tbl` text of `table` in one go: one byte vector per column of the table, in
// the order of tpch_columns().
std::vector<std::vector<std::uint8_t>> parse_tbl(std::string_view table, std::string_view text);

// The generator program: $GCBENCH_TPCHGEN when set and non-empty, else "tpchgen-cli".
std::string tpchgen_program();

// Whether `text` is a scale factor as the generator's command line takes it: digits, with at
// most one '.' between digits ("0.01", "10"), nothing else.
bool is_plain_decimal(std::string_view text);
// The first line of `<program> --version` (e.g. "tpchgen-cli 4.0.0"), or "" when it cannot be
// run.
std::string tpchgen_version();

// Runs the generator at `scale_text` (e.g. "0.01", "1") for each of `tables` (empty: all of
// tpch_tables()) and writes their column files, named by tpch_file_name(), into `out_dir`
// (each written under a temporary name and renamed once its table is complete). Throws
// std::runtime_error when the generator is missing ("tpchgen-cli not found (...)"), fails,
// or prints rows the parser rejects.
void generate_tpch(const std::string& scale_text, const std::filesystem::path& out_dir,
                   const std::vector<std::string>& tables = {});

}  // namespace gcbench::corpora
