#pragma once
// report.html's headline (headline_json) as a Markdown table for a console: every codec and
// device at its defaults, both directions, each column in one unit, the closing table of a run.
#include <string>

#include <nlohmann/json.hpp>

namespace gcbench::reports {

// `headline` as headline_json makes it, for `corpus`: a titled table, its notes after it.
std::string headline_markdown(const nlohmann::json& headline, const std::string& corpus);

}  // namespace gcbench::reports
