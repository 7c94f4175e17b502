#pragma once
// Small hand-written SVG charts (no plotting library on the CI machines): grouped bars over
// categories and lines over a numeric x axis. A missing value is not drawn; bars mark it "n/a".
#include <optional>
#include <string>
#include <vector>

namespace gcbench::reports {

struct Series {
  std::string name;
  std::vector<std::optional<double>> values;  // one per category / x value
};

std::string bar_chart(const std::string& title, const std::string& y_label,
                      const std::vector<std::string>& categories,
                      const std::vector<Series>& series);

std::string line_chart(const std::string& title, const std::string& x_label,
                       const std::string& y_label, const std::vector<double>& xs,
                       const std::vector<Series>& series);

}  // namespace gcbench::reports
