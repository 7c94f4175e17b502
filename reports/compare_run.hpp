#pragma once
// gcbench-report --compare as a function, so that tests see its exit status and messages.
#include <filesystem>
#include <optional>
#include <ostream>

#include "reports/compare.hpp"
#include "reports/page.hpp"

namespace gcbench::reports {

// Prints the comparison's Markdown to `out` and, with `out_dir`, writes compare.md,
// compare.csv and compare_groups.csv there, and with a `page` setup compare.html (page.hpp;
// without a Python that draws it, a note on `out`). Returns the exit status: 0; 1 when some
// cell or group has a failing verdict (compare.hpp); 2 for bad input, with a one-line message
// on `err`.
int run_compare(const std::filesystem::path& base, const std::filesystem::path& now,
                const CompareOptions& options, const std::optional<std::filesystem::path>& out_dir,
                std::ostream& out, std::ostream& err,
                const std::optional<PageSetup>& page = std::nullopt);

}  // namespace gcbench::reports
