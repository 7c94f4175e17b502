#pragma once
// --claim-dir: the CPU cells of a --gpus run as one queue that several worker processes share,
// so that the cores a GPU worker frees take CPU cells too (gpus_run.hpp). Every worker enumerates
// the same cells in the same order, the costliest unit first; before a unit's first cell runs,
// the worker claims the unit by creating its file in the claim folder (O_EXCL: one creator
// wins). A unit is an input file and a codec: its compression and decompression cells stay in
// one process, which keeps the container it verified for them.
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "bench/driver/cells.hpp"
#include "bench/driver/inputs.hpp"

namespace gcbench::driver {

// The message of a cell skipped because another worker claimed its unit: the reporter drops
// such a cell (no row, no record), since the other worker measures it.
inline constexpr std::string_view kClaimedElsewhere = "gcbench: claimed by another worker";

// "<corpus>/<file>/<codec>/<device>": what one claim covers.
std::string queue_unit(const CellSpec& cell);

// Reorders `cells` into units (queue_unit), the unit of the most estimated seconds first (ties
// by name), each unit's cells in their enumerated order: the order every sharing worker uses.
void order_for_queue(std::vector<CellSpec>& cells, const std::vector<InputFile>& inputs);

class CellQueue {
 public:
  // `dir` is created when absent; `worker` names this process in the claims it writes.
  CellQueue(std::filesystem::path dir, std::string worker);

  // Whether this process runs `cell`: true when it claimed the cell's unit, now or earlier;
  // false when another process had. Throws std::runtime_error when the claim folder cannot be
  // written.
  bool mine(const CellSpec& cell);

 private:
  std::filesystem::path dir_;
  std::string worker_;
  std::map<std::string, bool> decided_;  // unit -> claimed by this process
};

}  // namespace gcbench::driver
