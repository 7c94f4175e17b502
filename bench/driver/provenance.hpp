#pragma once
// What a recorded cell was measured under: the source revision, the build type, the codec's
// version, the GPU, whether its L2 was flushed (--cold-l2) and which timings it has (--timing).
// Every result entry carries its own ("provenance", beside Google Benchmark's fields), so that a
// rerun into the same --out-dir resumes only the cells recorded under this run's, and a file
// holding cells of several runs says so.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

#include "src/results/cell_name.hpp"

namespace gcbench::driver {

struct Provenance {
  std::string git_revision;
  std::string build_type;
  std::string codec_version;
  std::string gpu_uuid;  // empty for CPU cells, and for GPU cells of a run without a usable GPU
  // "cold" for a GPU cell whose L2 was flushed before every timed call (--cold-l2); empty
  // otherwise, as in entries written before --cold-l2 existed, whose L2 was warm.
  std::string l2;
  // "kernel" for a GPU cell measured with --timing kernel (the device call alone: no
  // end-to-end figures); empty when it has every timing, as in entries written before
  // --timing existed.
  std::string timing;
  // SHA-256 of the input file the cell measured, where the run knew it (the user's files
  // always; corpus files where the manifest has one); empty in entries written before inputs
  // were recorded, which are not compared.
  std::string input_sha256;
  bool operator==(const Provenance&) const = default;
};

nlohmann::json to_json(const Provenance& p);

// The "provenance" object of a result entry; std::nullopt when it has none (an entry written
// before cells carried one) or it is malformed.
std::optional<Provenance> provenance_of(const nlohmann::json& entry);

// How a git revision this run cannot read begins ("unknown (<why>)").
inline constexpr std::string_view kUnknownRevision = "unknown";

// Whether `git_revision` says the revision could not be read.
inline bool is_unknown_revision(const std::string& git_revision) {
  return git_revision.starts_with(kUnknownRevision);
}

// What changed from `recorded` to `now`, field by field, e.g. "git revision abc, now def";
// "" when nothing did. Timings are a set, not a value: a cell recorded with every timing has
// what a kernel-only run asks for, so only the other way round is a change. A revision this
// run cannot read (is_unknown_revision(now.git_revision)) is compared with nothing: not knowing
// is no evidence of a change, and measuring every cell again for it would throw results away
// (the entries measured now record "unknown (<why>)"). A recorded unknown revision, now known,
// is a change: those cells are measured again under a revision that says what they measured.
std::string describe_change(const Provenance& recorded, const Provenance& now);

// The GPU a GPU cell ran on, recorded in each of its result entries ("gpu"), so that a
// --gpus run's merged results still say which GPU measured what.
struct GpuIdentity {
  int index = 0;  // --gpus's numbering (PCI bus order); in a plain run, the CUDA ordinal
  std::string name;
  std::string pci_bus_id;  // "0000:1B:00.0", as CUDA writes it
  std::string uuid;        // "GPU-<hex>", as nvidia-smi names it
  bool operator==(const GpuIdentity&) const = default;
};

nlohmann::json to_json(const GpuIdentity& gpu);

// What this run records its cells under.
struct RunProvenance {
  std::string git_revision;
  std::string build_type;
  std::string gpu_uuid;
  std::map<std::string, std::string> codec_versions;  // "<codec>/<device>" -> version
  std::optional<GpuIdentity> gpu;  // written into GPU cells' entries; none without a GPU
  bool cold_l2 = false;            // GPU cells' L2 flushed before every timed call
  bool kernel_only = false;        // GPU cells time the device call alone (--timing kernel)
  // (corpus, file) -> the input's SHA-256, where the run knows it.
  std::map<std::pair<std::string, std::string>, std::string> input_digests;

  Provenance of(const results::CellId& cell) const;
};

}  // namespace gcbench::driver
