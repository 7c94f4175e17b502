#include "reports/kernels.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <tuple>

#include "reports/gpu_e2e.hpp"
#include "src/results/counters.hpp"

namespace gcbench::reports {
namespace {

// "cold" when the cell flushed the L2 before its timed calls; cells recorded before the flag
// existed were warm; a failed cell has no figure to mark.
std::string l2_state(const Measurement& m) {
  if (m.error) return "-";
  return m.counter(results::counter::kColdL2, 0) > 0 ? "cold" : "warm";
}

// A GPU cell of the table and its codec variant's label.
struct Cell {
  std::string label;
  const Measurement* m;
};

// A total row for each codec variant and direction measured on every file of the table (two
// or more): total bytes over total kernel time, the figure a corpus is quoted by. Blank, with
// the reason, when one of its cells has no figure: a total of the other files would mislead.
std::vector<Row> total_rows(const std::vector<Cell>& cells, const Value& copy) {
  std::set<std::string> files;
  std::vector<std::pair<std::string, std::string>> variants;  // (label, direction), in order
  for (const auto& [label, m] : cells) {
    files.insert(m->id.file);
    const std::pair variant{label, m->id.direction};
    if (std::find(variants.begin(), variants.end(), variant) == variants.end())
      variants.push_back(variant);
  }
  std::vector<Row> rows;
  if (files.size() < 2) return rows;
  for (const auto& [label, direction] : variants) {
    std::vector<const Measurement*> of_variant;
    std::set<std::string> covered;
    for (const auto& [l, m] : cells) {
      if (l == label && m->id.direction == direction) {
        of_variant.push_back(m);
        covered.insert(m->id.file);
      }
    }
    // Every file once: not a total of some files, nor one that counts a file twice.
    if (covered.size() != files.size() || of_variant.size() != files.size()) continue;
    double bytes = 0, seconds = 0;
    std::string why, l2;
    for (const Measurement* m : of_variant) {
      const double gbps = m->counter(results::counter::kKernelGbps),
                   in = m->counter(results::counter::kInputBytes);
      if (m->error || gbps <= 0 || in <= 0) {
        if (why.empty())
          why = fmt::format("{}: {}", m->id.file, m->error ? *m->error : "no kernel_gbps");
        continue;
      }
      bytes += in;
      seconds += in / (gbps * 1e9);
      const std::string state = l2_state(*m);
      l2 = l2.empty() || l2 == state ? state : "mixed";
    }
    Row row{fmt::format("total ({} files)", files.size()),
            {},
            {label, direction, why.empty() ? l2 : std::string("-")}};
    if (!why.empty()) {
      row.values = {Value::blank(why), Value::blank(why)};
    } else {
      const double gbps = bytes / seconds / 1e9;
      row.values = {Value::of(gbps),
                    copy.value ? Value::of(100 * gbps / *copy.value) : Value::blank(copy.reason)};
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace

bool wants_kernels_section(const ResultSet& set) {
  const auto preset = set.context.find("preset");
  const auto cold = set.context.find(results::counter::kColdL2);
  return (preset != set.context.end() && preset->second == "kernels") ||
         (cold != set.context.end() && cold->second.starts_with("yes"));
}

std::optional<Table> kernels_table(const ResultSet& set, const Defaults& defaults,
                                   const std::string& corpus,
                                   const std::vector<std::string>& files) {
  std::vector<Cell> cells;
  const bool by_model = gpu_models(set, corpus).size() > 1;
  for (const Measurement& m : set.cells) {
    if (m.id.device == "gpu" && m.id.corpus == corpus)
      cells.push_back({variant_label(m.id, defaults) + gpu_model_axis(m, by_model), &m});
  }
  if (std::none_of(cells.begin(), cells.end(), [](const Cell& c) {
        return c.m->counter(results::counter::kKernelGbps) >= 0;
      })) {
    return std::nullopt;
  }
  // Files in the given order, then by variant and direction.
  auto rank = [&](const std::string& file) {
    return std::find(files.begin(), files.end(), file) - files.begin();
  };
  std::stable_sort(cells.begin(), cells.end(), [&](const Cell& a, const Cell& b) {
    return std::tuple(rank(a.m->id.file), a.m->id.file, a.label, a.m->id.direction) <
           std::tuple(rank(b.m->id.file), b.m->id.file, b.label, b.m->id.direction);
  });

  const Value copy = run_ceiling(set, "copy_gbps");
  Table t;
  t.id = "kernels";
  t.title = "GPU kernels per input, % of the device copy, " + corpus;
  t.label_header = "file";
  t.text_headers = {"codec", "direction", "l2"};
  t.columns = {Column{"kernel", results::counter::kKernelGbps, Unit::gb_per_s, {}},
               Column{"kernel, % of copy", results::counter::kPctCopy, Unit::percent, {}}};
  t.rows.push_back(Row{"(reference)",
                       {copy, copy.value ? Value::of(100) : Value::blank(copy.reason)},
                       {"device copy", "-", "-"}});
  std::size_t warm = 0, primitives = 0;
  for (const Cell& c : cells) {
    const Measurement& m = *c.m;
    Row row{m.id.file, {}, {c.label, m.id.direction, l2_state(m)}};
    warm += row.texts[2] == "warm" ? 1 : 0;
    const double gbps = m.counter(results::counter::kKernelGbps);
    if (m.error) {
      row.values = {Value::blank(*m.error), Value::blank(*m.error)};
    } else if (gbps <= 0) {
      row.values = {Value::blank("no kernel_gbps counter"), Value::blank("no kernel_gbps counter")};
    } else {
      // The cell's own percentage, else one of the run's copy where that is its GPU model's.
      const double pct = m.counter(results::counter::kPctCopy);
      Value pct_of_copy = Value::blank(copy.reason);
      if (pct >= 0) {
        pct_of_copy = Value::of(pct);
      } else if (!own_ceilings(set, m, by_model)) {
        pct_of_copy = Value::blank("the run's copy is another GPU model's");
      } else if (copy.value) {
        pct_of_copy = Value::of(100 * gbps / *copy.value);
      }
      row.values = {Value::of(gbps), pct_of_copy};
    }
    t.rows.push_back(std::move(row));
    // A reference row: the bare library primitive the codec is built on, timed in the same
    // cell on the same input (CodecInfo::reference_primitive), no container, no CRC.
    const double primitive = m.counter(results::counter::kPrimitiveGbps);
    if (!m.error && primitive > 0) {
      const auto name = set.context.find("primitive:" + m.id.codec + "/gpu");
      t.rows.push_back(
          Row{m.id.file,
              {Value::of(primitive), copy.value && own_ceilings(set, m, by_model)
                                         ? Value::of(100 * primitive / *copy.value)
                                         : Value::blank(copy.reason)},
              {fmt::format("(reference) {}, bare, in the {} cell",
                           name != set.context.end() ? name->second : "its primitive", c.label),
               m.id.direction, l2_state(m)}});
      ++primitives;
    }
  }
  for (Row& total : total_rows(cells, copy)) t.rows.push_back(std::move(total));
  t.caption = fmt::format(
      "Kernel-only throughput of each GPU cell (CUDA events around the device call alone, on "
      "buffers already in device memory), in GB/s of uncompressed bytes, and as % of the run's "
      "device-to-device copy of the same bytes (the reference row; {}). A percentage over 100 "
      "is possible: a codec reads or writes fewer bytes than the copy. L2: cold = the L2 cache "
      "was flushed before every timed call (--cold-l2); warm = it was not, and an input that "
      "fits in the L2 may have been read from it{}. Codec: its axes that are not the defaults. "
      "Total rows: a codec measured on every file, its bytes summed over its kernel times "
      "summed.",
      copy.value ? fmt::format("copy_gbps {:.2f} GB/s", *copy.value) : "n/a: " + copy.reason,
      warm > 0 ? fmt::format(" ({} of {} cells are warm)", warm, cells.size()) : "");
  if (primitives > 0) {
    t.caption +=
        " A (reference) row under a codec's: the bare library primitive that codec is built on, "
        "timed in its cell on the same input and checked against it (no container, no CRC).";
  }
  if (by_model) {
    const auto gpu = set.context.find("gpu");
    t.caption += fmt::format(
        " The cells were measured on several GPU models ({}): each codec names the model that "
        "measured it (gpu_model), totals are per model, and the device copy is that of {}.",
        fmt::join(gpu_models(set, corpus), ", "),
        gpu != set.context.end() ? gpu->second : "the run context's GPU");
  }
  return t;
}

}  // namespace gcbench::reports
