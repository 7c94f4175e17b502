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

// nullptr when no codec has that name on that device.
const Codec* find_codec(const std::string& name, Device device);

}  // namespace gcbench
