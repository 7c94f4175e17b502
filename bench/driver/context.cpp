#include "bench/driver/context.hpp"

#include <fmt/format.h>

#include <zlib.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <memory>
#include <thread>

#include "bench/driver/cell_name.hpp"
#include "gcbench/registry.hpp"

namespace gcbench::driver {
namespace {

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.starts_with("model name")) {
      std::size_t colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  }
  return "unknown";
}

std::string command_output(const std::string& command) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  if (!pipe) return "";
  std::string out;
  std::array<char, 256> buf{};
  while (std::fgets(buf.data(), buf.size(), pipe.get())) out += buf.data();
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

// Read at run time, so that a rebuilt-but-not-reconfigured binary still reports the truth. A
// snapshot of a commit (git archive, as device runs carry it, possibly inside another
// checkout) names its commit in a REVISION file instead.
std::string git_revision() {
  if (std::ifstream snapshot(GCBENCH_SOURCE_DIR "/REVISION"); snapshot) {
    std::string rev;
    if (std::getline(snapshot, rev) && !rev.empty()) return rev + " (snapshot)";
  }
  const std::string git = "git -C '" GCBENCH_SOURCE_DIR "' ";
  std::string rev = command_output(git + "rev-parse --short=12 HEAD 2>/dev/null");
  if (rev.empty()) return "unknown (not a git checkout)";
  if (!command_output(git + "status --porcelain --untracked-files=no 2>/dev/null").empty()) {
    rev += "-dirty";
  }
  return rev;
}

}  // namespace

GpuStatus probe_gpu([[maybe_unused]] bool ceilings) {
#if GCBENCH_HAVE_CUDA
  return probe_cuda_gpu(ceilings);
#else
  return GpuStatus{false, {{"gpu", "none: built without CUDA"}}};
#endif
}

ContextEntries host_context(const Inputs& inputs, const std::vector<std::string>& corpora) {
  ContextEntries c;
  c.emplace_back("gcbench_version", GCBENCH_VERSION);
  c.emplace_back("git_revision", git_revision());
  c.emplace_back("cpu_model", cpu_model());
  c.emplace_back("hardware_threads", std::to_string(std::thread::hardware_concurrency()));
  c.emplace_back("zlib_version", zlibVersion());
  c.emplace_back("corpora", fmt::format("{}", fmt::join(corpora, ",")));
  if (!inputs.manifest_digest.empty())
    c.emplace_back("corpus_manifest_sha256", inputs.manifest_digest);
  for (const MissingInput& m : inputs.missing) {
    c.emplace_back("missing_file:" + m.corpus + "/" + m.name, m.reason);
  }
  for (const CodecPtr& codec : registry()) {
    const CodecInfo& info = codec->info();
    const std::string key = info.name + "/" + to_string(info.device);
    c.emplace_back("codec:" + key, info.version);
    // The defaults, written like cell names' axes: a report built elsewhere (say without
    // CUDA, so without the GPU codecs) still knows which cells are the default ones.
    std::vector<std::pair<std::string, std::string>> defaults;
    for (const AxisSpec& a : info.axes) defaults.emplace_back(a.name, a.format(a.default_value));
    c.emplace_back("defaults:" + key, format_params(defaults));
  }
  for (const UnavailableCodec& u : unavailable_codecs()) {
    c.emplace_back("unavailable_codec:" + u.name, u.reason);
  }
  return c;
}

}  // namespace gcbench::driver
