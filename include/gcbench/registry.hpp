#pragma once
// The table of all codecs (registry/registry.cpp holds one line per codec).
#include <string>
#include <vector>

#include "gcbench/codec.hpp"

namespace gcbench {

const std::vector<CodecPtr>& registry();
// The same codecs as plain pointers, in table order (what selections and presets take).
std::vector<const Codec*> registered_codecs();

// Codecs this build could not include (optional library or CUDA absent), with the reason.
struct UnavailableCodec {
  std::string name;
  std::string reason;
};
const std::vector<UnavailableCodec>& unavailable_codecs();

// Loads out-of-tree codec plugins (include/gcbench/plugin.h) into the table, after the
// built-in codecs and those of $GCBENCH_PLUGINS (files separated by ':'). Call it before
// anything holds a codec pointer. Throws plugins::PluginError (a std::runtime_error) naming
// the file for one that cannot be used; a file named twice is loaded once.
void load_plugins(const std::vector<std::string>& paths);

// nullptr when no codec has that name on that device.
const Codec* find_codec(const std::string& name, Device device);

}  // namespace gcbench
