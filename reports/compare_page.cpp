#include "reports/compare_page.hpp"

#include <fmt/format.h>

#include <optional>
#include <string>
#include <vector>

namespace gcbench::reports {
namespace {

using json = nlohmann::json;

// A table cell as the page's tables take it: [text, number to sort by, or null for a blank].
json number(std::optional<double> v, const char* spec) {
  if (!v) return json::array({"", nullptr});
  return json::array({fmt::format(fmt::runtime(spec), *v), *v});
}

json seconds(std::optional<double> s) {
  if (!s) return json::array({"", nullptr});
  return json::array({human_time(*s), *s});
}

json table(std::string label_header, std::vector<std::string> text_headers,
           std::vector<std::string> headers, json rows) {
  return {{"label_header", std::move(label_header)},
          {"text_headers", std::move(text_headers)},
          {"headers", std::move(headers)},
          {"rows", std::move(rows)},
          {"total", nullptr}};
}

}  // namespace

json compare_page_data(const Comparison& c, const CompareOptions& o,
                       const std::filesystem::path& base, const std::filesystem::path& now) {
  json cells = json::array();
  for (const CellComparison& x : c.cells) {
    cells.push_back(
        {{"label", x.name},
         {"texts",
          json::array({x.note.empty() ? std::string(verdict_name(x.verdict))
                                      : fmt::format("{}: {}", verdict_name(x.verdict), x.note)})},
         {"cells",
          json::array(
              {seconds(x.base_time_s), seconds(x.new_time_s), number(x.time_change_pct, "{:+.1f}%"),
               number(x.base_iqr_pct, "{:.1f}%"), number(x.new_iqr_pct, "{:.1f}%"),
               number(static_cast<double>(std::min(x.base_reps, x.new_reps)), "{:.0f}"),
               number(x.p_adjusted, "{:.3g}"), number(x.ratio_change_pct, "{:+.2f}%"),
               number(x.kernel_change_pct, "{:+.1f}%"), number(x.e2e_change_pct, "{:+.1f}%")})}});
  }
  json groups = json::array();
  for (const GroupComparison& g : c.groups) {
    groups.push_back(
        {{"label", fmt::format("{} {}/{} {}", g.corpus, g.codec, g.device, g.direction)},
         {"texts", json::array({verdict_name(g.verdict)})},
         {"cells", json::array({number(static_cast<double>(g.cells), "{:.0f}"),
                                number((g.time_ratio - 1) * 100, "{:+.1f}%"),
                                number(static_cast<double>(g.slower), "{:.0f}"),
                                number(static_cast<double>(g.faster), "{:.0f}"),
                                number(g.p_adjusted, "{:.3g}"), number(g.noise_pct, "{:.1f}%")})}});
  }
  json verdicts = {{"cells", json::object()}, {"groups", json::object()}};
  for (Verdict v : kVerdictsGravestFirst) {
    verdicts["cells"][verdict_name(v)] = c.count(v);
    verdicts["groups"][verdict_name(v)] = c.count_groups(v);
  }
  std::vector<std::string> notes;
  if (!c.input_note.empty()) {
    notes.push_back(std::string(o.allow_different_inputs ? "Different inputs (allowed): "
                                                         : "Different inputs (NOT COMPARABLE): ") +
                    c.input_note + ".");
  }
  if (!c.busy_note.empty()) notes.push_back("A busier machine: " + c.busy_note);
  return {
      {"kind", "compare"},
      {"sides", json::array({json::array({o.base_label, base.string()}),
                             json::array({o.new_label, now.string()})})},
      {"verdicts", verdicts},
      {"failed", c.failed(o)},
      {"method", compare_method(c, o)},
      {"notes", notes},
      {"groups", table("group", {"verdict"},
                       {"cells", "time change", "slower", "faster", "p adj.", "noise"}, groups)},
      {"cells", table("cell", {"verdict"},
                      {o.base_label + " time", o.new_label + " time", "time change",
                       "IQR " + o.base_label, "IQR " + o.new_label, "reps", "p adj.",
                       "ratio change", "kernel_s change", "e2e_s change"},
                      cells)}};
}

}  // namespace gcbench::reports
