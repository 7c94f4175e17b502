#include "src/results/shard_plan.hpp"

#include <stdexcept>

#include <nlohmann/json.hpp>

#include "src/results/result_files.hpp"

namespace gcbench::results {
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

constexpr const char* kFormat = "gcbench shard plan 1";

}  // namespace

std::string Shard::to_string() const {
  return std::to_string(index) + "/" + std::to_string(count);
}

void write_plan(const fs::path& dir, const ShardPlan& plan) {
  // One cell a line: readable, and diffable between shards.
  std::string text =
      json({{"format", kFormat}, {"shard", plan.shard.index}, {"shards", plan.shard.count}}).dump();
  text.pop_back();  // the closing brace
  text += ",\n\"cells\": [";
  for (std::size_t i = 0; i < plan.cells.size(); ++i) {
    text +=
        (i == 0 ? "\n" : ",\n") + json::array({plan.cells[i].first, plan.cells[i].second}).dump();
  }
  text += "\n]}\n";
  write_file_atomically(dir / kPlanFileName, text);
}

std::optional<ShardPlan> read_plan(const fs::path& dir) {
  const fs::path path = dir / kPlanFileName;
  if (!fs::exists(path)) return std::nullopt;
  const json doc = read_json_file(path);
  auto bad = [&](const std::string& why) {
    return std::runtime_error(path.string() + " is not a gcbench shard plan: " + why);
  };
  if (doc.is_discarded() || !doc.is_object()) throw bad("not JSON");
  if (doc.value("format", "") != kFormat) throw bad("format is not '" + std::string(kFormat) + "'");
  ShardPlan plan;
  try {
    plan.shard = {doc.at("shard").get<int>(), doc.at("shards").get<int>()};
    for (const json& cell : doc.at("cells"))
      plan.cells.emplace_back(cell.at(0).get<std::string>(), cell.at(1).get<int>());
  } catch (const json::exception& e) {
    throw bad(e.what());
  }
  if (plan.shard.count < 1 || plan.shard.index < 1 || plan.shard.index > plan.shard.count)
    throw bad("shard " + plan.shard.to_string() + " is out of range");
  return plan;
}

std::vector<fs::path> plan_folders_under(const fs::path& dir) {
  std::vector<fs::path> folders =
      files_under(dir, [](const fs::path& path) { return path.filename() == kPlanFileName; });
  for (fs::path& folder : folders) folder = folder.parent_path();
  return folders;
}

}  // namespace gcbench::results
