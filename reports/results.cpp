#include "reports/results.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>
#include <stdexcept>

#include "reports/stats.hpp"
#include "src/results/counters.hpp"
#include "src/results/folder_export.hpp"
#include "src/results/result_document.hpp"
#include "src/results/result_files.hpp"

namespace gcbench::reports {
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

double to_seconds(double value, const std::string& unit) {
  if (unit == "ns") return value * 1e-9;
  if (unit == "us") return value * 1e-6;
  if (unit == "ms") return value * 1e-3;
  if (unit == "s") return value;
  throw std::runtime_error("unknown time unit '" + unit + "'");
}

double coefficient_of_variation(const std::vector<double>& v) {
  if (v.size() < 2) return 0;
  double mean = 0;
  for (double x : v) mean += x;
  mean /= static_cast<double>(v.size());
  double var = 0;
  for (double x : v) var += (x - mean) * (x - mean);
  var /= static_cast<double>(v.size() - 1);
  return mean == 0 ? 0 : std::sqrt(var) / mean;
}

// Keys of a benchmark entry that are Google Benchmark's own, not user counters.
bool is_counter(const std::string& key, const json& value) {
  static const std::set<std::string> kOwn = {"real_time",
                                             "cpu_time",
                                             "iterations",
                                             "family_index",
                                             "per_family_instance_index",
                                             "repetitions",
                                             "repetition_index",
                                             "threads",
                                             "bytes_per_second",
                                             "items_per_second"};
  return value.is_number() && !kOwn.count(key);
}

// One cell's rows: repetitions (iteration rows), or only aggregates when the run used
// --benchmark_report_aggregates_only.
Measurement summarize(const results::CellId& id, const std::vector<const json*>& rows) {
  Measurement m;
  m.id = id;
  std::vector<const json*> use;
  for (const json* r : rows) {
    if (r->value("error_occurred", false)) {
      m.error = r->value("error_message", std::string("error"));
      return m;
    }
    if (r->value("run_type", "iteration") == "iteration") use.push_back(r);
  }
  if (use.empty()) {
    for (const json* r : rows) {
      if (r->value("aggregate_name", "") == "median") use.push_back(r);
      if (r->value("aggregate_name", "") == "cv") m.cv = r->value("real_time", 0.0);
    }
  }
  if (use.empty()) {
    m.error = "no iteration or median rows";
    return m;
  }
  std::vector<double> times, on_cpu;
  std::map<std::string, std::vector<double>> counters;
  for (const json* r : use) {
    times.push_back(to_seconds(r->at("real_time").get<double>(), r->value("time_unit", "ns")));
    // Recorded by the cell over its samples; results from before the stopping rule hold one
    // timed call per iteration, whose cpu_time and real_time give the same share.
    const double real = r->value("real_time", 0.0), cpu = r->value("cpu_time", -1.0);
    if (r->contains(results::counter::kCpuShare)) {
      on_cpu.push_back(r->at(results::counter::kCpuShare).get<double>());
    } else if (real > 0 && cpu >= 0 && !r->contains(results::counter::kSamples)) {
      on_cpu.push_back(cpu / real);
    }
    for (const auto& [key, value] : r->items()) {
      if (is_counter(key, value)) counters[key].push_back(value.get<double>());
    }
  }
  m.time_s = stats::median(times);
  if (times.size() > 1) m.cv = coefficient_of_variation(times);
  m.repetitions = times.size();
  if (use.front()->value("run_type", "iteration") == "iteration") {
    m.times_s = times;
    if (auto e2e = counters.find(results::counter::kE2eS);
        e2e != counters.end() && e2e->second.size() == times.size()) {
      const std::vector<double>& e = e2e->second;
      m.e2e_measured_once =
          e.size() > 1 && std::all_of(e.begin(), e.end(), [&](double x) { return x == e.front(); });
      if (!m.e2e_measured_once) m.e2e_times_s = e;
    }
  }
  for (const auto& [key, values] : counters) m.counters[key] = stats::median(values);
  if (m.id.device == "cpu" && on_cpu.size() == use.size()) m.on_cpu = stats::median(on_cpu);
  return m;
}

// Puts `m` into `into` in place of the one `same` finds, unless `m` failed and that one did not.
// Keeps `m` in `into`, replacing the one `same` finds unless `m` is an error and it is not;
// a cell found in two files is named in `duplicates`, with the file whose figures are kept.
void keep(std::vector<Measurement>& into, Measurement m,
          const std::function<bool(const Measurement&)>& same,
          std::vector<std::string>& duplicates) {
  auto old = std::find_if(into.begin(), into.end(), same);
  if (old == into.end()) {
    into.push_back(std::move(m));
    return;
  }
  const bool replace = !m.error || old->error;
  if (old->source != m.source) {
    duplicates.push_back(fmt::format("{} in {} and {}: {}'s kept", results::format_cell_name(m.id),
                                     old->source, m.source, replace ? m.source : old->source));
  }
  if (replace) *old = std::move(m);
}

// The same machine for a cell: both CPU cells, or GPU cells of one GPU model.
bool same_machine(const Measurement& a, const Measurement& b) {
  return a.id.device != "gpu" || gpu_model_of(a) == gpu_model_of(b);
}

}  // namespace

double Measurement::counter(const std::string& name, double fallback) const {
  auto it = counters.find(name);
  return it == counters.end() ? fallback : it->second;
}

std::string context_text(const ResultSet& set, const std::string& key) {
  if (const auto values = set.context_values.find(key);
      values != set.context_values.end() && values->second.size() > 1) {
    return fmt::format("{}", fmt::join(values->second, " / "));
  }
  const auto it = set.context.find(key);
  return it == set.context.end() ? std::string("unknown") : it->second;
}

results::CellId Measurement::as_defaults_see_it() const {
  results::CellId seen = id;
  const double own = counter(results::counter::kInputElementWidth);
  const std::string* width = id.param(results::kElementWidthAxis);
  if (own > 0 && width != nullptr && *width == fmt::format("{:.0f}", own)) {
    std::erase_if(seen.params, [](const auto& p) { return p.first == results::kElementWidthAxis; });
  }
  return seen;
}

std::optional<double> Measurement::uncertainty() const {
  if (repetitions > 1 || cv > 0) return cv;
  const double error_pct = counter(results::counter::kErrorPct);
  if (error_pct >= 0) return error_pct / 100;
  return std::nullopt;
}

bool Measurement::busy() const {
  return counter(results::counter::kBusy, 0) > 0;
}

bool Measurement::over_error_target() const {
  // Results written before the target's rename name it max_noise_pct.
  const double error_pct = counter(results::counter::kErrorPct);
  const double target = counter(results::counter::kMaxErrorPct, counter("max_noise_pct"));
  return error_pct >= 0 && target > 0 && error_pct > target;
}

void add_results(ResultSet& set, const json& doc, const std::string& source) {
  if (const std::optional<results::DocumentFault> fault = results::fault_of(doc))
    throw std::runtime_error(std::string(results::describe(*fault)));
  if (doc.contains("context") && doc["context"].is_object()) {
    for (const auto& [key, value] : doc["context"].items()) {
      if (!value.is_string()) continue;
      std::string text = value.get<std::string>();
      if (key.starts_with(results::kMissingFileKey))
        set.missing_files[key.substr(results::kMissingFileKey.size())] = text;
      if (key.starts_with(results::kTypedCorpusKey))
        set.typed_corpora.insert(key.substr(results::kTypedCorpusKey.size()));
      if (key.starts_with(results::kDefaultsKey)) {
        if (auto params = results::parse_params(text)) {
          for (auto& [axis, default_value] : *params)
            set.defaults[key.substr(results::kDefaultsKey.size())][axis] = default_value;
        }
      }
      if (key == "gpu") {
        if (text.starts_with("none")) {
          set.no_gpu_detail = text;
        } else {
          set.gpu_present = true;
        }
      }
      set.context_values[key].insert(text);
      set.context[key] = text;
    }
  }
  const bool replicas = doc.contains("context") && doc["context"].is_object() &&
                        doc["context"].contains(results::kGpuReplicasKey);
  // (cell name, GPU index of a replica) -> the cell and its rows
  std::map<std::pair<std::string, std::optional<int>>,
           std::pair<results::CellId, std::vector<const json*>>>
      by_cell;
  for (const json& b : doc["benchmarks"]) {
    auto id = results::cell_of(b);
    if (!id) continue;  // not a gcbench cell (another tool's benchmark in the same file)
    std::optional<int> gpu;
    if (replicas && id->device == "gpu") {
      if (auto record = results::gpu_of(b)) gpu = record->index;
    }
    auto& entry = by_cell[{results::format_cell_name(*id), gpu}];
    entry.first = *id;
    entry.second.push_back(&b);
  }
  for (const auto& [key, entry] : by_cell) {
    Measurement m = summarize(entry.first, entry.second);
    const results::CellId id = m.id;
    if (const auto p = entry.second.front()->find("provenance");
        p != entry.second.front()->end() && p->is_object()) {
      if (const auto sha = p->find("input_sha256"); sha != p->end() && sha->is_string())
        m.input_sha256 = sha->get<std::string>();
    }
    if (id.device == "gpu") m.gpu = results::gpu_of(*entry.second.front());
    m.source = source;
    if (!key.second) {
      const Measurement& added = m;
      keep(
          set.cells, std::move(m),
          [&](const Measurement& c) { return c.id == id && same_machine(c, added); },
          set.duplicates);
      continue;
    }
    const int gpu = m.gpu->index;
    keep(
        set.replicas, std::move(m),
        [&](const Measurement& c) { return c.id == id && c.gpu && c.gpu->index == gpu; },
        set.duplicates);
    // `cells` gets the replica on the lowest-numbered GPU.
    const Measurement* lowest = nullptr;
    for (const Measurement& r : set.replicas) {
      if (r.id == id && (lowest == nullptr || r.gpu->index < lowest->gpu->index)) lowest = &r;
    }
    auto held = std::find_if(set.cells.begin(), set.cells.end(),
                             [&](const Measurement& c) { return c.id == id; });
    if (held == set.cells.end()) {
      set.cells.push_back(*lowest);
    } else {
      *held = *lowest;
    }
  }
}

ResultSet load_results(const std::vector<fs::path>& paths) {
  std::vector<std::pair<fs::path, bool>> files;  // {file, found in a directory}
  for (const fs::path& p : paths) {
    if (fs::is_directory(p)) {
      for (fs::path& f : results::json_files_under(p)) files.emplace_back(std::move(f), true);
    } else {
      files.emplace_back(p, false);
    }
  }
  std::sort(files.begin(), files.end());
  ResultSet set;
  bool any = false;
  for (const auto& [f, in_directory] : files) {
    const json doc = results::read_json_file(f);
    if (in_directory) {
      if (const std::optional<results::DocumentFault> fault = results::fault_of(doc)) {
        set.damaged.emplace_back(f.string(), results::describe(*fault));
        continue;  // set aside, as the driver does: one damaged file is not the folder
      }
      if (results::is_folder_export(doc)) continue;
    }
    if (doc.is_discarded()) throw std::runtime_error(f.string() + " is not valid JSON");
    any = true;
    try {
      add_results(set, doc, f.string());
    } catch (const std::exception& e) {
      throw std::runtime_error(f.string() + ": " + e.what());
    }
  }
  std::string where;
  for (const fs::path& p : paths) where += (where.empty() ? "" : ", ") + p.string();
  if (!any && !set.damaged.empty()) {
    throw NoResults(fmt::format(
        "no readable result file in {}: {} set aside, not result "
        "documents (the first, {}: {})",
        where, set.damaged.size(), set.damaged.front().first, set.damaged.front().second));
  }
  if (!any) throw NoResults("no result files (*.json) in " + where);
  // Google Benchmark JSON of another program has entries, but no gcbench cell (nor a record of
  // a missing input): nothing to report, and not an empty report either.
  if (set.cells.empty() && set.missing_files.empty()) {
    throw NoResults(where + " holds no gcbench cells: " + std::to_string(files.size()) +
                    (files.size() == 1 ? " JSON file" : " JSON files") +
                    ", none of them gcbench results");
  }
  return set;
}

std::string mixed_builds(const ResultSet& set) {
  std::vector<std::string> mixed;
  for (const char* key : {"git_revision", "build_type"}) {
    // A file resumed under several builds lists them: "<value> (<n> cells); ...".
    std::set<std::string> values;
    const auto found = set.context_values.find(key);
    if (found == set.context_values.end()) continue;
    for (const std::string& text : found->second) {
      std::size_t start = 0;
      while (start < text.size()) {
        std::size_t end = text.find("; ", start);
        if (end == std::string::npos) end = text.size();
        std::string value = text.substr(start, end - start);
        if (const std::size_t cells = value.find(" ("); cells != std::string::npos)
          value.resize(cells);
        values.insert(value);
        start = end + 2;
      }
    }
    if (values.size() > 1) mixed.push_back(fmt::format("{} {}", key, fmt::join(values, ", ")));
  }
  return fmt::format("{}", fmt::join(mixed, "; "));
}

std::string gpu_model_of(const Measurement& m) {
  return m.gpu && !m.gpu->name.empty() ? m.gpu->name : "unknown GPU";
}

std::vector<std::string> gpu_models(const ResultSet& set, const std::string& corpus) {
  std::set<std::string> models;
  for (const Measurement& m : set.cells) {
    if (m.id.device == "gpu" && m.id.corpus == corpus && m.gpu) models.insert(gpu_model_of(m));
  }
  return {models.begin(), models.end()};
}

std::vector<std::string> ResultSet::files_of(const std::string& corpus,
                                             const std::vector<std::string>& order) const {
  std::set<std::string> names;
  for (const Measurement& m : cells) {
    if (m.id.corpus == corpus) names.insert(m.id.file);
  }
  for (const auto& [key, reason] : missing_files) {
    if (key.starts_with(corpus + "/")) names.insert(key.substr(corpus.size() + 1));
  }
  std::vector<std::string> out;
  for (const std::string& n : order) {
    if (names.erase(n)) out.push_back(n);
  }
  out.insert(out.end(), names.begin(), names.end());
  return out;
}

std::vector<std::string> ResultSet::corpora() const {
  std::set<std::string> names;
  for (const Measurement& m : cells) names.insert(m.id.corpus);
  for (const auto& [key, reason] : missing_files) names.insert(key.substr(0, key.find('/')));
  return {names.begin(), names.end()};
}

}  // namespace gcbench::reports
