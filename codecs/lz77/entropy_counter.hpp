#pragma once
// LZ77's container counters (CodecInfo::container_counters): entropy_bytes, the
// size of a container's triples after the range coder (entropy_streams.hpp), so that ratios
// compare with the thesis's.
#include <string>
#include <utility>
#include <vector>

#include "gcbench/bytes.hpp"

namespace gcbench::lz77 {

// {"entropy_bytes", size} for one of LZ77's containers, coded once per distinct container.
std::vector<std::pair<std::string, double>> container_counters(ByteSpan container);

}  // namespace gcbench::lz77
