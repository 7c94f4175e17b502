#pragma once
// The thesis's tables: T1-T7 for LZ77 per match finder and work-item count beside gzip, and their
// equivalents for FL and RLE per frame size and element width.
#include <string>
#include <vector>

#include "reports/report.hpp"

namespace gcbench::studies {

// T1-T7 for LZ77 (hash/brute/z, work items), compared with gzip (zlib).
std::vector<reports::Table> lz77_tables(const reports::TableBuilder& b);
// The FL/RLE equivalents: the same layouts over frame_size / element_width.
std::vector<reports::Table> family_tables(const reports::TableBuilder& b, const std::string& codec);
// The thesis's sections of a corpus's report: LZ77's tables, then FL's and RLE's, each where
// the results hold its codec.
std::vector<reports::TableSection> thesis_sections(const reports::TableBuilder& b);

}  // namespace gcbench::studies
