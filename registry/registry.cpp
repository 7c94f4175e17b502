// The codec table, the layer above codecs/ and baselines/. Adding a codec: a folder under
// codecs/ (or baselines/) and two lines here, its factory's include and its push_back
// (docs/adding-a-codec.md lists the rest); one of an optional library: also one
// gcbench_optional_library() call where CMake looks for the library. Codecs of out-of-tree
// plugins (include/gcbench/plugin.h) join the table when they are loaded.
#include "gcbench/registry.hpp"

#include <cstdlib>
#include <filesystem>
#include <set>
#include <sstream>

#include "baselines/gzip/gzip_codec.hpp"
#include "baselines/nvcomp/nvcomp_codec.hpp"
#include "baselines/peers/peers.hpp"
#include "baselines/zlib/zlib_codec.hpp"
#include "codecs/fl/fl.hpp"
#include "codecs/lz77/lz77.hpp"
#include "codecs/rle/rle.hpp"
#include "gcbench/container.hpp"
#include "gcbench/optional_libraries.hpp"
#include "registry/plugin_codec.hpp"

namespace gcbench {
namespace {

namespace optional = optional_libraries;

// A codec of an optional library is named only where the library was found (a discarded
// `if constexpr` branch needs no definition of its factory).
std::vector<CodecPtr> make_registry() {
  std::vector<CodecPtr> codecs;
  codecs.push_back(fl::make_cpu_codec());
  codecs.push_back(rle::make_cpu_codec());
  codecs.push_back(lz77::make_cpu_codec());
  codecs.push_back(zlib::make_codec());
  if (auto program = gzip::find_program(nullptr)) codecs.push_back(gzip::make_codec(*program));
  if constexpr (optional::libdeflate.available) codecs.push_back(peers::make_libdeflate_codec());
  if constexpr (optional::zstd.available) codecs.push_back(peers::make_zstd_codec());
  if constexpr (optional::lz4.available) codecs.push_back(peers::make_lz4_codec());
  if constexpr (optional::lz4.available) codecs.push_back(peers::make_lz4hc_codec());
  if constexpr (optional::cuda.available) {
    codecs.push_back(fl::make_gpu_codec());
    codecs.push_back(rle::make_gpu_codec());
    codecs.push_back(rle::make_cub_gpu_codec());
    codecs.push_back(lz77::make_gpu_codec());
  }
  if constexpr (optional::nvcomp.available) {
    for (auto& c : nvcomp::make_codecs()) codecs.push_back(std::move(c));
  }
  // The formats the codecs declare: an id that two formats claim stops the table here.
  for (const CodecPtr& c : codecs) {
    if (c->info().container_format.id != 0) register_container_format(c->info().container_format);
  }
  return codecs;
}

// What this build left out, and why, so that the driver can say so instead of staying silent.
std::vector<UnavailableCodec> make_unavailable() {
  std::vector<UnavailableCodec> missing;
  // The gzip program is looked for at run time ($GCBENCH_GZIP, else PATH).
  if (std::string reason; !gzip::find_program(&reason)) missing.push_back({"gzip", reason});
  for (const OptionalLibrary& library : optional::all) {
    if (!library.available) {
      missing.push_back({std::string(library.codecs), std::string(library.missing_reason)});
    }
  }
  return missing;
}

// The table, built-in codecs first; plugins append to it before any caller takes a pointer
// into it (the driver and the tools load them first thing).
std::vector<CodecPtr>& table() {
  static std::vector<CodecPtr> codecs = make_registry();
  return codecs;
}

std::vector<UnavailableCodec>& missing_codecs() {
  static std::vector<UnavailableCodec> missing = make_unavailable();
  return missing;
}

std::set<std::filesystem::path>& loaded_plugin_files() {
  static std::set<std::filesystem::path> files;
  return files;
}

void load_plugin_file(const std::filesystem::path& given) {
  std::error_code ec;
  const std::filesystem::path file = std::filesystem::canonical(given, ec);
  if (ec) throw plugins::PluginError("plugin " + given.string() + ": " + ec.message());
  if (!loaded_plugin_files().insert(file).second) return;  // the same file named twice
  std::set<std::string> taken;
  for (const CodecPtr& c : table()) taken.insert(c->info().name);
  for (const UnavailableCodec& u : missing_codecs()) taken.insert(u.name);
  plugins::LoadedPlugin loaded = plugins::load_plugin(given, taken);
  for (CodecPtr& c : loaded.codecs) table().push_back(std::move(c));
  for (UnavailableCodec& u : loaded.left_out) missing_codecs().push_back(std::move(u));
}

// $GCBENCH_PLUGINS: plugin files separated by ':', loaded with the table.
void load_environment_plugins() {
  const char* list = std::getenv("GCBENCH_PLUGINS");
  if (list == nullptr) return;
  std::istringstream paths(list);
  for (std::string path; std::getline(paths, path, ':');) {
    if (!path.empty()) load_plugin_file(path);
  }
}

}  // namespace

void load_plugins(const std::vector<std::string>& paths) {
  registry();  // the built-in codecs and $GCBENCH_PLUGINS' first
  for (const std::string& path : paths) load_plugin_file(path);
}

const std::vector<CodecPtr>& registry() {
  static const bool environment_loaded = [] {
    load_environment_plugins();
    return true;
  }();
  (void)environment_loaded;
  return table();
}

const std::vector<UnavailableCodec>& unavailable_codecs() {
  registry();
  return missing_codecs();
}

std::vector<const Codec*> registered_codecs() {
  std::vector<const Codec*> all;
  for (const CodecPtr& c : registry()) all.push_back(c.get());
  return all;
}

const Codec* find_codec(const std::string& name, Device device) {
  for (const auto& c : registry()) {
    if (c->info().name == name && c->info().device == device) return c.get();
  }
  return nullptr;
}

}  // namespace gcbench
