#pragma once
// --help and --list text, built from the registry so that every codec axis is documented.
#include <ostream>
#include <vector>

#include "bench/driver/presets.hpp"
#include "gcbench/codec.hpp"

namespace gcbench::driver {

void print_help(std::ostream& out, const std::vector<const Codec*>& codecs,
                const std::vector<Preset>& presets);
void print_codec_list(std::ostream& out, const std::vector<const Codec*>& codecs);

}  // namespace gcbench::driver
