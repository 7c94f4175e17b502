#pragma once
// The gzip program as a baseline: `gzip -6 -n` and `gzip -d` run through pipes.
#include <optional>
#include <string>

#include "gcbench/codec.hpp"

namespace gcbench::gzip {

// A gzip program found on this machine.
struct Program {
  std::string path;     // as executed, e.g. /usr/bin/gzip
  std::string version;  // first line of `gzip --version`, e.g. "gzip 1.12"
};

// The program named by $GCBENCH_GZIP (a path, or a name looked up on PATH), else `gzip` on
// PATH, checked by running it with --version. Without one, returns nullopt and sets `reason`.
std::optional<Program> find_program(std::string* reason);

// The codec running `program`. Its "container" is the gzip member itself, as zlib's is, so its
// size is exactly `gzip -6 -n -c FILE | wc -c`.
CodecPtr make_codec(Program program);

}  // namespace gcbench::gzip
