#include "src/results/result_document.hpp"

#include <array>
#include <cstddef>
#include <string>

namespace gcbench::results {
namespace {

struct FaultNames {
  std::string_view tag;   // a damaged file's suffix
  std::string_view text;  // in words
};

// In DocumentFault's order.
constexpr std::array<FaultNames, 3> kFaultNames{{
    {"not-json", "not valid JSON"},
    {"no-benchmarks", "not a Google Benchmark JSON document (no \"benchmarks\" array)"},
    {"bad-entry",
     "not a Google Benchmark JSON document (an entry of \"benchmarks\" is not an object)"},
}};

}  // namespace

std::optional<DocumentFault> fault_of(const nlohmann::json& doc) {
  if (doc.is_discarded()) return DocumentFault::not_json;
  if (!doc.is_object() || !doc.contains("benchmarks") || !doc["benchmarks"].is_array())
    return DocumentFault::no_benchmarks;
  for (const nlohmann::json& entry : doc["benchmarks"]) {
    if (!entry.is_object()) return DocumentFault::bad_entry;
  }
  return std::nullopt;
}

std::string_view fault_tag(DocumentFault fault) {
  return kFaultNames[static_cast<std::size_t>(fault)].tag;
}

std::string_view describe(DocumentFault fault) {
  return kFaultNames[static_cast<std::size_t>(fault)].text;
}

std::optional<CellId> cell_of(const nlohmann::json& entry) {
  return parse_cell_name(entry.value("run_name", entry.value("name", std::string())));
}

std::optional<GpuRecord> gpu_of(const nlohmann::json& entry) {
  const auto gpu = entry.find("gpu");
  if (gpu == entry.end() || !gpu->is_object()) return std::nullopt;
  const auto index = gpu->find("index");
  if (index == gpu->end() || !index->is_number_integer()) return std::nullopt;
  const auto text = [&](const char* key) {
    const auto it = gpu->find(key);
    return it != gpu->end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  return GpuRecord{index->get<int>(), text("name"), text("pci_bus_id"), text("uuid")};
}

}  // namespace gcbench::results
