#include "reports/gpu_replicas.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>
#include <vector>

#include "reports/gpu_e2e.hpp"
#include "src/results/counters.hpp"

namespace gcbench::reports {
namespace {

// The figures the tables show per GPU: (column header, counter).
const std::pair<const char*, const char*> kFigures[] = {{"kernel", results::counter::kKernelGbps},
                                                        {"end-to-end", results::counter::kE2eGbps}};

// A row's key: (codec variant, direction, all axes: the label alone could hide two cells).
using VariantKey = std::tuple<std::string, std::string, std::string>;

struct Replicas {
  std::map<int, results::GpuRecord> gpus;  // every GPU with a replica of `corpus`, by index
  // (variant key, file) -> GPU index -> its measurement
  std::map<std::pair<VariantKey, std::string>, std::map<int, const Measurement*>> cells;
};

Replicas replicas_of(const ResultSet& set, const Defaults& defaults, const std::string& corpus) {
  Replicas r;
  for (const Measurement& m : set.replicas) {
    if (m.id.corpus != corpus || !m.gpu) continue;
    r.gpus.emplace(m.gpu->index, *m.gpu);
    const VariantKey key{variant_label(m.id, defaults), m.id.direction,
                         results::format_params(m.id.params)};
    r.cells[{key, m.id.file}][m.gpu->index] = &m;
  }
  return r;
}

Value counter_value(const Measurement* m, const std::string& counter) {
  if (m == nullptr) return Value::blank("not measured on this GPU");
  if (m->error) return Value::blank(*m->error);
  const double v = m->counter(counter);
  return v > 0 ? Value::of(v) : Value::blank("no " + counter + " counter");
}

std::vector<Column> per_gpu_columns(const Replicas& r, const std::string& largest) {
  std::vector<Column> columns;
  for (const auto& [header, counter] : kFigures) {
    for (const auto& [index, gpu] : r.gpus) {
      columns.push_back(Column{fmt::format("GPU {} {}", index, header),
                               fmt::format("gpu{}_{}", index, counter),
                               Unit::gb_per_s,
                               {}});
    }
    columns.push_back(Column{fmt::format("{} spread", header),
                             fmt::format("{}_spread_pct", counter),
                             Unit::percent,
                             {}});
  }
  if (!largest.empty())
    columns.push_back(Column{largest, "largest_cell_kernel_spread_pct", Unit::percent, {}});
  return columns;
}

std::string gpus_text(const Replicas& r) {
  std::vector<std::string> named;
  for (const auto& [index, gpu] : r.gpus)
    named.push_back(fmt::format("GPU {}: {} ({})", index, gpu.name, gpu.pci_bus_id));
  return fmt::format("{}", fmt::join(named, "; "));
}

}  // namespace

Value spread_percent(const std::vector<Value>& values) {
  std::vector<double> present;
  for (const Value& v : values) {
    if (v.value) present.push_back(*v.value);
  }
  if (present.size() < 2) return Value::blank("fewer than two GPUs with a value");
  const auto [low, high] = std::minmax_element(present.begin(), present.end());
  return Value::of(100 * (*high / *low - 1));
}

std::optional<Table> gpu_replicas_table(const ResultSet& set, const Defaults& defaults,
                                        const std::string& corpus) {
  const Replicas r = replicas_of(set, defaults, corpus);
  if (r.cells.empty()) return std::nullopt;
  Table t;
  t.id = "gpu_replicas";
  t.title = "GPU-to-GPU spread per cell, " + corpus;
  t.label_header = "codec";
  t.text_headers = {"direction", "file"};
  t.columns = per_gpu_columns(r, "");
  for (const auto& [cell, by_gpu] : r.cells) {
    const auto& [key, file] = cell;
    Row row{std::get<0>(key), {}, {std::get<1>(key), file}};
    for (const auto& [header, counter] : kFigures) {
      std::vector<Value> values;
      for (const auto& [index, gpu] : r.gpus) {
        const auto it = by_gpu.find(index);
        values.push_back(counter_value(it == by_gpu.end() ? nullptr : it->second, counter));
      }
      row.values.insert(row.values.end(), values.begin(), values.end());
      row.values.push_back(spread_percent(values));
    }
    t.rows.push_back(std::move(row));
  }
  t.caption = fmt::format(
      "Every GPU cell measured on each GPU (gcbench --gpu-replicas): {}. Kernel and end-to-end "
      "(pinned) throughput of uncompressed bytes; spread = the fastest GPU / the slowest - 1. "
      "The other tables show GPU {}'s figures.",
      gpus_text(r), r.gpus.begin()->first);
  return t;
}

std::optional<Table> gpu_replicas_summary(const ResultSet& set, const Defaults& defaults,
                                          const std::string& corpus) {
  const Replicas r = replicas_of(set, defaults, corpus);
  if (r.cells.empty()) return std::nullopt;
  // variant key -> GPU index -> its cells (of every file); and the largest cell spread
  std::map<VariantKey, std::map<int, std::vector<const Measurement*>>> variants;
  std::map<VariantKey, std::vector<Value>> cell_spreads;
  for (const auto& [cell, by_gpu] : r.cells) {
    std::vector<Value> kernels;
    for (const auto& [index, m] : by_gpu) {
      if (!m->error) variants[cell.first][index].push_back(m);
      kernels.push_back(counter_value(m, results::counter::kKernelGbps));
    }
    cell_spreads[cell.first].push_back(spread_percent(kernels));
  }
  Table t;
  t.id = "gpu_replicas_summary";
  t.title = "GPU-to-GPU spread per codec, " + corpus;
  t.label_header = "codec";
  t.text_headers = {"direction"};
  t.columns = per_gpu_columns(r, "largest cell kernel spread");
  for (const auto& [key, by_gpu] : variants) {
    Row row{std::get<0>(key), {}, {std::get<1>(key)}};
    for (const auto& [header, counter] : kFigures) {
      std::vector<Value> values;
      for (const auto& [index, gpu] : r.gpus) {
        const auto it = by_gpu.find(index);
        values.push_back(it == by_gpu.end() ? Value::blank("not measured on this GPU")
                                            : weighted_gbps(it->second, counter));
      }
      row.values.insert(row.values.end(), values.begin(), values.end());
      row.values.push_back(spread_percent(values));
    }
    std::optional<double> largest;
    for (const Value& v : cell_spreads[key]) {
      if (v.value) largest = std::max(largest.value_or(*v.value), *v.value);
    }
    row.values.push_back(largest ? Value::of(*largest) : Value::blank("no cell spread"));
    t.rows.push_back(std::move(row));
  }
  t.caption = fmt::format(
      "Each GPU's throughput over the row's files, weighted by size (total bytes / total "
      "seconds), as in the GPU throughput table, on {}; spread = the fastest GPU / the slowest "
      "- 1; the largest cell kernel spread is the per-cell table's largest of the row.",
      gpus_text(r));
  return t;
}

}  // namespace gcbench::reports
