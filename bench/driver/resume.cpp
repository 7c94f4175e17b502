#include "bench/driver/resume.hpp"

#include <map>
#include <string>

namespace gcbench::driver {

void skip_recorded(std::vector<CellSpec>& cells, const Recorder& recorder, std::ostream& log) {
  std::map<std::string, std::size_t> again;  // what changed -> cells
  const auto skipped = std::erase_if(cells, [&](const CellSpec& c) {
    if (recorder.recorded().count(c.name) > 0) return true;
    if (auto stale = recorder.stale().find(c.name); stale != recorder.stale().end())
      ++again[stale->second];
    return false;
  });
  if (skipped > 0) {
    log << "[gcbench] " << skipped << " cells already recorded in " << recorder.dir().string()
        << " under this revision, build type, codec versions and GPU: skipped\n";
  }
  for (const auto& [change, count] : again) {
    log << "[gcbench] " << count << " recorded cells measured again: " << change << "\n";
  }
  const std::string& revision = recorder.provenance().git_revision;
  if (is_unknown_revision(revision) && skipped > 0) {
    log << "[gcbench] the git revision is " << revision
        << ": recorded cells were not compared by revision\n";
  }
}

void skip_recorded_in(std::vector<CellSpec>& cells, const std::filesystem::path& dir,
                      const RunProvenance& now, std::ostream& log) {
  const RecordedCells there = read_recorded(dir, now);
  const auto skipped =
      std::erase_if(cells, [&](const CellSpec& c) { return there.recorded.count(c.name) > 0; });
  if (skipped > 0) {
    log << "[gcbench] " << skipped << " cells already recorded in " << dir.string()
        << " under this run's provenance: skipped\n";
  }
}

}  // namespace gcbench::driver
