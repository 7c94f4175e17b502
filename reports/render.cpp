#include "reports/render.hpp"

#include <fmt/format.h>

#include <map>
#include <vector>

#include "src/results/cell_name.hpp"
#include "src/results/time_marks.hpp"

namespace gcbench::reports {

std::string csv_field(const std::string& text) {
  const std::string s = results::printable(text);  // no newline or carriage return splits a row
  if (s.find_first_of(",\"") == std::string::npos) return s;
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"') out += '"';
    out += ch;
  }
  return out + "\"";
}

namespace {

std::string latex_escape(const std::string& text) {
  std::string out;
  for (char ch : results::printable(text)) {
    switch (ch) {
      case '\\':
        out += "\\textbackslash{}";
        break;
      case '&':
      case '%':
      case '$':
      case '#':
      case '_':
      case '{':
      case '}':
        out += '\\';
        out += ch;
        break;
      case '~':
        out += "\\textasciitilde{}";
        break;
      case '^':
        out += "\\textasciicircum{}";
        break;
      default:
        out += ch;
    }
  }
  return out;
}

// Row `r`'s text columns, one per header (a total row has none of its own: blanks).
std::vector<std::string> texts_of(const Table& t, const Row& r) {
  std::vector<std::string> texts = r.texts;
  texts.resize(t.text_headers.size());
  return texts;
}

template <typename Fn>
void for_each_row(const Table& t, Fn&& fn) {
  for (const Row& r : t.rows) fn(r, false);
  if (t.total) fn(*t.total, true);
}

// One unit per quantity per table: every column of the column's kind (times, throughputs)
// shows its values in the unit chosen over all of them.
DisplayUnit column_unit(const Table& t, std::size_t column) {
  const Unit kind = t.columns[column].unit;
  std::vector<double> values;
  for (std::size_t c = 0; c < t.columns.size(); ++c) {
    if (t.columns[c].unit != kind) continue;
    for (const Row& r : t.rows) {
      if (r.values[c].value) values.push_back(*r.values[c].value);
    }
  }
  return display_unit(kind, values);
}

std::string spread_text(double cv) {
  return fmt::format("{:.{}f}%", 100 * cv, 100 * cv < 10 ? 1 : 0);
}

std::string marks(const Value& v) {
  return results::time_marks(v.over_target, v.throttled, v.busy);
}

// One reason when all blanks of the row share it, else each reason with its columns.
std::string reason_of(const Table& t, const Row& r) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<std::string>> columns;
  for (std::size_t i = 0; i < r.values.size(); ++i) {
    if (r.values[i].value) continue;
    auto& cols = columns[r.values[i].reason];
    if (cols.empty()) order.push_back(r.values[i].reason);
    cols.push_back(t.columns[i].csv);
  }
  if (order.size() == 1) return order.front();
  std::vector<std::string> parts;
  for (const std::string& reason : order) {
    parts.push_back(fmt::format("{} ({})", reason, fmt::join(columns[reason], " ")));
  }
  return fmt::format("{}", fmt::join(parts, "; "));
}

}  // namespace

std::vector<DisplayUnit> column_units(const Table& t) {
  std::vector<DisplayUnit> units;
  for (std::size_t c = 0; c < t.columns.size(); ++c) units.push_back(column_unit(t, c));
  return units;
}

std::string display_value(const Value& v, Unit unit, const DisplayUnit& shown) {
  if (!v.value) return "n/a (" + v.reason + ")";
  const double x = *v.value * shown.scale;
  std::string text;
  switch (unit) {
    case Unit::bytes:
      text = fmt::format("{:.0f}", x);
      break;
    case Unit::ratio:
      text = fmt::format("{:.3f}", x);
      break;
    case Unit::seconds:
    case Unit::gb_per_s:
    case Unit::percent:
      text = fixed_significant(x, 3);
      break;
  }
  if (v.spread) text += " ±" + spread_text(*v.spread) + marks(v);
  return text;
}

std::string csv_number(const Value& v, Unit unit) {
  if (!v.value) return "";
  switch (unit) {
    case Unit::bytes:
      return fmt::format("{:.0f}", *v.value);
    case Unit::ratio:
      return fmt::format("{:.3f}", *v.value);
    case Unit::seconds:
    case Unit::gb_per_s:
    case Unit::percent:
      break;
  }
  return fixed_significant(*v.value, 4);
}

std::string display_header(const Table& t, std::size_t column) {
  const DisplayUnit unit = column_unit(t, column);
  const std::string& header = t.columns[column].header;
  return unit.name.empty() ? header : fmt::format("{} [{}]", header, unit.name);
}

std::string to_markdown(const Table& t) {
  const std::vector<DisplayUnit> units = column_units(t);
  // Headers are the report's own words; labels and texts are names (files, codecs, points),
  // which may hold '|', newlines, HTML or links.
  using results::markdown_text;
  std::string out = "| " + t.label_header + " |";
  std::string rule = "|---|";
  for (const std::string& h : t.text_headers) {
    out += fmt::format(" {} |", h);
    rule += "---|";
  }
  for (std::size_t c = 0; c < t.columns.size(); ++c) {
    out += fmt::format(" {} |", display_header(t, c));
    rule += "---:|";
  }
  out += "\n" + rule + "\n";
  for_each_row(t, [&](const Row& r, bool total) {
    out += total ? "| **" + markdown_text(r.label) + "** |" : "| " + markdown_text(r.label) + " |";
    for (const std::string& text : texts_of(t, r)) {
      out += fmt::format(" {} |", markdown_text(text));
    }
    for (std::size_t i = 0; i < r.values.size(); ++i) {
      out += fmt::format(" {} |", display_value(r.values[i], t.columns[i].unit, units[i]));
    }
    out += "\n";
  });
  return out;
}

std::string to_csv(const Table& t) {
  std::string out = csv_field(t.label_header);
  for (const std::string& h : t.text_headers) out += fmt::format(",{}", csv_field(h));
  for (const Column& c : t.columns) out += fmt::format(",{}", csv_field(c.csv));
  out += ",reason\n";
  for_each_row(t, [&](const Row& r, bool) {
    out += csv_field(r.label);
    for (const std::string& text : texts_of(t, r)) out += fmt::format(",{}", csv_field(text));
    for (std::size_t i = 0; i < r.values.size(); ++i) {
      out += fmt::format(",{}", csv_number(r.values[i], t.columns[i].unit));
    }
    out += fmt::format(",{}\n", csv_field(reason_of(t, r)));
  });
  return out;
}

std::string to_latex(const Table& t) {
  const std::vector<DisplayUnit> units = column_units(t);
  std::string out = "\\begin{table}[ht]\n\\centering\n\\small\n\\begin{tabular}{l" +
                    std::string(t.text_headers.size(), 'l') + std::string(t.columns.size(), 'r') +
                    "}\n\\toprule\n" + latex_escape(t.label_header);
  for (const std::string& h : t.text_headers) out += fmt::format(" & {}", latex_escape(h));
  for (std::size_t c = 0; c < t.columns.size(); ++c) {
    out += fmt::format(" & {}", latex_escape(display_header(t, c)));
  }
  out += " \\\\\n\\midrule\n";
  for_each_row(t, [&](const Row& r, bool total) {
    if (total) out += "\\midrule\n";
    out += latex_escape(r.label);
    for (const std::string& text : texts_of(t, r)) out += fmt::format(" & {}", latex_escape(text));
    for (std::size_t i = 0; i < r.values.size(); ++i) {
      const Value& v = r.values[i];
      Value bare = v;
      bare.spread.reset();
      std::string cell = latex_escape(display_value(bare, t.columns[i].unit, units[i]));
      if (v.spread) {
        cell += " {\\footnotesize$\\pm$" + latex_escape(spread_text(*v.spread) + marks(v)) + "}";
      }
      out += " & " + (v.value ? cell : "\\textit{" + cell + "}");
    }
    out += " \\\\\n";
  });
  out += "\\bottomrule\n\\end{tabular}\n\\caption{" + latex_escape(t.title) + ". " +
         latex_escape(t.caption) + "}\n\\label{tab:" + t.id + "}\n\\end{table}\n";
  return out;
}

}  // namespace gcbench::reports
