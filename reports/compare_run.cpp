#include "reports/compare_run.hpp"

#include <fmt/format.h>

#include "reports/compare_page.hpp"
#include "src/results/result_files.hpp"

namespace gcbench::reports {
namespace fs = std::filesystem;

int run_compare(const fs::path& base, const fs::path& now, const CompareOptions& options,
                const std::optional<fs::path>& out_dir, std::ostream& out, std::ostream& err,
                const std::optional<PageSetup>& page) {
  try {
    const ResultSet b = load_side(base, options.base_label);
    const ResultSet n = load_side(now, options.new_label);
    for (const auto& [side, set] : {std::pair{&options.base_label, &b}, {&options.new_label, &n}}) {
      for (const auto& [file, fault] : set->damaged) {
        err << "gcbench-report --compare: " << *side << ": " << file
            << " set aside, not read: " << fault << "\n";
      }
    }
    const Comparison c = compare(b, n, options);
    const std::string md = fmt::format("{}: {}\n{}: {}\n\n", options.base_label, base.string(),
                                       options.new_label, now.string()) +
                           to_markdown(c, options);
    out << md;
    if (out_dir) {
      results::write_file_atomically(*out_dir / "compare.md", md);
      results::write_file_atomically(*out_dir / "compare.csv", cells_csv(c));
      results::write_file_atomically(*out_dir / "compare_groups.csv", groups_csv(c));
      if (page) {
        const PageOutcome written =
            write_page(*page, *out_dir, compare_page_data(c, options, base, now), "compare");
        if (!written.note.empty()) (written.failed ? err : out) << "\n" << written.note << "\n";
      }
    }
    return c.failed(options) ? 1 : 0;
  } catch (const std::exception& e) {
    // Whatever failed, 1 must keep meaning "a failing verdict" for CI.
    err << "gcbench-report --compare: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace gcbench::reports
