#include "reports/headline_text.hpp"

#include <fmt/format.h>

#include <cmath>
#include <string>
#include <vector>

#include "src/results/cell_name.hpp"
#include "src/results/counters.hpp"

namespace gcbench::reports {
namespace {

using nlohmann::json;

// Three significant digits, as the report's throughput columns show them; "-" for none.
std::string significant(const json& value) {
  if (!value.is_number()) return "-";
  const double v = value.get<double>();
  if (!(v > 0)) return fmt::format("{}", v);
  const int decimals = std::max(0, 2 - static_cast<int>(std::floor(std::log10(v))));
  return fmt::format("{:.{}f}", v, decimals);
}

std::string times(const json& value) {
  return value.is_number() ? significant(value) + "x" : "-";
}

}  // namespace

std::string headline_markdown(const json& headline, const std::string& corpus) {
  const json& rows = headline["rows"];
  const std::string reference =
      headline["reference"].is_string() ? headline["reference"].get<std::string>() : "";
  std::string out = "## Every codec at its defaults, " + results::markdown_text(corpus) +
                    ": throughput end to end (GPU: from host memory; CPU: wall time)\n\n";
  if (rows.empty()) return out + "(no codec measured at its defaults)\n";
  std::vector<std::string> headers = {"codec", "device", "ratio", "compress [GB/s]",
                                      "decompress [GB/s]"};
  if (!reference.empty()) {
    headers.push_back("compress vs " + reference);
    headers.push_back("decompress vs " + reference);
  }
  out += "|";
  std::string rule = "|";
  for (std::size_t i = 0; i < headers.size(); ++i) {
    out += " " + headers[i] + " |";
    rule += i < 2 ? "---|" : "---:|";
  }
  out += "\n" + rule + "\n";
  for (const json& r : rows) {
    std::string device = r["device"].get<std::string>() == "gpu" ? "GPU" : "CPU";
    if (const std::string threads = r.value("threads", ""); !threads.empty()) {
      device += ", " + threads;
    }
    const json& c = r["compress"];
    const json& d = r["decompress"];
    const json& ratio = r[results::counter::kRatio];
    out += fmt::format(
        "| {} | {} | {} | {} | {} |", results::markdown_text(r["codec"].get<std::string>()), device,
        ratio.is_number() ? fmt::format("{:.3f}", ratio.get<double>()) : "-",
        significant(c[results::counter::kE2eGbps]), significant(d[results::counter::kE2eGbps]));
    if (!reference.empty()) {
      out += fmt::format(" {} | {} |", times(c["vs_reference"]), times(d["vs_reference"]));
    }
    out += "\n";
  }
  const json& files = headline["files"];
  out += fmt::format("\nTotals over the {} file(s) every row compressed", files.size());
  if (!headline["left_out"].empty()) {
    std::vector<std::string> left;
    for (const json& l : headline["left_out"]) left.push_back(l.get<std::string>());
    out += fmt::format("; left out: {}",
                       results::markdown_text(fmt::format("{}", fmt::join(left, "; "))));
  }
  return out + ". `-`: not measured (a kernel-only run has no end-to-end figure).\n";
}

}  // namespace gcbench::reports
