#include "corpora/tpch.hpp"

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <stdexcept>

#include "corpora/file_ops.hpp"

namespace gcbench::corpora {
namespace fs = std::filesystem;
namespace {

constexpr std::string_view kPinnedVersion = "4.0.0";  // the manifest's digests are this one's

constexpr std::array<std::string_view, 2> kTables = {"lineitem", "orders"};

// Field indices follow the TPC-H specification's column order (dbgen's `.tbl` layout).
constexpr std::array<TpchColumn, 20> kColumns = {{
    {"lineitem", "orderkey", 4, 0, TpchParse::kInteger},
    {"lineitem", "partkey", 4, 1, TpchParse::kInteger},
    {"lineitem", "suppkey", 4, 2, TpchParse::kInteger},
    {"lineitem", "linenumber", 1, 3, TpchParse::kInteger},
    {"lineitem", "quantity", 1, 4, TpchParse::kInteger},
    {"lineitem", "extendedprice", 4, 5, TpchParse::kHundreds},
    {"lineitem", "discount", 1, 6, TpchParse::kHundreds},
    {"lineitem", "tax", 1, 7, TpchParse::kHundreds},
    {"lineitem", "returnflag", 1, 8, TpchParse::kChar},
    {"lineitem", "linestatus", 1, 9, TpchParse::kChar},
    {"lineitem", "shipdate", 2, 10, TpchParse::kDate},
    {"lineitem", "commitdate", 2, 11, TpchParse::kDate},
    {"lineitem", "receiptdate", 2, 12, TpchParse::kDate},
    {"orders", "orderkey", 4, 0, TpchParse::kInteger},
    {"orders", "custkey", 4, 1, TpchParse::kInteger},
    {"orders", "orderstatus", 1, 2, TpchParse::kChar},
    {"orders", "totalprice", 4, 3, TpchParse::kHundreds},
    {"orders", "orderdate", 2, 4, TpchParse::kDate},
    {"orders", "orderpriority", 1, 5, TpchParse::kPriority},
    {"orders", "shippriority", 4, 7, TpchParse::kInteger},
}};

constexpr std::uint32_t kMaxFields = 16;  // lineitem's

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// Days from 1970-01-01 to the proleptic Gregorian date (H. Hinnant's days_from_civil).
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2 ? 1 : 0;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

unsigned days_in_month(unsigned y, unsigned m) {
  static constexpr unsigned kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return m == 2 && leap ? 29 : kDays[m - 1];
}

// Digits only, at most 18 of them (so no overflow); false otherwise.
bool parse_digits(std::string_view s, std::uint64_t& out) {
  if (s.empty() || s.size() > 18) return false;
  std::uint64_t v = 0;
  for (char c : s) {
    if (!is_digit(c)) return false;
    v = v * 10 + static_cast<std::uint64_t>(c - '0');
  }
  out = v;
  return true;
}

// nullptr on success, else what is wrong with the value.
const char* parse_value(TpchParse kind, std::string_view s, std::uint64_t& out) {
  switch (kind) {
    case TpchParse::kInteger:
      return parse_digits(s, out) ? nullptr : "is not an unsigned integer";
    case TpchParse::kHundreds: {
      const std::size_t dot = s.find('.');
      std::uint64_t whole = 0, frac = 0;
      const std::string_view frac_text = dot == s.npos ? std::string_view() : s.substr(dot + 1);
      if (!parse_digits(s.substr(0, dot), whole) || whole > 999'999'999'999'999ull ||
          (dot != s.npos && (frac_text.size() > 2 || !parse_digits(frac_text, frac)))) {
        return "is not an unsigned decimal with at most two fraction digits";
      }
      out = whole * 100 + (frac_text.size() == 1 ? frac * 10 : frac);
      return nullptr;
    }
    case TpchParse::kDate: {
      std::uint64_t y = 0, m = 0, d = 0;
      if (s.size() != 10 || s[4] != '-' || s[7] != '-' || !parse_digits(s.substr(0, 4), y) ||
          !parse_digits(s.substr(5, 2), m) || !parse_digits(s.substr(8, 2), d) || m < 1 || m > 12 ||
          d < 1 || d > days_in_month(static_cast<unsigned>(y), static_cast<unsigned>(m))) {
        return "is not a date YYYY-MM-DD";
      }
      const std::int64_t days = days_from_civil(static_cast<std::int64_t>(y),
                                                static_cast<unsigned>(m), static_cast<unsigned>(d));
      if (days < 0) return "is before 1970-01-01";
      out = static_cast<std::uint64_t>(days);
      return nullptr;
    }
    case TpchParse::kChar:
      if (s.size() != 1) return "is not a single character";
      out = static_cast<unsigned char>(s[0]);
      return nullptr;
    case TpchParse::kPriority:
      if (s.size() < 2 || !is_digit(s[0]) || s[1] != '-') {
        return "is not a priority like \"1-URGENT\"";
      }
      out = static_cast<std::uint64_t>(s[0] - '0');
      return nullptr;
  }
  return "has an unknown column kind";
}

std::string excerpt(std::string_view s) {
  std::string out = "'";  // built by appending: GCC 12 misreports "'" + string (-Wrestrict)
  out += s.substr(0, 40);
  out += s.size() > 40 ? "...'" : "'";
  return out;
}

// Out of line: the row loop stays small, and GCC 12 does not misreport the string building
// (-Wrestrict) when it is not inlined there.
[[noreturn]] [[gnu::noinline]] void value_error(const std::string& table, std::uint64_t row,
                                                const TpchColumn& c, std::string_view text,
                                                const std::string& problem) {
  throw std::runtime_error("tpch " + table + " row " + std::to_string(row) + ", column " +
                           std::string(c.column) + ": value " + excerpt(text) + " " + problem);
}

[[noreturn]] [[gnu::noinline]] void range_error(const std::string& table, std::uint64_t row,
                                                const TpchColumn& c, std::string_view text,
                                                std::uint64_t value) {
  std::string problem = "(";
  problem += std::to_string(value);
  problem += ") does not fit " + std::to_string(c.width) + (c.width == 1 ? " byte" : " bytes");
  value_error(table, row, c, text, problem);
}

std::string not_found_message(const std::string& program) {
  const char* env = std::getenv("GCBENCH_TPCHGEN");
  const std::string which = (env != nullptr && *env != '\0')
                                ? program + " (named by GCBENCH_TPCHGEN)"
                                : std::string("tpchgen-cli");
  return which + " not found (pip install tpchgen-cli==" + std::string(kPinnedVersion) +
         "; scripts/install-deps.sh installs it)";
}

// Throws unless the program started and exited with status 0.
void check_run(const ProgramResult& r, const std::string& program, const std::string& what) {
  if (r.spawn_error == ENOENT) throw std::runtime_error(not_found_message(program));
  if (r.spawn_error != 0) throw std::runtime_error("cannot start " + r.diagnostics);
  if (r.exit_code != 0) {
    std::string message =
        program + " failed " + what + " (" +
        (r.exit_code < 0 ? std::string("killed") : "exit code " + std::to_string(r.exit_code)) +
        ")";
    if (!r.diagnostics.empty()) message += ": " + r.diagnostics;
    throw std::runtime_error(message);
  }
}

void generate_table(const std::string& program, const std::string& scale, const std::string& table,
                    const fs::path& out_dir) {
  std::vector<std::unique_ptr<TempFile>> temps;
  std::vector<std::ofstream> outs;
  TblParser parser(table, [&](std::size_t column, std::span<const std::uint8_t> bytes) {
    outs[column].write(reinterpret_cast<const char*>(bytes.data()),
                       static_cast<std::streamsize>(bytes.size()));
    if (!outs[column]) {
      throw std::runtime_error("write error on " + temps[column]->path().string());
    }
  });
  for (const auto& c : parser.columns()) {
    temps.push_back(std::make_unique<TempFile>(out_dir / tpch_file_name(c)));
    outs.emplace_back(temps.back()->path(), std::ios::binary | std::ios::trunc);
    if (!outs.back()) throw std::runtime_error("cannot create " + temps.back()->path().string());
  }
  const ProgramResult r =
      run_program_streaming({program, "tbl", "-s", scale, "-T", table, "--stdout"},
                            [&](std::string_view text) { parser.feed(text); });
  check_run(r, program, "on table " + table + " at scale factor " + scale);
  parser.finish();
  if (parser.rows() == 0) {
    throw std::runtime_error(program + " printed no " + table + " rows at scale factor " + scale);
  }
  for (std::size_t i = 0; i < outs.size(); ++i) {
    outs[i].close();
    if (!outs[i]) throw std::runtime_error("write error on " + temps[i]->path().string());
  }
  for (auto& t : temps) t->commit();
}

}  // namespace

std::span<const TpchColumn> tpch_columns() {
  return kColumns;
}

std::span<const std::string_view> tpch_tables() {
  return kTables;
}

std::string tpch_file_name(const TpchColumn& column) {
  return std::string(column.table) + "." + std::string(column.column) + "." +
         std::to_string(column.width);
}

std::uint32_t tpch_field_count(std::string_view table) {
  if (table == "lineitem") return 16;
  if (table == "orders") return 9;
  throw std::invalid_argument("unknown TPC-H table '" + std::string(table) +
                              "' (known: lineitem, orders)");
}

TblParser::TblParser(std::string_view table, Sink sink)
    : table_(table), fields_(tpch_field_count(table)), sink_(std::move(sink)) {
  for (const auto& c : kColumns) {
    if (c.table != table) continue;
    columns_.push_back(c);
  }
  buffers_.resize(columns_.size());
}

void TblParser::feed(std::string_view text) {
  const char* p = text.data();
  const char* const end = p + text.size();
  if (!partial_.empty()) {  // complete the row split by the previous call
    const char* nl = static_cast<const char*>(std::memchr(p, '\n', text.size()));
    if (nl == nullptr) {
      partial_.append(p, text.size());
      return;
    }
    partial_.append(p, static_cast<std::size_t>(nl - p));
    parse_row(partial_.data(), partial_.data() + partial_.size());
    partial_.clear();
    p = nl + 1;
  }
  while (p < end) {
    const char* nl =
        static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
    if (nl == nullptr) {
      partial_.assign(p, static_cast<std::size_t>(end - p));
      break;
    }
    parse_row(p, nl);
    p = nl + 1;
  }
  flush();
}

void TblParser::finish() {
  if (!partial_.empty()) {
    throw std::runtime_error("tpch " + table_ + " row " + std::to_string(rows_ + 1) +
                             ": the text ends within the row (no newline): " + excerpt(partial_));
  }
  flush();
}

void TblParser::flush() {
  for (std::size_t i = 0; i < buffers_.size(); ++i) {
    if (buffers_[i].empty()) continue;
    sink_(i, buffers_[i]);
    buffers_[i].clear();
  }
}

void TblParser::parse_row(const char* begin, const char* end) {
  ++rows_;
  if (end > begin && end[-1] == '\r') --end;
  // Every field ends with '|', the last one too; text after the last '|' is a field too many.
  std::array<std::string_view, kMaxFields> fields;
  std::uint32_t count = 0;
  const char* p = begin;
  while (p < end) {
    const char* bar =
        static_cast<const char*>(std::memchr(p, '|', static_cast<std::size_t>(end - p)));
    if (bar == nullptr || count == fields_) {
      count = fields_ + 1;  // a field too many, or one without its '|'
      break;
    }
    fields[count++] = std::string_view(p, static_cast<std::size_t>(bar - p));
    p = bar + 1;
  }
  if (count != fields_) {
    std::string missing;
    for (const auto& c : columns_) {
      if (c.field >= count) {
        missing = " (no " + std::string(c.column) + ")";
        break;
      }
    }
    throw std::runtime_error(
        "tpch " + table_ + " row " + std::to_string(rows_) + ": " +
        (count > fields_ ? "more than " + std::to_string(fields_) + " '|'-terminated fields"
                         : std::to_string(count) + " fields") +
        ", expected " + std::to_string(fields_) + missing + ": " +
        excerpt(std::string_view(begin, static_cast<std::size_t>(end - begin))));
  }
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    const TpchColumn& c = columns_[i];
    const std::string_view text = fields[c.field];
    std::uint64_t value = 0;
    if (const char* problem = parse_value(c.parse, text, value)) {
      value_error(table_, rows_, c, text, problem);
    }
    if (c.width < 8 && value >> (8 * c.width) != 0) {
      range_error(table_, rows_, c, text, value);
    }
    auto& out = buffers_[i];
    const std::size_t at = out.size();
    out.resize(at + c.width);
    for (std::uint32_t b = 0; b < c.width; ++b) {
      out[at + b] = static_cast<std::uint8_t>(value >> (8 * b));
    }
  }
}

std::vector<std::vector<std::uint8_t>> parse_tbl(std::string_view table, std::string_view text) {
  std::vector<std::vector<std::uint8_t>> columns;
  TblParser parser(table, [&](std::size_t column, std::span<const std::uint8_t> bytes) {
    columns[column].insert(columns[column].end(), bytes.begin(), bytes.end());
  });
  columns.resize(parser.columns().size());
  parser.feed(text);
  parser.finish();
  return columns;
}

std::string tpchgen_program() {
  const char* env = std::getenv("GCBENCH_TPCHGEN");
  return (env != nullptr && *env != '\0') ? std::string(env) : std::string("tpchgen-cli");
}

bool is_plain_decimal(std::string_view text) {
  const std::size_t dot = text.find('.');
  std::uint64_t ignored = 0;
  return parse_digits(text.substr(0, dot), ignored) &&
         (dot == text.npos || parse_digits(text.substr(dot + 1), ignored));
}

std::string tpchgen_version() {
  std::string out;
  try {
    const ProgramResult r =
        run_program_streaming({tpchgen_program(), "--version"}, [&](std::string_view text) {
          if (out.size() < 4096) out.append(text);
        });
    if (r.exit_code != 0) return "";
  } catch (const std::exception&) {
    return "";
  }
  out = out.substr(0, out.find('\n'));
  while (!out.empty() && (out.back() == '\r' || out.back() == ' ')) out.pop_back();
  return out;
}

void generate_tpch(const std::string& scale_text, const fs::path& out_dir,
                   const std::vector<std::string>& tables) {
  // A plain decimal, so nothing else reaches the generator's command line.
  if (!is_plain_decimal(scale_text)) {
    throw std::runtime_error("TPC-H scale factor '" + scale_text +
                             "' is not a plain decimal like 0.01 or 10");
  }
  std::vector<std::string> todo = tables;
  if (todo.empty()) todo.assign(kTables.begin(), kTables.end());
  for (const auto& t : todo) {
    try {
      tpch_field_count(t);
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error(e.what());
    }
  }
  fs::create_directories(out_dir);
  const std::string program = tpchgen_program();
  for (const auto& t : todo) generate_table(program, scale_text, t, out_dir);
}

}  // namespace gcbench::corpora
