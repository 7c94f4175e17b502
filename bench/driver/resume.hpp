#pragma once
// Resuming a sweep into an --out-dir that already holds results.
#include <filesystem>
#include <ostream>
#include <vector>

#include "bench/driver/cells.hpp"
#include "bench/driver/recorder.hpp"

namespace gcbench::driver {

// Removes from `cells` those the recorder holds under this run's provenance. Says on `log`
// how many it skipped, and, one line per reason (what changed), how many recorded cells will
// be measured again; and, when this run's git revision is unknown, that recorded cells were not
// compared by revision (provenance.hpp: describe_change).
void skip_recorded(std::vector<CellSpec>& cells, const Recorder& recorder, std::ostream& log);

// Removes from `cells` those recorded under `now` in `dir` (read_recorded: another run's folder,
// which may be in use), saying how many on `log`.
void skip_recorded_in(std::vector<CellSpec>& cells, const std::filesystem::path& dir,
                      const RunProvenance& now, std::ostream& log);

}  // namespace gcbench::driver
