#pragma once
// Which cells a sweep runs: codec selection by name or group, and the enumeration of
// (file x codec x device x parameter point x direction), in an order that keeps one input
// file and each CPU reference container warm.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "bench/driver/axes.hpp"
#include "bench/driver/inputs.hpp"
#include "bench/driver/options.hpp"
#include "gcbench/codec.hpp"
#include "src/results/cell_name.hpp"
#include "src/results/result_document.hpp"

namespace gcbench::driver {

enum class Direction { compress, decompress };

// The axis a typed input sets (InputFile::element_width): the width codecs read elements in.
using results::kElementWidthAxis;

struct CellSpec {
  results::CellId id;
  std::string name;  // results::format_cell_name(id)
  const Codec* codec = nullptr;
  const Codec* reference = nullptr;  // the CPU codec of the same name, for GPU codecs
  Params params;                     // resolved: every axis of the codec
  Direction direction = Direction::compress;
  std::size_t input = 0;   // index into the present inputs
  std::string label = {};  // a run-time choice made for it (choices.hpp), in its results
};

// Tokens: "all", "cpu", "gpu" or a codec name (as --list names it); `device` (cpu|gpu|all) then
// filters. Throws std::invalid_argument for a token that names nothing.
std::vector<const Codec*> select_codecs(const std::vector<const Codec*>& all,
                                        const std::vector<std::string>& tokens,
                                        const std::string& device);

// Throws std::invalid_argument when an axis flag matches no axis of the selected codecs, when a
// selected codec with that axis cannot take one of its values (naming the codec: a shared
// --level that one codec's range lacks), or when a codec's own levels (-e, `codec_levels`)
// are ones it lacks or cannot take.
void check_axis_flags(const std::vector<const Codec*>& selected, const AxisValues& given,
                      const AxisValues& codec_levels = {});

// `all` is searched for the CPU references of GPU codecs (selected or not).
std::vector<CellSpec> enumerate_cells(const std::vector<const Codec*>& selected,
                                      const std::vector<const Codec*>& all,
                                      const std::vector<InputFile>& inputs, const Options& options);

}  // namespace gcbench::driver
