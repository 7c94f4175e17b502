#include "reports/svg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace gcbench::reports {
namespace {

constexpr double kWidth = 860, kHeight = 420, kLeft = 70, kRight = 180, kTop = 40, kBottom = 90;
constexpr double kPlotW = kWidth - kLeft - kRight, kPlotH = kHeight - kTop - kBottom;
constexpr std::array<const char*, 8> kColors = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728",
                                                "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};

std::string escape(const std::string& s) {
  std::string out;
  for (char ch : s) {
    if (ch == '&')
      out += "&amp;";
    else if (ch == '<')
      out += "&lt;";
    else if (ch == '>')
      out += "&gt;";
    else
      out += ch;
  }
  return out;
}

double max_value(const std::vector<Series>& series) {
  double m = 0;
  for (const Series& s : series) {
    for (const auto& v : s.values) {
      if (v) m = std::max(m, *v);
    }
  }
  return m > 0 ? m * 1.1 : 1;
}

// Frame, title, y axis with 5 ticks, legend.
std::string frame(const std::string& title, const std::string& y_label, double y_max,
                  const std::vector<Series>& series) {
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "font-family=\"sans-serif\" "
      "font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<text x=\"{}\" y=\"22\" font-size=\"15\" text-anchor=\"middle\">{}</text>\n",
      kWidth, kHeight, kWidth / 2, escape(title));
  for (int i = 0; i <= 5; ++i) {
    double v = y_max * i / 5;
    double y = kTop + kPlotH - kPlotH * i / 5;
    out += fmt::format(
        "<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke=\"#ddd\"/>\n"
        "<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{:.3g}</text>\n",
        kLeft, y, kLeft + kPlotW, y, kLeft - 6, y + 4, v);
  }
  out += fmt::format(
      "<text transform=\"translate(16,{}) rotate(-90)\" text-anchor=\"middle\">{}</text>\n",
      kTop + kPlotH / 2, escape(y_label));
  out += fmt::format(
      "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#333\"/>\n", kLeft,
      kTop, kPlotW, kPlotH);
  for (std::size_t i = 0; i < series.size(); ++i) {
    double y = kTop + 10 + 18 * static_cast<double>(i);
    out += fmt::format(
        "<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{}\"/>"
        "<text x=\"{}\" y=\"{}\">{}</text>\n",
        kLeft + kPlotW + 12, y, kColors[i % kColors.size()], kLeft + kPlotW + 30, y + 10,
        escape(series[i].name));
  }
  return out;
}

}  // namespace

std::string bar_chart(const std::string& title, const std::string& y_label,
                      const std::vector<std::string>& categories,
                      const std::vector<Series>& series) {
  const double y_max = max_value(series);
  std::string out = frame(title, y_label, y_max, series);
  const double group = kPlotW / static_cast<double>(std::max<std::size_t>(categories.size(), 1));
  const double bar = group * 0.8 / static_cast<double>(std::max<std::size_t>(series.size(), 1));
  for (std::size_t c = 0; c < categories.size(); ++c) {
    double x0 = kLeft + group * static_cast<double>(c) + group * 0.1;
    for (std::size_t s = 0; s < series.size(); ++s) {
      double x = x0 + bar * static_cast<double>(s);
      const auto& v = c < series[s].values.size() ? series[s].values[c] : std::nullopt;
      if (!v) {
        out += fmt::format(
            "<text x=\"{:.1f}\" y=\"{}\" font-size=\"8\" transform=\"rotate(-90 {:.1f} "
            "{})\">n/a</text>\n",
            x + bar / 2 + 3, kTop + kPlotH - 4, x + bar / 2 + 3, kTop + kPlotH - 4);
        continue;
      }
      double h = kPlotH * *v / y_max;
      out += fmt::format(
          "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"{}\"/>\n", x,
          kTop + kPlotH - h, bar, h, kColors[s % kColors.size()]);
    }
    double cx = kLeft + group * (static_cast<double>(c) + 0.5);
    out += fmt::format(
        "<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"end\" transform=\"rotate(-35 {:.1f} "
        "{})\">{}</text>\n",
        cx, kTop + kPlotH + 14, cx, kTop + kPlotH + 14, escape(categories[c]));
  }
  return out + "</svg>\n";
}

std::string line_chart(const std::string& title, const std::string& x_label,
                       const std::string& y_label, const std::vector<double>& xs,
                       const std::vector<Series>& series) {
  const double y_max = max_value(series);
  std::string out = frame(title, y_label, y_max, series);
  if (xs.empty()) return out + "</svg>\n";
  const double x_min = *std::min_element(xs.begin(), xs.end());
  const double x_span = std::max(*std::max_element(xs.begin(), xs.end()) - x_min, 1.0);
  auto px = [&](double x) { return kLeft + kPlotW * 0.05 + kPlotW * 0.9 * (x - x_min) / x_span; };
  for (double x : xs) {
    out += fmt::format("<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{:g}</text>\n", px(x),
                       kTop + kPlotH + 16, x);
  }
  out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                     kLeft + kPlotW / 2, kTop + kPlotH + 40, escape(x_label));
  for (std::size_t s = 0; s < series.size(); ++s) {
    std::string points;
    for (std::size_t i = 0; i < xs.size() && i < series[s].values.size(); ++i) {
      const auto& v = series[s].values[i];
      if (!v) continue;
      double y = kTop + kPlotH - kPlotH * *v / y_max;
      points += fmt::format("{:.1f},{:.1f} ", px(xs[i]), y);
      out += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3\" fill=\"{}\"/>\n", px(xs[i]),
                         y, kColors[s % kColors.size()]);
    }
    if (!points.empty()) {
      out +=
          fmt::format("<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"/>\n",
                      points, kColors[s % kColors.size()]);
    }
  }
  return out + "</svg>\n";
}

}  // namespace gcbench::reports
