#pragma once
// What compare.html shows (reports/plots/report_html.py renders a page of kind "compare"): the
// sides compared, the verdict counts, the method, and the groups and cells as sortable tables.
#include <filesystem>

#include <nlohmann/json.hpp>

#include "reports/compare.hpp"

namespace gcbench::reports {

nlohmann::json compare_page_data(const Comparison& c, const CompareOptions& options,
                                 const std::filesystem::path& base,
                                 const std::filesystem::path& now);

}  // namespace gcbench::reports
