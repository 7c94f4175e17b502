#pragma once
// Codecs from out-of-tree plugins (include/gcbench/plugin.h): the library is loaded, its
// description checked against the ABI, and each of its paths (CPU, GPU) wrapped as a
// gcbench::Codec, so that nothing above the registry can tell it from a built-in codec.
#include <filesystem>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "gcbench/codec.hpp"
#include "gcbench/registry.hpp"

namespace gcbench::plugins {

// A plugin that cannot be used: its message names the file and what is wrong.
class PluginError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct LoadedPlugin {
  std::vector<CodecPtr> codecs;
  // Paths the plugin has that this build cannot run (its GPU path without CUDA), and why.
  std::vector<UnavailableCodec> left_out;
};

// Loads the library at `path` (never unloaded) and wraps its codecs. Throws PluginError for a
// file that is not a loadable library, lacks gcbench_plugin_entry, was built for another ABI
// version, describes itself inconsistently, or takes a name in `taken`.
LoadedPlugin load_plugin(const std::filesystem::path& path, const std::set<std::string>& taken);

}  // namespace gcbench::plugins
