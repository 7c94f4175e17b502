#include "reports/kernels.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

#include "reports/gpu_e2e.hpp"

namespace gcbench::reports {
namespace {

// "cold" when the cell flushed the L2 before its timed calls; cells recorded before the flag
// existed were warm; a failed cell has no figure to mark.
std::string l2_state(const Measurement& m) {
  if (m.error) return "-";
  return m.counter("cold_l2", 0) > 0 ? "cold" : "warm";
}

}  // namespace

bool wants_kernels_section(const ResultSet& set) {
  const auto preset = set.context.find("preset");
  const auto cold = set.context.find("cold_l2");
  return (preset != set.context.end() && preset->second == "kernels") ||
         (cold != set.context.end() && cold->second.starts_with("yes"));
}

std::optional<Table> kernels_table(const ResultSet& set, const Defaults& defaults,
                                   const std::string& corpus,
                                   const std::vector<std::string>& files) {
  struct Cell {
    std::string label;
    const Measurement* m;
  };
  std::vector<Cell> cells;
  for (const Measurement& m : set.cells) {
    if (m.id.device == "gpu" && m.id.corpus == corpus)
      cells.push_back({variant_label(m.id, defaults), &m});
  }
  if (std::none_of(cells.begin(), cells.end(),
                   [](const Cell& c) { return c.m->counter("kernel_gbps") >= 0; })) {
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
  t.columns = {Column{"kernel", "kernel_gbps", Unit::gb_per_s, {}},
               Column{"kernel, % of copy", "pct_copy", Unit::percent, {}}};
  t.rows.push_back(Row{"(reference)",
                       {copy, copy.value ? Value::of(100) : Value::blank(copy.reason)},
                       {"device copy", "-", "-"}});
  std::size_t warm = 0;
  for (const Cell& c : cells) {
    const Measurement& m = *c.m;
    Row row{m.id.file, {}, {c.label, m.id.direction, l2_state(m)}};
    warm += row.texts[2] == "warm" ? 1 : 0;
    const double gbps = m.counter("kernel_gbps");
    if (m.error) {
      row.values = {Value::blank(*m.error), Value::blank(*m.error)};
    } else if (gbps <= 0) {
      row.values = {Value::blank("no kernel_gbps counter"), Value::blank("no kernel_gbps counter")};
    } else {
      const double pct = m.counter("pct_copy");
      row.values = {Value::of(gbps), pct >= 0     ? Value::of(pct)
                                     : copy.value ? Value::of(100 * gbps / *copy.value)
                                                  : Value::blank(copy.reason)};
    }
    t.rows.push_back(std::move(row));
  }
  t.caption = fmt::format(
      "Kernel-only throughput of each GPU cell (CUDA events around the device call alone, on "
      "buffers already in device memory), in GB/s of uncompressed bytes, and as % of the run's "
      "device-to-device copy of the same bytes (the reference row; {}). A percentage over 100 "
      "is possible: a codec reads or writes fewer bytes than the copy. L2: cold = the L2 cache "
      "was flushed before every timed call (--cold-l2); warm = it was not, and an input that "
      "fits in the L2 may have been read from it{}. Codec: its axes that are not the defaults.",
      copy.value ? fmt::format("copy_gbps {:.2f} GB/s", *copy.value) : "n/a: " + copy.reason,
      warm > 0 ? fmt::format(" ({} of {} cells are warm)", warm, cells.size()) : "");
  return t;
}

}  // namespace gcbench::reports
