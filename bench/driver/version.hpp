#pragma once
// gcbench --version: what this binary was built from and with (revision, build type, CUDA,
// nvCOMP, the peers' libraries, Google Benchmark), plus what the CUDA driver here supports.
#include <string>
#include <vector>

#include "gcbench/codec.hpp"

namespace gcbench::driver {

// One "<what>  <value>" line each, from the build's definitions, the registry's `codecs` and
// their unavailable ones, and (CUDA builds) the CUDA runtime and driver versions.
std::string version_text(const std::vector<const Codec*>& codecs);

}  // namespace gcbench::driver
