#include "bench/driver/context.hpp"

#include <fmt/format.h>

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "bench/driver/gpus.hpp"
#include "gcbench/cores.hpp"
#include "gcbench/registry.hpp"
#include "src/results/cell_name.hpp"
#include "src/results/result_document.hpp"

namespace gcbench::driver {
namespace {

// The first processor's "<key>\t: <value>" fields of /proc/cpuinfo.
std::map<std::string, std::string> cpuinfo() {
  std::ifstream in("/proc/cpuinfo");
  std::map<std::string, std::string> fields;
  std::string line;
  while (std::getline(in, line) && !line.empty()) {
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::size_t key_end = line.find_last_not_of(" \t", colon - 1);
    const std::size_t value = line.find_first_not_of(' ', colon + 1);
    fields[line.substr(0, key_end + 1)] = value == std::string::npos ? "" : line.substr(value);
  }
  return fields;
}

// The model name in full, as the kernel has it (a virtual machine may be given a generic one:
// family, model and stepping still tell the generation, and "cpu_virtualized" says so).
void add_cpu_context(ContextEntries& c) {
  const std::map<std::string, std::string> cpu = cpuinfo();
  const auto field = [&](const std::string& key) {
    const auto it = cpu.find(key);
    return it == cpu.end() ? std::string("unknown") : it->second;
  };
  c.emplace_back("cpu_model", field("model name"));
  c.emplace_back("cpu_vendor", field("vendor_id"));
  c.emplace_back("cpu_family_model_stepping",
                 fmt::format("{} {} {}", field("cpu family"), field("model"), field("stepping")));
  std::istringstream flags(field("flags"));
  const bool virtualized =
      std::find(std::istream_iterator<std::string>(flags), std::istream_iterator<std::string>(),
                "hypervisor") != std::istream_iterator<std::string>();
  c.emplace_back("cpu_virtualized", virtualized ? "yes (hypervisor flag)" : "no");
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
// A tree with uncommitted changes is "<commit>-dirty-<digest of the diff>": cells recorded
// before and after another edit are not taken for the same revision.
std::string read_git_revision() {
  if (std::ifstream snapshot(GCBENCH_SOURCE_DIR "/REVISION"); snapshot) {
    std::string rev;
    if (std::getline(snapshot, rev) && !rev.empty()) return rev + " (snapshot)";
  }
  const std::string git = "git -C '" GCBENCH_SOURCE_DIR "' ";
  // Standard error too: why git failed (another user's checkout: "dubious ownership").
  std::string rev = command_output(git + "rev-parse --short=12 HEAD 2>&1");
  if (rev.find("not a git repository") != std::string::npos) {
    return std::string(kUnknownRevision) + " (not a git checkout)";
  }
  if (rev.empty() || rev.find_first_of(" \n") != std::string::npos) {
    return std::string(kUnknownRevision) +
           " (git rev-parse failed: " + rev.substr(0, rev.find('\n')) + ")";
  }
  if (!command_output(git + "status --porcelain --untracked-files=no 2>/dev/null").empty()) {
    rev += "-dirty-" + command_output(git + "diff HEAD 2>/dev/null | sha256sum").substr(0, 8);
  }
  return rev;
}

}  // namespace

std::string git_revision() {
  static const std::string revision = read_git_revision();  // host context and provenance
  return revision;
}

GpuStatus probe_gpu([[maybe_unused]] bool ceilings) {
#if GCBENCH_HAVE_CUDA
  return probe_cuda_gpu(ceilings);
#else
  GpuStatus status;
  status.context.emplace_back("gpu", "none: built without CUDA");
  for (auto& entry : unavailable_nvml_fields("built without CUDA"))
    status.context.push_back(std::move(entry));
  return status;
#endif
}

std::vector<GpuIdentity> list_gpus() {
#if GCBENCH_HAVE_CUDA
  return list_cuda_gpus();
#else
  throw std::runtime_error("this gcbench was built without CUDA");
#endif
}

ContextEntries unavailable_nvml_fields(const std::string& reason) {
  ContextEntries c;
  for (const char* field : kNvmlFields) c.emplace_back(field, "unavailable: " + reason);
  return c;
}

RunProvenance run_provenance(const GpuStatus& gpu) {
  RunProvenance p;
  p.git_revision = git_revision();
  p.build_type = GCBENCH_BUILD_TYPE;
  p.gpu_uuid = gpu.uuid;
  p.gpu = gpu.identity;
  for (const CodecPtr& codec : registry()) {
    const CodecInfo& info = codec->info();
    p.codec_versions[info.name + "/" + to_string(info.device)] = info.version;
  }
  return p;
}

ColdL2Plan plan_cold_l2(bool requested, std::size_t gpu_cells, const std::string& gpu) {
  if (!requested) {
    return {false, "no: warm, a timed GPU call may find its input in L2 (no --cold-l2)", {}};
  }
  if (gpu_cells > 0) return {true, "", {}};
  const std::string why = fmt::format("no GPU cells in this run (GPU: {})", gpu);
  return {false, "requested, not applied: " + why,
          "--cold-l2: " + why + "; nothing to flush, the other cells run as asked"};
}

ContextEntries slurm_context(const std::function<const char*(const char*)>& env) {
  ContextEntries c;
  if (const char* node = env("SLURMD_NODENAME")) c.emplace_back("slurm_node", node);
  const char* job = env("SLURM_JOB_ID");
  const char* array = env("SLURM_ARRAY_JOB_ID");
  const char* task = env("SLURM_ARRAY_TASK_ID");
  if (array != nullptr && task != nullptr) {
    c.emplace_back("slurm_job", fmt::format("{}_{}{}", array, task,
                                            job != nullptr ? fmt::format(" (job {})", job) : ""));
  } else if (job != nullptr) {
    c.emplace_back("slurm_job", job);
  }
  return c;
}

ContextEntries host_context(const Inputs& inputs, const std::vector<std::string>& corpora) {
  ContextEntries c;
  c.emplace_back("gcbench_version", GCBENCH_VERSION);
  c.emplace_back("git_revision", git_revision());
  c.emplace_back("build_type", GCBENCH_BUILD_TYPE);
  add_cpu_context(c);
  c.emplace_back("hardware_threads", std::to_string(std::thread::hardware_concurrency()));
  // A --gpus worker runs on its share of the host: the cores its threads may use.
  c.emplace_back("cpu_affinity",
                 fmt::format("{} ({} cores)", format_core_list(affinity_cores()), usable_cores()));
  c.emplace_back("zlib_version", zlibVersion());
  for (auto& entry : slurm_context([](const char* name) { return std::getenv(name); }))
    c.push_back(std::move(entry));
  c.emplace_back("corpora", fmt::format("{}", fmt::join(corpora, ",")));
  if (!inputs.manifest_digest.empty())
    c.emplace_back("corpus_manifest_sha256", inputs.manifest_digest);
  if (inputs.user_files > 0) {
    // Each file's own digest is in its cells' provenance (input_sha256).
    c.emplace_back("user_files", std::to_string(inputs.user_files));
    c.emplace_back("user_files_sha256", inputs.user_files_digest);
  }
  for (const MissingInput& m : inputs.missing) {
    c.emplace_back(std::string(results::kMissingFileKey) + m.corpus + "/" + m.name, m.reason);
  }
  std::map<std::string, std::size_t> typed;  // corpus -> its typed inputs
  for (const InputFile& f : inputs.present) {
    if (f.element_width) ++typed[f.corpus];
  }
  for (const auto& [corpus, count] : typed) {
    c.emplace_back(std::string(results::kTypedCorpusKey) + corpus,
                   fmt::format("{} typed inputs", count));
  }
  for (const CodecPtr& codec : registry()) {
    const CodecInfo& info = codec->info();
    const std::string key = info.name + "/" + to_string(info.device);
    c.emplace_back("codec:" + key, info.version);
    // What a peer or baseline is and how it is called (its API and path), for the report.
    if (info.role != Role::studied) c.emplace_back("about:" + key, info.description);
    if (!info.reference_primitive.empty())
      c.emplace_back("primitive:" + key, info.reference_primitive);
    // The defaults, written like cell names' axes: a report built elsewhere (say without
    // CUDA, so without the GPU codecs) still knows which cells are the default ones.
    std::vector<std::pair<std::string, std::string>> defaults;
    for (const AxisSpec& a : info.axes) defaults.emplace_back(a.name, a.format(a.default_value));
    c.emplace_back(std::string(results::kDefaultsKey) + key, results::format_params(defaults));
  }
  for (const UnavailableCodec& u : unavailable_codecs()) {
    c.emplace_back("unavailable_codec:" + u.name, u.reason);
  }
  return c;
}

}  // namespace gcbench::driver
