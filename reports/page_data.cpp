#include "reports/page_data.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <vector>

#include "reports/gpu_e2e.hpp"
#include "reports/render.hpp"
#include "reports/stats.hpp"
#include "src/results/counters.hpp"

namespace gcbench::reports {
using json = nlohmann::json;
namespace {

using ByFile = std::map<std::string, const Measurement*>;
using ByDirection = std::map<std::string, ByFile>;

constexpr const char* kDirections[] = {"compress", "decompress"};

bool at_defaults(const results::CellId& id, const Defaults& defaults) {
  return variant_label(id, defaults) == id.codec;
}

// threads:0 (every hardware thread) and every other axis at its default.
bool on_all_cores(const results::CellId& id, const Defaults& defaults) {
  const std::string* threads = id.param("threads");
  if (id.device != "cpu" || threads == nullptr || *threads != "0") return false;
  results::CellId rest = id;
  std::erase_if(rest.params, [](const auto& p) { return p.first == "threads"; });
  return at_defaults(rest, defaults);
}

// The cells' totals over a set of files.
struct Sum {
  double input = 0, compressed = 0, entropy = 0, time_s = 0, e2e_s = 0;
  bool every_entropy = true, every_e2e = true;
  std::vector<double> spreads;  // CV of each cell measured more than once
};

// The end-to-end time of a cell: a GPU cell's e2e_s counter (none when timed kernel-only), a
// CPU cell's wall time.
double e2e_of(const Measurement& m) {
  return m.counter(results::counter::kE2eS, m.id.device == "gpu" ? -1 : m.time_s);
}

// None unless every file has a cell.
std::optional<Sum> sum_over(const ByFile& cells, const std::set<std::string>& files) {
  if (files.empty()) return std::nullopt;
  Sum s;
  for (const std::string& file : files) {
    const auto it = cells.find(file);
    if (it == cells.end()) return std::nullopt;
    const Measurement& m = *it->second;
    s.input += m.counter(results::counter::kInputBytes, 0);
    s.compressed += m.counter(results::counter::kCompressedBytes, 0);
    const double entropy = m.counter(results::counter::kEntropyBytes);
    s.every_entropy = s.every_entropy && entropy > 0;
    s.entropy += std::max(entropy, 0.0);
    s.time_s += m.time_s;
    const double e2e = e2e_of(m);
    s.every_e2e = s.every_e2e && e2e > 0;
    s.e2e_s += std::max(e2e, 0.0);
    if (const auto uncertainty = m.uncertainty()) s.spreads.push_back(*uncertainty);
  }
  return s;
}

json gbps(double bytes, double seconds) {
  return seconds > 0 && bytes > 0 ? json(bytes / seconds * 1e-9) : json(nullptr);
}

json quotient(double num, double den) {
  return num > 0 && den > 0 ? json(num / den) : json();
}

std::optional<Sum> sum_of(const ByDirection& cells, const std::string& direction,
                          const std::set<std::string>& files) {
  const auto it = cells.find(direction);
  return it == cells.end() ? std::nullopt : sum_over(it->second, files);
}

// Rows: GPU first, then the CPU, each by codec.
bool row_order(const std::pair<std::string, std::string>& a,
               const std::pair<std::string, std::string>& b) {
  return std::tie(b.second, a.first) < std::tie(a.second, b.first);
}

// How many threads a CPU row's cells ran on, in words: "1 thread", "all 16 cores" (threads:0,
// the cores the cell had), "4 threads"; "" for a GPU row.
std::string threads_text(const std::string& device, const ByDirection& cells) {
  if (device != "cpu") return "";
  for (const auto& [direction, by_file] : cells) {
    for (const auto& [file, m] : by_file) {
      const std::string* threads = m->id.param("threads");
      if (threads == nullptr || *threads == "1") return "1 thread";
      if (*threads != "0") return *threads + " threads";
      const double cores = m->counter("cpu_cores");
      return cores > 0 ? fmt::format("all {:.0f} cores", cores) : "all cores";
    }
  }
  return "";
}

json row_json(const std::string& codec, const std::string& device, const ByDirection& cells,
              const ByDirection* reference, const ByDirection* all_cores,
              const std::set<std::string>& files) {
  json row = {{"codec", codec},
              {"device", device},
              {"threads", threads_text(device, cells)},
              {results::counter::kRatio, nullptr},
              {"entropy_ratio", nullptr},
              {results::counter::kNoisePct, nullptr}};
  json reasons = json::array();
  std::vector<double> spreads;
  for (const char* direction : kDirections) {
    json d = {{results::counter::kKernelGbps, nullptr},
              {results::counter::kE2eGbps, nullptr},
              {"vs_reference", nullptr},
              {"vs_all_cores", nullptr}};
    const std::optional<Sum> s = sum_of(cells, direction, files);
    if (!s) {
      reasons.push_back(fmt::format("{}: not measured on every file", direction));
      row[direction] = d;
      continue;
    }
    spreads.insert(spreads.end(), s->spreads.begin(), s->spreads.end());
    if (std::string(direction) == "compress") {
      row[results::counter::kRatio] = quotient(s->input, s->compressed);
      if (s->every_entropy) row["entropy_ratio"] = quotient(s->input, s->entropy);
    }
    if (device == "gpu") d[results::counter::kKernelGbps] = gbps(s->input, s->time_s);
    if (!s->every_e2e) {
      reasons.push_back(fmt::format("{} end to end: timed kernel-only", direction));
      row[direction] = d;
      continue;
    }
    d[results::counter::kE2eGbps] = gbps(s->input, s->e2e_s);
    if (reference != nullptr) {
      if (const auto r = sum_of(*reference, direction, files); r && r->every_e2e) {
        d["vs_reference"] = quotient(r->e2e_s, s->e2e_s);
      }
    }
    if (device == "gpu") {
      const auto cpu = all_cores == nullptr ? std::nullopt : sum_of(*all_cores, direction, files);
      if (cpu) {
        d["vs_all_cores"] = quotient(cpu->e2e_s, s->e2e_s);
      } else {
        reasons.push_back(
            fmt::format("{}: no {}/cpu on all cores (threads:0) on every file", direction, codec));
      }
    }
    row[direction] = d;
  }
  if (!spreads.empty()) row[results::counter::kNoisePct] = 100 * stats::median(spreads);
  row["reasons"] = reasons;
  return row;
}

}  // namespace

json headline_json(const ResultSet& set, const Defaults& defaults, const std::string& corpus,
                   const std::vector<std::string>& references) {
  std::map<std::pair<std::string, std::string>, ByDirection> rows;  // (codec, device)
  std::map<std::string, ByDirection> all_cores;                     // codec
  for (const Measurement& m : set.cells) {
    if (m.id.corpus != corpus || m.error) continue;
    const results::CellId id = m.as_defaults_see_it();
    if (at_defaults(id, defaults)) rows[{m.id.codec, m.id.device}][m.id.direction][m.id.file] = &m;
    if (on_all_cores(id, defaults)) all_cores[m.id.codec][m.id.direction][m.id.file] = &m;
  }
  // The files every row compressed; the others are named with the rows that lack them.
  std::set<std::string> files, every;
  bool first = true;
  for (const auto& [key, cells] : rows) {
    std::set<std::string> compressed;
    if (const auto it = cells.find("compress"); it != cells.end()) {
      for (const auto& [file, m] : it->second) compressed.insert(file);
    }
    every.insert(compressed.begin(), compressed.end());
    if (first) {
      files = compressed;
      first = false;
    } else {
      std::set<std::string> common;
      std::set_intersection(files.begin(), files.end(), compressed.begin(), compressed.end(),
                            std::inserter(common, common.begin()));
      files = std::move(common);
    }
  }
  json left_out = json::array();
  for (const std::string& file : every) {
    if (files.count(file)) continue;
    std::vector<std::string> lacking;
    for (const auto& [key, cells] : rows) {
      const auto it = cells.find("compress");
      if (it == cells.end() || !it->second.count(file)) {
        lacking.push_back(key.first + "/" + key.second);
      }
    }
    left_out.push_back(fmt::format("{} (not compressed by {})", file, fmt::join(lacking, ", ")));
  }

  std::string reference;
  for (const std::string& codec : references) {
    if (reference.empty() && rows.count({codec, "cpu"})) reference = codec;
  }
  std::vector<std::pair<std::string, std::string>> order;
  for (const auto& [key, cells] : rows) order.push_back(key);
  std::sort(order.begin(), order.end(), row_order);
  json out_rows = json::array();
  for (const auto& key : order) {
    const auto cores = all_cores.find(key.first);
    out_rows.push_back(row_json(key.first, key.second, rows.at(key),
                                reference.empty() ? nullptr : &rows.at({reference, "cpu"}),
                                cores == all_cores.end() ? nullptr : &cores->second, files));
  }
  return {{"reference", reference.empty() ? json() : json(reference)},
          {"files", files},
          {"left_out", left_out},
          {"rows", out_rows}};
}

json table_json(const Table& shown, const std::string& note) {
  const std::vector<DisplayUnit> units = column_units(shown);
  json headers = json::array();
  for (std::size_t c = 0; c < shown.columns.size(); ++c) {
    headers.push_back(display_header(shown, c));
  }
  const auto row_of = [&](const Row& r) {
    json cells = json::array();
    for (std::size_t i = 0; i < r.values.size(); ++i) {
      const Value& v = r.values[i];
      cells.push_back({display_value(v, shown.columns[i].unit, units[i]),
                       v.value ? json(*v.value) : json(nullptr)});
    }
    std::vector<std::string> texts = r.texts;
    texts.resize(shown.text_headers.size());
    return json{{"label", r.label}, {"texts", texts}, {"cells", cells}};
  };
  json rows = json::array();
  for (const Row& r : shown.rows) rows.push_back(row_of(r));
  return {{"id", shown.id},
          {"title", shown.title},
          {"caption", shown.caption},
          {"note", note},
          {"label_header", shown.label_header},
          {"text_headers", shown.text_headers},
          {"headers", headers},
          {"rows", rows},
          {"total", shown.total ? row_of(*shown.total) : json(nullptr)}};
}

json cells_json(const ResultSet& set, const Defaults& defaults) {
  json cells = json::array();
  for (const Measurement& m : set.cells) {
    if (m.error) continue;
    const double entropy = m.counter(results::counter::kEntropyBytes);
    const double e2e = e2e_of(m);
    const std::optional<double> uncertainty = m.uncertainty();
    // A GPU cell's device memory, a CPU cell's heap (docs/results.md).
    const double memory = m.counter(m.id.device == "gpu" ? results::counter::kMemoryDeviceBytes
                                                         : results::counter::kMemoryHostBytes);
    cells.push_back(
        {{"corpus", m.id.corpus},
         {"file", m.id.file},
         {"codec", m.id.codec},
         {"device", m.id.device},
         {"variant", variant_label(m.as_defaults_see_it(), defaults)},
         {"direction", m.id.direction},
         {results::counter::kInputBytes, m.counter(results::counter::kInputBytes, 0)},
         {results::counter::kCompressedBytes, m.counter(results::counter::kCompressedBytes, 0)},
         {results::counter::kEntropyBytes, entropy > 0 ? json(entropy) : json(nullptr)},
         {"time_s", m.time_s},
         {results::counter::kE2eS, e2e > 0 ? json(e2e) : json(nullptr)},
         {"memory_bytes", memory > 0 ? json(memory) : json(nullptr)},
         {"cv", uncertainty ? json(*uncertainty) : json(nullptr)}});
  }
  return cells;
}

}  // namespace gcbench::reports
