#include "studies/tpch_columns.hpp"

namespace gcbench::studies {
using namespace driver;

// The integer codecs on the columns, each at its column's element width (cells.cpp's
// axes_for()), every other axis at its default: the report's column table. rle-cub compresses
// only: its container is rle's, decoded by rle's decoders.
std::vector<PresetStep> tpch_steps(const AxisValues& rle_decoders) {
  const std::string columns = "TPC-H's columns, each at its element width";
  return {{.purpose = "FL, nvCOMP Cascaded and nvCOMP Bitcomp on " + columns,
           .corpora = {kTpchCorpus},
           .codecs = {"fl", "nvcomp-cascaded", "nvcomp-bitcomp"}},
          {.purpose = "RLE compression on " + columns,
           .corpora = {kTpchCorpus},
           .codecs = {"rle"},
           .direction = "compress"},
          {.purpose = "RLE decompression on " + columns,
           .corpora = {kTpchCorpus},
           .codecs = {"rle"},
           .direction = "decompress",
           .axes = rle_decoders},
          {.purpose = "RLE compression on " + columns + ": cub::DeviceRunLengthEncode (rle-cub)",
           .corpora = {kTpchCorpus},
           .codecs = {"rle-cub"},
           .device = "gpu",
           .direction = "compress"}};
}

}  // namespace gcbench::studies
