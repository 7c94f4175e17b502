#pragma once
// Run-time choices (lz77's GPU design=auto): made for every cell before any is timed, each
// distinct one printed once, recorded in the results' context and as its cells' label.
#include <ostream>
#include <vector>

#include "bench/driver/cells.hpp"
#include "bench/driver/context.hpp"

namespace gcbench::driver {

// Sets the label of each cell whose codec makes a choice ("design=warp") and returns the
// context entries, "auto:<codec>/<device>/<scope>" -> "<choice>: <how>". A choice that fails
// (no design verified) is printed once; its cells then fail with the same message.
ContextEntries make_run_time_choices(std::vector<CellSpec>& cells, std::ostream& log);

}  // namespace gcbench::driver
