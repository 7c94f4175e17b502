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
