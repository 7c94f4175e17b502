#pragma once
// gcbench-report --table NAME: one table of a written report, printed on its own.
#include <filesystem>
#include <string>
#include <vector>

namespace gcbench::reports {

struct PickedTables {
  std::string markdown;            // each matching table's file, under its corpus's heading
  std::vector<std::string> names;  // when none matched: every table's id ("lz77_t5"), sorted
};

// The tables of the report in `report_dir` (its <corpus>/<id>.md files) that `name` names: by
// id ("lz77_t5"), or by the number its title begins with ("T5" for "T5: ..."), any case.
PickedTables pick_tables(const std::filesystem::path& report_dir, const std::string& name);

}  // namespace gcbench::reports
