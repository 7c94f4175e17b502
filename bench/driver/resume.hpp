#pragma once
// Resuming a sweep into an --out-dir that already holds results.
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

}  // namespace gcbench::driver
