#pragma once
// --help (the flags a user needs, one screen), --help-all (every flag and axis in full, from the
// registry) and --list.
#include <ostream>
#include <vector>

#include "bench/driver/presets.hpp"
#include "gcbench/codec.hpp"

namespace gcbench::driver {

void print_help(std::ostream& out, const std::vector<Preset>& presets);
void print_full_help(std::ostream& out, const std::vector<const Codec*>& codecs,
                     const std::vector<Preset>& presets);
void print_codec_list(std::ostream& out, const std::vector<const Codec*>& codecs);

}  // namespace gcbench::driver
