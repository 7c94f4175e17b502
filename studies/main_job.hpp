#pragma once
// The main job's headline (scripts/bench.sh: bench/run_suite.sh on a corpus, every codec at
// its default sweep): per file, GPU vs CPU vs gzip, compression time and ratio.
#include "reports/tables.hpp"

namespace gcbench::studies {

reports::Table summary_table(const reports::TableBuilder& b);

}  // namespace gcbench::studies
