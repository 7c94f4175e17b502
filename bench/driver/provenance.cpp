#include "bench/driver/provenance.hpp"

#include <tuple>
#include <utility>

namespace gcbench::driver {
using json = nlohmann::json;

json to_json(const Provenance& p) {
  json j{{"git_revision", p.git_revision},
         {"build_type", p.build_type},
         {"codec_version", p.codec_version},
         {"gpu_uuid", p.gpu_uuid}};
  if (!p.l2.empty()) j["l2"] = p.l2;
  if (!p.timing.empty()) j["timing"] = p.timing;
  if (!p.input_sha256.empty()) j["input_sha256"] = p.input_sha256;
  return j;
}

json to_json(const GpuIdentity& gpu) {
  return json{
      {"index", gpu.index}, {"name", gpu.name}, {"pci_bus_id", gpu.pci_bus_id}, {"uuid", gpu.uuid}};
}

std::optional<Provenance> provenance_of(const json& entry) {
  const auto it = entry.find("provenance");
  if (it == entry.end() || !it->is_object()) return std::nullopt;
  Provenance p;
  for (auto [key, field] :
       {std::pair{"git_revision", &p.git_revision}, std::pair{"build_type", &p.build_type},
        std::pair{"codec_version", &p.codec_version}, std::pair{"gpu_uuid", &p.gpu_uuid}}) {
    const auto value = it->find(key);
    if (value == it->end() || !value->is_string()) return std::nullopt;
    *field = value->get<std::string>();
  }
  for (auto [key, field] : {std::pair{"l2", &p.l2}, std::pair{"timing", &p.timing},
                            std::pair{"input_sha256", &p.input_sha256}}) {
    const auto value = it->find(key);
    if (value == it->end()) continue;  // absent in older entries: warm, every timing, unknown
    if (!value->is_string()) return std::nullopt;
    *field = value->get<std::string>();
  }
  return p;
}

std::string describe_change(const Provenance& recorded, const Provenance& now) {
  std::string text;
  for (auto [what, before, after] :
       {std::tuple{"git revision", &recorded.git_revision, &now.git_revision},
        std::tuple{"build type", &recorded.build_type, &now.build_type},
        std::tuple{"codec version", &recorded.codec_version, &now.codec_version},
        std::tuple{"GPU", &recorded.gpu_uuid, &now.gpu_uuid}}) {
    if (*before == *after || (before == &recorded.git_revision && is_unknown_revision(*after)))
      continue;
    if (!text.empty()) text += "; ";
    text += std::string(what) + " " + (before->empty() ? "(none)" : *before) + ", now " +
            (after->empty() ? "(none)" : *after);
  }
  if (recorded.l2 != now.l2) {
    if (!text.empty()) text += "; ";
    text += "L2 " + (recorded.l2.empty() ? std::string("warm") : recorded.l2) + ", now " +
            (now.l2.empty() ? std::string("warm") : now.l2);
  }
  // Empty is every timing, which covers any subset a run asks for.
  if (recorded.timing != now.timing && !recorded.timing.empty()) {
    if (!text.empty()) text += "; ";
    text += "timing " + recorded.timing + ", now " + (now.timing.empty() ? "all" : now.timing);
  }
  // An entry without a digest predates their recording: its input is taken as unchanged.
  if (!recorded.input_sha256.empty() && !now.input_sha256.empty() &&
      recorded.input_sha256 != now.input_sha256) {
    if (!text.empty()) text += "; ";
    text += "the input file changed (sha256 " + recorded.input_sha256.substr(0, 12) + ", now " +
            now.input_sha256.substr(0, 12) + ")";
  }
  return text;
}

Provenance RunProvenance::of(const results::CellId& cell) const {
  const auto version = codec_versions.find(cell.codec + "/" + cell.device);
  const bool gpu_cell = cell.device == "gpu";
  const auto input = input_digests.find({cell.corpus, cell.file});
  return Provenance{git_revision,
                    build_type,
                    version == codec_versions.end() ? std::string() : version->second,
                    gpu_cell ? gpu_uuid : std::string(),
                    gpu_cell && cold_l2 ? "cold" : std::string(),
                    gpu_cell && kernel_only ? "kernel" : std::string(),
                    input == input_digests.end() ? std::string() : input->second};
}

}  // namespace gcbench::driver
