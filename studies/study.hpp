#pragma once
// A study: a sweep declared as data (its preset) and the tables the report reads it through.
// The driver and the report name no study and no codec: main() hands them the studies' presets
// and tables, as it hands them the registry's codecs. A new study is a file here and a line in
// studies.cpp; a new table of a study, a few lines in its tables file.
#include <optional>
#include <string>
#include <vector>

#include "bench/driver/presets.hpp"
#include "reports/report.hpp"

namespace gcbench::studies {

struct Study {
  std::string name;
  std::optional<driver::Preset> preset;  // none: the study reads a plain sweep (the main job)
  reports::StudyTables tables = {};
};

// The standard corpora, in the order the presets run them.
inline const std::vector<std::string> kStandardCorpora = {"silesia", "calgary", "canterbury",
                                                          "prague"};

// Every study, in the order the report shows their tables.
const std::vector<Study>& studies();
// Their presets, for the driver (--preset), and their tables, for the report.
const std::vector<driver::Preset>& presets();
std::vector<reports::StudyTables> report_tables();

}  // namespace gcbench::studies
