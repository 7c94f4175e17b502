#include "studies/gzip_reference.hpp"

namespace gcbench::studies {
using namespace reports;
namespace {

// The codec whose cells give the original size: the gzip reference, as below.
std::string size_codec(const TableBuilder& b) {
  return b.has_codec("gzip") || !b.has_codec("zlib") ? "gzip" : "zlib";
}

}  // namespace

std::string gzip_reference_tools(const ResultSet& set) {
  std::string gzip = "gzip program unknown";
  if (const auto it = set.context.find("codec:gzip/cpu"); it != set.context.end()) {
    gzip = it->second;
  } else if (const auto why = set.context.find("unavailable_codec:gzip");
             why != set.context.end()) {
    gzip = "gzip program unavailable (" + why->second + ")";
  }
  return "zlib " + context_text(set, "zlib_version") + ", " + gzip;
}

// The gzip program's (`gzip -6 -n`, its wall time) where it was measured, and zlib's beside it
// under its own name; without gzip cells, zlib's alone; with neither, a gzip column that says
// "not measured".
std::vector<Column> reference_cols(const TableBuilder& b, const std::string& direction,
                                   Quantity quantity, Unit unit, const std::string& suffix,
                                   const std::string& csv) {
  std::vector<std::string> codecs;
  for (const std::string& codec : kGzipReferences) {
    if (b.has_codec(codec)) codecs.push_back(codec);
  }
  if (codecs.empty()) codecs.push_back("gzip");
  std::vector<Column> cols;
  for (const std::string& codec : codecs) {
    cols.push_back(
        col(codec + suffix, codec + "_" + csv, unit, q(codec, "cpu", direction, {}, quantity)));
  }
  return cols;
}

std::vector<Column> size_and_reference_cols(const TableBuilder& b) {
  std::vector<Column> cols{col("size", "size_bytes", Unit::bytes,
                               q(size_codec(b), "cpu", "compress", {}, Quantity::size))};
  for (const Column& bytes :
       reference_cols(b, "compress", Quantity::compressed_bytes, Unit::bytes, "", "bytes")) {
    cols.push_back(bytes);
    cols.push_back(col(bytes.header + " ratio", bytes.query.codec + "_ratio", Unit::ratio,
                       q(bytes.query.codec, "cpu", "compress", {}, Quantity::ratio)));
  }
  return cols;
}

void append(std::vector<Column>& to, std::vector<Column> more) {
  for (Column& c : more) to.push_back(std::move(c));
}

}  // namespace gcbench::studies
