#include "reports/render.hpp"

#include <fmt/format.h>

#include <vector>

namespace gcbench::reports {

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"') out += '"';
    out += ch;
  }
  return out + "\"";
}

namespace {

std::string latex_escape(const std::string& s) {
  std::string out;
  for (char ch : s) {
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

}  // namespace

std::string format_value(const Value& v, Unit unit) {
  if (!v.value) return "n/a (" + v.reason + ")";
  switch (unit) {
    case Unit::seconds:
      return fmt::format("{:.4g}", *v.value);
    case Unit::bytes:
      return fmt::format("{:.0f}", *v.value);
    case Unit::ratio:
      return fmt::format("{:.3f}", *v.value);
    case Unit::gb_per_s:  // three digits, but no exponent for a GPU's thousands of GB/s
      return *v.value >= 999.5 ? fmt::format("{:.0f}", *v.value) : fmt::format("{:.3g}", *v.value);
    case Unit::percent:
      return fmt::format("{:.1f}", *v.value);
  }
  return "";
}

std::string to_markdown(const Table& t) {
  std::string out = "| " + t.label_header + " |";
  std::string rule = "|---|";
  for (const std::string& h : t.text_headers) {
    out += fmt::format(" {} |", h);
    rule += "---|";
  }
  for (const Column& c : t.columns) {
    out += fmt::format(" {} |", c.header);
    rule += "---:|";
  }
  out += "\n" + rule + "\n";
  for_each_row(t, [&](const Row& r, bool total) {
    out += total ? "| **" + r.label + "** |" : "| " + r.label + " |";
    for (const std::string& text : texts_of(t, r)) out += fmt::format(" {} |", text);
    for (std::size_t i = 0; i < r.values.size(); ++i) {
      out += fmt::format(" {} |", format_value(r.values[i], t.columns[i].unit));
    }
    out += "\n";
  });
  return out;
}

std::string to_csv(const Table& t) {
  std::string out = csv_field(t.label_header);
  for (const std::string& h : t.text_headers) out += fmt::format(",{}", csv_field(h));
  for (const Column& c : t.columns) out += fmt::format(",{}", csv_field(c.csv));
  out += "\n";
  for_each_row(t, [&](const Row& r, bool) {
    out += csv_field(r.label);
    for (const std::string& text : texts_of(t, r)) out += fmt::format(",{}", csv_field(text));
    for (std::size_t i = 0; i < r.values.size(); ++i) {
      out += fmt::format(",{}", csv_field(format_value(r.values[i], t.columns[i].unit)));
    }
    out += "\n";
  });
  return out;
}

std::string to_latex(const Table& t) {
  std::string out = "\\begin{table}[ht]\n\\centering\n\\small\n\\begin{tabular}{l" +
                    std::string(t.text_headers.size(), 'l') + std::string(t.columns.size(), 'r') +
                    "}\n\\toprule\n" + latex_escape(t.label_header);
  for (const std::string& h : t.text_headers) out += fmt::format(" & {}", latex_escape(h));
  for (const Column& c : t.columns) out += fmt::format(" & {}", latex_escape(c.header));
  out += " \\\\\n\\midrule\n";
  for_each_row(t, [&](const Row& r, bool total) {
    if (total) out += "\\midrule\n";
    out += latex_escape(r.label);
    for (const std::string& text : texts_of(t, r)) out += fmt::format(" & {}", latex_escape(text));
    for (std::size_t i = 0; i < r.values.size(); ++i) {
      std::string cell = latex_escape(format_value(r.values[i], t.columns[i].unit));
      out += " & " + (r.values[i].value ? cell : "\\textit{" + cell + "}");
    }
    out += " \\\\\n";
  });
  out += "\\bottomrule\n\\end{tabular}\n\\caption{" + latex_escape(t.title) + ". " +
         latex_escape(t.caption) + "}\n\\label{tab:" + t.id + "}\n\\end{table}\n";
  return out;
}

}  // namespace gcbench::reports
