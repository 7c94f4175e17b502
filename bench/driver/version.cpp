#include "bench/driver/version.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "bench/driver/context.hpp"
#include "gcbench/registry.hpp"

namespace gcbench::driver {
namespace {

// A library's version as the codec records it, without gcbench's own adapter version ("1/1.14"
// is adapter 1, library 1.14) or the codec's name repeated ("zlib 1.2.13").
std::string library_version(const CodecInfo& info) {
  std::string version = info.version;
  const std::size_t digits = version.find_first_not_of("0123456789");
  if (digits != std::string::npos && digits > 0 && version[digits] == '/')
    version = version.substr(digits + 1);
  if (version.starts_with(info.name + " ")) version = version.substr(info.name.size() + 1);
  if (version.starts_with(info.name + "-")) version = version.substr(info.name.size() + 1);
  return version;
}

// The reason an optional part is missing from this build: the unavailable codecs' entry whose
// name is `name`.
std::string reason_missing(const std::string& name) {
  for (const UnavailableCodec& u : unavailable_codecs()) {
    if (u.name == name) return u.reason;
  }
  return "not in this build";
}

std::string cuda_line() {
#if GCBENCH_HAVE_CUDA
  std::vector<std::string> parts;
  for (const auto& [key, value] : cuda_versions()) parts.push_back(key + " " + value);
  return "yes: " + fmt::format("{}", fmt::join(parts, ", "));
#else
  return "no: " + reason_missing("gpu codecs");
#endif
}

}  // namespace

std::string version_text(const std::vector<const Codec*>& codecs) {
  std::vector<std::string> peers, nvcomp, studied;
  for (const Codec* c : codecs) {
    const CodecInfo& info = c->info();
    const std::string named = info.name + " " + library_version(info);
    if (info.name.starts_with("nvcomp-")) {
      nvcomp.push_back(named);
    } else if (info.role == Role::studied) {
      if (info.device == Device::cpu) studied.push_back(named);
    } else if (std::find(peers.begin(), peers.end(), named) == peers.end()) {
      peers.push_back(named);
    }
  }
  const auto joined = [](const std::vector<std::string>& items) {
    return fmt::format("{}", fmt::join(items, ", "));
  };
  std::string text = fmt::format("gcbench {}\n", GCBENCH_VERSION);
  text += fmt::format("  revision          {}\n", git_revision());
  text += fmt::format("  build type        {}\n", GCBENCH_BUILD_TYPE);
  text += fmt::format("  CUDA              {}\n", cuda_line());
  text +=
      fmt::format("  nvCOMP            {}\n",
                  nvcomp.empty() ? "no: " + reason_missing("nvcomp-*") : "yes: " + joined(nvcomp));
  text += fmt::format("  peers             {}\n", joined(peers));
  text += fmt::format("  codecs (formats)  {}\n", joined(studied));
  text += fmt::format("  Google Benchmark  {}\n", GCBENCH_BENCHMARK_VERSION);
  return text;
}

}  // namespace gcbench::driver
