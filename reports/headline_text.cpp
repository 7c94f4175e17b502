#include "reports/headline_text.hpp"

#include <fmt/format.h>

#include <string>
#include <vector>

#include "reports/render.hpp"
#include "reports/tables.hpp"
#include "src/results/cell_name.hpp"
#include "src/results/counters.hpp"

namespace gcbench::reports {
namespace {

using nlohmann::json;

// A headline figure: its number, or why there is none.
Value figure(const json& value, const char* why) {
  return value.is_number() ? Value::of(value.get<double>()) : Value::blank(why);
}

}  // namespace

std::string headline_markdown(const json& headline, const std::string& corpus) {
  const std::string reference =
      headline["reference"].is_string() ? headline["reference"].get<std::string>() : "";
  Table t;
  t.id = "every_codec";
  t.title = "Every codec at its defaults, " + corpus +
            ": throughput end to end (GPU: from host memory; CPU: wall time)";
  t.label_header = "codec";
  t.text_headers = {"device"};
  t.columns = {Column{"ratio", results::counter::kRatio, Unit::ratio, {}},
               Column{"compress", "compress_e2e_gbps", Unit::gb_per_s, {}},
               Column{"decompress", "decompress_e2e_gbps", Unit::gb_per_s, {}}};
  if (!reference.empty()) {
    t.columns.push_back(
        Column{"compress vs " + reference, "compress_vs_reference", Unit::ratio, {}});
    t.columns.push_back(
        Column{"decompress vs " + reference, "decompress_vs_reference", Unit::ratio, {}});
  }
  for (const json& r : headline["rows"]) {
    std::string device = r["device"].get<std::string>() == "gpu" ? "GPU" : "CPU";
    if (const std::string threads = r.value("threads", ""); !threads.empty()) {
      device += ", " + threads;
    }
    const json& c = r["compress"];
    const json& d = r["decompress"];
    Row row{r["codec"].get<std::string>(),
            {figure(r[results::counter::kRatio], "not measured"),
             figure(c[results::counter::kE2eGbps], "not measured end to end"),
             figure(d[results::counter::kE2eGbps], "not measured end to end")},
            {device}};
    if (!reference.empty()) {
      row.values.push_back(figure(c["vs_reference"], "not measured end to end"));
      row.values.push_back(figure(d["vs_reference"], "not measured end to end"));
    }
    t.rows.push_back(std::move(row));
  }
  std::string out = "## " + results::markdown_text(t.title) + "\n\n";
  if (t.rows.empty()) return out + "(no codec measured at its defaults)\n";
  out += to_markdown(t);
  out += fmt::format("\nTotals over the {} file(s) every row compressed", headline["files"].size());
  if (!headline["left_out"].empty()) {
    std::vector<std::string> left;
    for (const json& l : headline["left_out"]) left.push_back(l.get<std::string>());
    out += fmt::format("; left out: {}",
                       results::markdown_text(fmt::format("{}", fmt::join(left, "; "))));
  }
  return out + ".\n";
}

}  // namespace gcbench::reports
