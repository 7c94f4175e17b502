#pragma once
// The gzip reference that the thesis's tables and the headline compare with: the gzip program
// where it was measured, zlib's deflate -6 beside it or in its stead, never one named as the
// other.
#include <string>
#include <vector>

#include "reports/tables.hpp"

namespace gcbench::studies {

// The reference codecs in order of preference: the gzip program, then zlib's deflate -6.
inline const std::vector<std::string> kGzipReferences = {"gzip", "zlib"};

// How the reference's columns, and LZ77's entropy-coded ratio beside them, read: the report's
// introduction.
inline constexpr const char* kGzipReferenceReading =
    "LZ77's **entropy-coded ratio** = original / its triples after the entropy stage, the "
    "thesis's ratio. gzip columns are the gzip program (`gzip -6 -n`, `gzip -d`), timed as its "
    "wall time (process start, pipes, exit); where it was not measured, zlib's deflate -6 "
    "stands in, in columns named zlib.";

// The versions the reference's figures rest on: zlib's and the gzip program's ("zlib 1.3, gzip
// 1.12 (/usr/bin/gzip)"), or why no gzip measured.
std::string gzip_reference_tools(const reports::ResultSet& set);

// The reference's columns for `direction` and `quantity`: headers "<codec><suffix>", CSV names
// "<codec>_<csv>".
std::vector<reports::Column> reference_cols(const reports::TableBuilder& b,
                                            const std::string& direction,
                                            reports::Quantity quantity, reports::Unit unit,
                                            const std::string& suffix, const std::string& csv);

// The original size, then each reference's compressed bytes and ratio (T7's layout).
std::vector<reports::Column> size_and_reference_cols(const reports::TableBuilder& b);

void append(std::vector<reports::Column>& to, std::vector<reports::Column> more);

}  // namespace gcbench::studies
