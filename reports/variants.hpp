#pragma once
// Every codec variant measured on a corpus, over the corpus total: the one table where gcbench's
// codecs, gzip and the peers (CPU and GPU) stand side by side.
#include <string>

#include "reports/results.hpp"
#include "reports/tables.hpp"

namespace gcbench::reports {

// Rows: "<codec>/<device>/<axis>:<value>/..." for every parameter point measured on `corpus`,
// totalled over the files that every variant compressed (named in the caption); columns: ratio,
// compression and decompression throughput (of input bytes; GPU: kernel time and end-to-end time).
// A variant that failed on a file is left out and named in the caption.
Table variants_table(const ResultSet& set, const std::string& corpus);

}  // namespace gcbench::reports
