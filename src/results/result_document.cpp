#include "src/results/result_document.hpp"

#include <array>
#include <cmath>
#include <cstddef>
#include <map>
#include <string>
#include <string_view>

namespace gcbench::results {
namespace {

using json = nlohmann::json;

// A field of an entry and the type every writer gives it.
struct FieldType {
  std::string_view name;
  json::value_t type;  // number_float stands for any number
};

constexpr std::array<FieldType, 18> kEntryFields{{
    {"name", json::value_t::string},
    {"run_name", json::value_t::string},
    {"run_type", json::value_t::string},
    {"aggregate_name", json::value_t::string},
    {"time_unit", json::value_t::string},
    {"error_message", json::value_t::string},
    {"label", json::value_t::string},
    {"error_occurred", json::value_t::boolean},
    {"real_time", json::value_t::number_float},
    {"cpu_time", json::value_t::number_float},
    {"iterations", json::value_t::number_float},
    {"repetitions", json::value_t::number_float},
    {"repetition_index", json::value_t::number_float},
    {"threads", json::value_t::number_float},
    {"family_index", json::value_t::number_float},
    {"per_family_instance_index", json::value_t::number_float},
    {"provenance", json::value_t::object},
    {"gpu", json::value_t::object},
}};

bool has_type(const json& value, json::value_t type) {
  return type == json::value_t::number_float ? value.is_number() : value.type() == type;
}

// "a string", "a number", "an object", ...; "null".
std::string with_article(std::string_view type_name) {
  if (type_name == "null") return "null";
  const bool vowel = std::string_view("aeiou").find(type_name.front()) != std::string_view::npos;
  return (vowel ? "an " : "a ") + std::string(type_name);
}

std::optional<DocumentFault> field_fault(const json& entry, std::size_t index) {
  for (const FieldType& field : kEntryFields) {
    const auto value = entry.find(field.name);
    if (value == entry.end() || has_type(*value, field.type)) continue;
    return DocumentFault{FaultKind::bad_field, "field \"" + std::string(field.name) +
                                                   "\" of benchmarks[" + std::to_string(index) +
                                                   "]: expected " +
                                                   with_article(json(field.type).type_name()) +
                                                   ", got " + with_article(value->type_name())};
  }
  return std::nullopt;
}

// A measured time longer than this is no measurement (a cell's calls are capped far below).
constexpr double kMaxTimeNs = 86400e9;
// Counters are byte counts, seconds, rates, ratios and flags: none is negative, none this large.
constexpr double kMaxCounter = 1e18;

// Nanoseconds per unit of Google Benchmark's time_unit ("ns" when absent); 0 for another.
double ns_per(const json& entry) {
  const std::string unit = entry.value("time_unit", std::string("ns"));
  if (unit == "ns") return 1;
  if (unit == "us") return 1e3;
  if (unit == "ms") return 1e6;
  if (unit == "s") return 1e9;
  return 0;
}

// A measured entry (no error) whose times or counters no measurement gives.
std::optional<DocumentFault> value_fault(const json& entry, std::size_t index) {
  if (entry.value("error_occurred", false)) return std::nullopt;
  const auto fault = [&](const std::string& what) {
    return DocumentFault{FaultKind::bad_value,
                         "benchmarks[" + std::to_string(index) + "]: " + what};
  };
  const double scale = ns_per(entry);
  if (scale == 0) return fault("unknown time_unit");
  for (const char* field : {"real_time", "cpu_time"}) {
    const auto t = entry.find(field);
    if (t == entry.end()) continue;
    const double ns = t->get<double>() * scale;
    // cpu_time of a GPU cell's manual timing may be near zero, never negative.
    const bool zero_allowed = std::string_view(field) == "cpu_time";
    if (!std::isfinite(ns) || ns < 0 || (ns == 0 && !zero_allowed) || ns > kMaxTimeNs) {
      return fault(std::string(field) + " " + t->dump() + " is no measured time");
    }
  }
  for (const auto& [key, value] : entry.items()) {
    if (!value.is_number()) continue;
    const double v = value.get<double>();
    if (!std::isfinite(v) || v < 0 || v > kMaxCounter) {
      return fault("\"" + key + "\" " + value.dump() + " is outside [0, 1e18]");
    }
  }
  return std::nullopt;
}

// What makes two entries the same measurement: cell, run type, aggregate, repetition, GPU.
std::string entry_key(const json& entry) {
  const auto gpu = entry.find("gpu");
  return entry.value("run_name", entry.value("name", std::string())) + "\n" +
         entry.value("run_type", std::string()) + "\n" +
         entry.value("aggregate_name", std::string()) + "\n" +
         entry.value("repetition_index", json(0)).dump() + "\n" +
         (gpu != entry.end() ? gpu->value("index", json(-1)).dump() : std::string("-"));
}

// In FaultKind's order.
constexpr std::array<std::string_view, 6> kFaultTags{"not-json",  "no-benchmarks", "bad-entry",
                                                     "bad-field", "bad-value",     "duplicate"};

}  // namespace

std::optional<DocumentFault> fault_of(const json& doc) {
  if (doc.is_discarded()) return DocumentFault{FaultKind::not_json, "not valid JSON"};
  if (!doc.is_object() || !doc.contains("benchmarks") || !doc["benchmarks"].is_array()) {
    return DocumentFault{FaultKind::no_benchmarks,
                         "not a Google Benchmark JSON document (no \"benchmarks\" array)"};
  }
  if (const auto context = doc.find("context"); context != doc.end() && !context->is_object()) {
    return DocumentFault{FaultKind::bad_field, "field \"context\": expected an object, got " +
                                                   with_article(context->type_name())};
  }
  const json& entries = doc["benchmarks"];
  std::map<std::string, std::size_t> seen;  // entry_key -> its first index
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (!entries[i].is_object()) {
      return DocumentFault{FaultKind::bad_entry,
                           "not a Google Benchmark JSON document (benchmarks[" + std::to_string(i) +
                               "] is not an object)"};
    }
    if (std::optional<DocumentFault> fault = field_fault(entries[i], i)) return fault;
    if (std::optional<DocumentFault> fault = value_fault(entries[i], i)) return fault;
    const auto [first, added] = seen.emplace(entry_key(entries[i]), i);
    if (!added && cell_of(entries[i])) {
      return DocumentFault{FaultKind::duplicate,
                           "benchmarks[" + std::to_string(i) + "] repeats benchmarks[" +
                               std::to_string(first->second) + "] (the same cell, run and GPU)"};
    }
  }
  return std::nullopt;
}

std::string_view fault_tag(FaultKind kind) {
  return kFaultTags[static_cast<std::size_t>(kind)];
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
