#include "studies/study.hpp"

namespace gcbench::studies {

// One line per study: its file defines it.
Study main_job_study();
Study thesis_study();
Study kernels_study();
Study quick_study();

const std::vector<Study>& studies() {
  static const std::vector<Study> all = {main_job_study(), thesis_study(), kernels_study(),
                                         quick_study()};
  return all;
}

const std::vector<driver::Preset>& presets() {
  static const std::vector<driver::Preset> all = [] {
    std::vector<driver::Preset> out;
    for (const Study& s : studies()) {
      if (s.preset) out.push_back(*s.preset);
    }
    return out;
  }();
  return all;
}

std::vector<reports::StudyTables> report_tables() {
  std::vector<reports::StudyTables> out;
  for (const Study& s : studies()) out.push_back(s.tables);
  return out;
}

}  // namespace gcbench::studies
