#include "src/results/shard_merge.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_map>
#include <utility>

#include <nlohmann/json.hpp>

#include "src/results/cell_name.hpp"
#include "src/results/folder_export.hpp"
#include "src/results/result_document.hpp"
#include "src/results/result_files.hpp"
#include "src/results/shard_plan.hpp"

namespace gcbench::results {
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

constexpr std::size_t kExamples = 5;  // cell names shown per missing shard

// Context keys that name the build: inputs differing in one were measured by different code.
bool is_build_key(const std::string& key) {
  return key == "git_revision" || key == "gcbench_version" || key == "corpus_manifest_sha256" ||
         key.starts_with("codec:") || key.starts_with("defaults:");
}

// Context keys that name the machine, where it ran (host, Slurm node) or its run-time choices:
// said when they vary.
bool is_machine_key(const std::string& key) {
  return key == "gpu" || key == "cpu_model" || key == "hardware_threads" || key == "host_name" ||
         key == "slurm_node" || key.starts_with("auto:");
}

struct Input {
  fs::path root;
  std::map<std::string, ShardPlan> plans;  // folder under root ("" = root) -> its plan
};

struct CellRows {
  std::string name;
  std::optional<GpuRecord> replica;  // the GPU of a GPU replica (ShardMergeOptions::gpu_replicas)
  std::vector<json> rows;            // repetitions and aggregates, in the file's order
};

struct SourceFile {
  std::size_t input = 0;
  std::string rel;                   // its path under the input: the merged file's path
  std::optional<std::string> scope;  // the folder of the plan it belongs to
  json context;
  std::vector<CellRows> cells;  // in order of first appearance
};

// "where: " for a plan's folder under the inputs, "" for their root.
std::string prefix(const std::string& scope) {
  return scope.empty() ? "" : scope + ": ";
}

fs::path normalized(const fs::path& p) {
  fs::path n = fs::weakly_canonical(p);
  return n.has_filename() ? n : n.parent_path();
}

bool within(const fs::path& inner, const fs::path& outer) {
  auto [o, i] = std::mismatch(outer.begin(), outer.end(), inner.begin(), inner.end());
  return o == outer.end();
}

// The folder of the nearest plan at or above `rel`'s folder, if any.
std::optional<std::string> scope_of(const fs::path& rel,
                                    const std::map<std::string, ShardPlan>& plans) {
  for (fs::path dir = rel.parent_path();; dir = dir.parent_path()) {
    if (plans.count(dir.generic_string())) return dir.generic_string();
    if (dir.empty()) return std::nullopt;
  }
}

// The result file at `path` (`rel` under its input); nullopt for an export of a folder.
std::optional<SourceFile> read_source(std::size_t input, const fs::path& path, const fs::path& rel,
                                      bool gpu_replicas) {
  json doc = read_json_file(path);
  if (auto fault = fault_of(doc))
    throw ShardMergeError(path.string() + ": " + std::string(describe(*fault)));
  if (is_folder_export(doc)) return std::nullopt;
  SourceFile file{
      input, rel.generic_string(), std::nullopt, doc.value("context", json::object()), {}};
  std::unordered_map<std::string, std::size_t> at;
  for (json& row : doc["benchmarks"]) {
    const auto id = cell_of(row);
    if (!id) throw ShardMergeError(path.string() + ": a row that is not a gcbench cell");
    std::string name = format_cell_name(*id);
    auto [it, added] = at.emplace(name, file.cells.size());
    if (added) {
      std::optional<GpuRecord> replica;
      if (gpu_replicas && id->device == "gpu") replica = gpu_of(row);
      file.cells.push_back({std::move(name), std::move(replica), {}});
    }
    file.cells[it->second].rows.push_back(std::move(row));
  }
  return file;
}

class Merger {
 public:
  Merger(const std::vector<fs::path>& roots, const fs::path& out_dir,
         const ShardMergeOptions& options)
      : out_dir_(out_dir), options_(options) {
    for (const fs::path& root : roots) inputs_.push_back({root, {}});
  }

  ShardMergeResult run() {
    check_out_dir();
    for (std::size_t i = 0; i < inputs_.size(); ++i) read_input(i);
    fail_on_problems();
    check_contexts();
    check_plans();
    check_duplicates();
    check_missing();
    fail_on_problems();
    write();
    return std::move(result_);
  }

 private:
  const std::string& name(std::size_t input) const { return inputs_[input].root.native(); }

  void fail_on_problems() {
    if (problems_.empty()) return;
    throw ShardMergeError(fmt::format("{}", fmt::join(problems_, "\n")));
  }

  void check_out_dir() {
    const fs::path out = normalized(out_dir_);
    for (const Input& in : inputs_) {
      if (!fs::exists(in.root)) continue;  // said when the input is read
      const fs::path root = normalized(in.root);
      if (within(out, root) || within(root, out)) {
        throw ShardMergeError(
            fmt::format("the merged folder {} and the input {} overlap: merge into "
                        "a folder outside the inputs",
                        out_dir_.string(), in.root.string()));
      }
    }
    if (!fs::exists(out_dir_)) return;
    if (!fs::is_directory(out_dir_)) throw ShardMergeError(out_dir_.string() + " is not a folder");
    const std::vector<fs::path> held = files_under(out_dir_, [](const fs::path& p) {
      return p.extension() == ".json" || p.filename() == kPlanFileName;
    });
    if (!held.empty()) {
      throw ShardMergeError(
          fmt::format("{} already holds results ({}): merge into a new or empty folder",
                      out_dir_.string(), held.front().string()));
    }
  }

  void read_input(std::size_t i) {
    Input& in = inputs_[i];
    if (!fs::is_directory(in.root)) {
      problems_.push_back(in.root.string() + (fs::exists(in.root)
                                                  ? ": not a folder (give each shard's --out-dir)"
                                                  : ": no such folder"));
      return;
    }
    for (const fs::path& folder : plan_folders_under(in.root)) {
      try {
        const fs::path rel = (folder / kPlanFileName).lexically_relative(in.root);
        in.plans.emplace(rel.parent_path().generic_string(), *read_plan(folder));
      } catch (const std::runtime_error& err) {
        problems_.push_back(err.what());
      }
    }
    const std::vector<fs::path> result_files = json_files_under(in.root);
    if (result_files.empty() && in.plans.empty()) {
      problems_.push_back(in.root.string() + " holds no gcbench results (no *.json, no " +
                          kPlanFileName + ")");
      return;
    }
    bool unplanned = false;
    for (const fs::path& path : result_files) {
      const fs::path rel = path.lexically_relative(in.root);
      try {
        std::optional<SourceFile> file = read_source(i, path, rel, options_.gpu_replicas);
        if (!file) {
          result_.notes.push_back(fmt::format(
              "{} skipped: an export of its folder (gcbench --export), whose cells are in the "
              "folder's result files",
              path.string()));
          continue;
        }
        file->scope = scope_of(rel, in.plans);
        unplanned = unplanned || !file->scope;
        files_.push_back(std::move(*file));
      } catch (const ShardMergeError& err) {
        problems_.push_back(err.what());
      }
    }
    if (unplanned) {
      result_.notes.push_back(
          fmt::format("{} holds results without a shard plan ({}): cells "
                      "missing from them cannot be detected",
                      in.root.string(), kPlanFileName));
    }
  }

  // Per context key, each value and the inputs that recorded it.
  std::map<std::string, std::map<std::string, std::set<std::size_t>>> context_values(
      bool (*wanted)(const std::string&)) const {
    std::map<std::string, std::map<std::string, std::set<std::size_t>>> values;
    for (const SourceFile& f : files_) {
      for (const auto& [key, value] : f.context.items()) {
        if (value.is_string() && wanted(key)) values[key][value.get<std::string>()].insert(f.input);
      }
    }
    return values;
  }

  std::string describe(const std::map<std::string, std::set<std::size_t>>& values) const {
    std::vector<std::string> parts;
    for (const auto& [value, inputs] : values) {
      std::vector<std::string> names;
      for (std::size_t i : inputs) names.push_back(name(i));
      parts.push_back(fmt::format("'{}' in {}", value, fmt::join(names, ", ")));
    }
    return fmt::format("{}", fmt::join(parts, "; "));
  }

  void check_contexts() {
    bool differ = false;
    for (const auto& [key, values] : context_values(is_build_key)) {
      if (values.size() < 2) continue;
      differ = true;
      if (!options_.allow_different_revisions)
        problems_.push_back(fmt::format("different builds: {} is {}", key, describe(values)));
    }
    if (differ && !options_.allow_different_revisions) {
      problems_.push_back(
          "  (results of different revisions are not comparable; --allow-different-revisions "
          "merges them anyway, marked in the merged context and report)");
    }
    if (differ) result_.notes.push_back("merged results of different builds (see the context)");
    for (const auto& [key, values] : context_values(is_machine_key)) {
      if (values.size() > 1)
        result_.notes.push_back(fmt::format("the inputs differ in {}: {}", key, describe(values)));
    }
  }

  // The scope of the plan in `folder` of `input`: the folder, and with GPU replicas the input
  // too (each input ran the whole sweep).
  std::string scope_key(std::size_t input, const std::string& folder) const {
    if (!options_.gpu_replicas) return folder;
    return folder.empty() ? name(input) : name(input) + "/" + folder;
  }

  void check_plans() {
    for (std::size_t i = 0; i < inputs_.size(); ++i) {
      for (const auto& [folder, plan] : inputs_[i].plans) {
        const std::string scope = scope_key(i, folder);
        auto [it, first] = scopes_.try_emplace(scope, Scope{plan, {}});
        Scope& s = it->second;
        if (!first && (plan.shard.count != s.plan.shard.count || plan.cells != s.plan.cells)) {
          problems_.push_back(fmt::format(
              "{}the shard plans of {} and {} differ ({} vs {} shards, {} vs {} cells): shards "
              "of different sweeps (other flags or corpora, or a machine without a usable GPU)",
              prefix(scope), name(s.holder.begin()->second), name(i), s.plan.shard.count,
              plan.shard.count, s.plan.cells.size(), plan.cells.size()));
          continue;
        }
        auto [held, added] = s.holder.emplace(plan.shard.index, i);
        if (!added) {
          problems_.push_back(fmt::format("{}shard {} is given twice: {} and {}", prefix(scope),
                                          plan.shard.to_string(), name(held->second), name(i)));
        }
      }
    }
    for (const auto& [scope, s] : scopes_) {
      for (const auto& [index, input] : s.holder)
        result_.shards.push_back(fmt::format("{}{}/{}", prefix(scope), index, s.plan.shard.count));
    }
  }

  void check_duplicates() {
    // (file, cell, GPU replica) -> input
    std::map<std::tuple<std::string, std::string, std::optional<int>>, std::size_t> seen;
    for (const SourceFile& f : files_) {
      for (const CellRows& c : f.cells) {
        const std::optional<int> gpu =
            c.replica ? std::optional<int>(c.replica->index) : std::nullopt;
        auto [it, added] = seen.emplace(std::tuple(f.rel, c.name, gpu), f.input);
        if (!added) {
          problems_.push_back(fmt::format("duplicated cell {}{} (in {}): recorded in {} and in {}",
                                          c.name, gpu ? fmt::format(" on GPU {}", *gpu) : "", f.rel,
                                          name(it->second), name(f.input)));
        }
      }
    }
  }

  void check_missing() {
    std::map<std::string, std::set<std::string>> present;  // scope -> cells
    for (const SourceFile& f : files_) {
      if (!f.scope) continue;
      for (const CellRows& c : f.cells) present[scope_key(f.input, *f.scope)].insert(c.name);
    }
    std::vector<std::string> missing;
    std::size_t unplanned = 0;
    for (const auto& [scope, s] : scopes_) {
      const int count = s.plan.shard.count;
      std::map<int, std::vector<std::string>> absent;  // shard -> its missing cells
      std::map<int, std::size_t> planned;
      std::set<std::string> in_plan;
      for (const auto& [cell, shard] : s.plan.cells) {
        ++planned[shard];
        in_plan.insert(cell);
        if (!present[scope].count(cell)) absent[shard].push_back(cell);
      }
      for (const std::string& cell : present[scope]) unplanned += in_plan.count(cell) ? 0 : 1;
      for (int k = 1; k <= count; ++k) {
        const std::vector<std::string>& cells = absent[k];
        const std::string shard = fmt::format("{}shard {}/{}", prefix(scope), k, count);
        auto holder = s.holder.find(k);
        if (holder == s.holder.end() || !cells.empty()) {
          result_.missing_shards.push_back(
              {scope,
               {k, count},
               holder == s.holder.end() ? std::nullopt
                                        : std::optional<fs::path>(inputs_[holder->second].root),
               planned[k],
               cells});
        }
        if (holder == s.holder.end()) {
          missing.push_back(
              fmt::format("{} is missing (no input holds its plan): its {} cells "
                          "are missing",
                          shard, planned[k]));
        } else if (!cells.empty()) {
          missing.push_back(fmt::format(
              "{} ({}) is missing {} of its {} cells (did it finish? rerun it: it resumes), "
              "e.g. {}",
              shard, name(holder->second), cells.size(), planned[k],
              fmt::join(
                  cells.begin(),
                  cells.begin() + static_cast<std::ptrdiff_t>(std::min(kExamples, cells.size())),
                  ", ")));
        }
        for (const std::string& cell : cells)
          result_.missing_cells.push_back(
              fmt::format("{}{} ({}/{})", prefix(scope), cell, k, count));
      }
    }
    if (unplanned > 0) {
      result_.notes.push_back(
          fmt::format("{} cells are in no shard plan (recorded by another run in a shard's "
                      "folder); merged as they are",
                      unplanned));
    }
    if (missing.empty()) return;
    if (options_.allow_missing) {
      for (std::string& m : missing) result_.notes.push_back(std::move(m));
      return;
    }
    result_.missing_cells.clear();
    result_.missing_shards.clear();
    for (std::string& m : missing) problems_.push_back(std::move(m));
    problems_.push_back(
        "  (a missing shard is never left out silently; --allow-missing merges what there is, "
        "marked in the merged context and report)");
  }

  // The merged context of one output file from its sources' (ordered by shard).
  json merged_context(const std::vector<const SourceFile*>& sources) const {
    json context = sources.front()->context;
    std::map<std::string, std::set<std::string>> values;
    std::set<std::string> shards;
    for (const SourceFile* f : sources) {
      for (const auto& [key, value] : f->context.items()) {
        if (value.is_string()) values[key].insert(value.get<std::string>());
      }
      if (auto it = f->context.find("shard"); it != f->context.end() && it->is_string())
        shards.insert(it->get<std::string>());
    }
    for (const auto& [key, distinct] : values) {
      if (distinct.size() < 2) continue;
      const std::string all = fmt::format("{}", fmt::join(distinct, " | "));
      if (is_build_key(key)) context[key] = "mixed (--allow-different-revisions): " + all;
      if (is_machine_key(key)) context["merged_differs:" + key] = all;
    }
    context.erase("shard");
    if (options_.mark_merged_from)
      context["merged_from"] = fmt::format("{} inputs", inputs_.size());
    std::set<int> replicas;
    for (const SourceFile* f : sources) {
      for (const CellRows& c : f->cells) {
        if (c.replica) replicas.insert(c.replica->index);
      }
    }
    if (!replicas.empty())
      context[std::string(kGpuReplicasKey)] = fmt::format("{}", fmt::join(replicas, ","));
    for (const auto& [key, value] : options_.context) context[key] = value;
    if (!shards.empty()) context["merged_shards"] = fmt::format("{}", fmt::join(shards, ","));
    if (!result_.missing_cells.empty()) {
      context["merge_missing_cells"] = fmt::format(
          "{} (merged with --allow-missing; see missing-cells.txt)", result_.missing_cells.size());
    }
    return context;
  }

  void write() {
    std::map<std::string, std::vector<const SourceFile*>> by_rel;
    for (const SourceFile& f : files_) by_rel[f.rel].push_back(&f);
    std::map<std::string, std::unordered_map<std::string, std::size_t>> position;  // per scope
    for (const auto& [scope, s] : scopes_) {
      auto& at = position[scope];
      for (std::size_t i = 0; i < s.plan.cells.size(); ++i) at.emplace(s.plan.cells[i].first, i);
    }
    for (auto& [rel, sources] : by_rel) {
      // Files in no plan last, as their cells: the merged context is a planned shard's.
      auto shard_of = [&](const SourceFile* f) {
        return f->scope ? inputs_[f->input].plans.at(*f->scope).shard.index : INT_MAX;
      };
      std::stable_sort(
          sources.begin(), sources.end(),
          [&](const SourceFile* a, const SourceFile* b) { return shard_of(a) < shard_of(b); });
      // Rows in the plan's (the unsharded run's) order; cells in no plan after them.
      std::vector<std::pair<std::size_t, const CellRows*>> cells;
      for (const SourceFile* f : sources) {
        const auto* at = f->scope ? &position.at(scope_key(f->input, *f->scope)) : nullptr;
        for (const CellRows& c : f->cells) {
          std::size_t order = SIZE_MAX;
          if (at != nullptr) {
            if (auto it = at->find(c.name); it != at->end()) order = it->second;
          }
          cells.emplace_back(order, &c);
        }
      }
      std::stable_sort(cells.begin(), cells.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
      json rows = json::array();
      for (const auto& [at, c] : cells) {
        for (const json& row : c->rows) rows.push_back(row);
      }
      result_.cells += cells.size();
      ++result_.files;
      write_json_file(out_dir_ / rel, {{"context", merged_context(sources)}, {"benchmarks", rows}});
    }
    if (!result_.missing_cells.empty()) {
      write_file_atomically(out_dir_ / kMissingCellsFile,
                            fmt::format("{}\n", fmt::join(result_.missing_cells, "\n")));
    }
  }

  struct Scope {
    ShardPlan plan;                     // the first input's; the others must equal it
    std::map<int, std::size_t> holder;  // shard index -> the input holding its plan
  };

  fs::path out_dir_;
  ShardMergeOptions options_;
  std::vector<Input> inputs_;
  std::vector<SourceFile> files_;
  std::map<std::string, Scope> scopes_;  // plan folder -> the plans there
  std::vector<std::string> problems_;
  ShardMergeResult result_;
};

}  // namespace

ShardMergeResult merge_shards(const std::vector<fs::path>& inputs, const fs::path& out_dir,
                              const ShardMergeOptions& options) {
  if (inputs.empty()) throw ShardMergeError("no input folders to merge");
  return Merger(inputs, out_dir, options).run();
}

}  // namespace gcbench::results
