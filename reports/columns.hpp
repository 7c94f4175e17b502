#pragma once
// The column table (issue 43): for a corpus of typed inputs (.npy arrays, tpch columns: the
// driver marks it in the context, results::kTypedCorpusKey), per file and GPU codec variant,
// the file's element width and size, the ratio, and the kernel and end-to-end GB/s of
// compression and decompression. plot_results.py draws its CSV as ratio against throughput.
#include <optional>
#include <string>
#include <vector>

#include "reports/results.hpp"
#include "reports/tables.hpp"

namespace gcbench::reports {

// Rows: per file of `files` (in that order), one per GPU codec variant measured on it (its
// axes not at `defaults`, element_width aside: that is the width column). nullopt unless
// `corpus` is typed and has a GPU cell.
std::optional<Table> columns_table(const ResultSet& set, const Defaults& defaults,
                                   const std::string& corpus,
                                   const std::vector<std::string>& files);

}  // namespace gcbench::reports
