#include "reports/gpu_e2e.hpp"
#include "src/results/cell_name.hpp"
#include "src/results/counters.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <set>
#include <system_error>
#include <tuple>
#include <vector>

namespace gcbench::reports {
namespace {

struct Cells {
  std::vector<const Measurement*> ok;
  std::vector<std::string> failed;  // files whose cell failed
};

Value percent_of(const Value& gbps, const Value& ceiling) {
  if (!gbps.value) return Value::blank(gbps.reason);
  if (!ceiling.value) return Value::blank(ceiling.reason);
  return Value::of(100 * *gbps.value / *ceiling.value);
}

std::string ceiling_text(const Value& v) {
  return v.value ? fmt::format("{:.2f} GB/s", *v.value) : "n/a: " + v.reason;
}

}  // namespace

Value weighted_gbps(const std::vector<const Measurement*>& cells, const std::string& counter) {
  double bytes = 0, seconds = 0;
  std::size_t lacking = 0;
  for (const Measurement* m : cells) {
    const double input = m->counter(results::counter::kInputBytes);
    const double gbps = m->counter(counter);
    if (input < 0 || gbps <= 0) {
      ++lacking;
      continue;
    }
    bytes += input;
    seconds += input / gbps / 1e9;
  }
  if (lacking > 0) {
    return Value::blank(
        fmt::format("no {} counter on {} of {} files", counter, lacking, cells.size()));
  }
  if (seconds <= 0) return Value::blank("no input bytes");
  return Value::of(bytes / seconds / 1e9);
}

std::string variant_label(const results::CellId& id, const Defaults& defaults) {
  const auto d = defaults.find(id.codec + "/" + id.device);
  std::string label = id.codec;
  for (const auto& [axis, value] : id.params) {
    if (d != defaults.end()) {
      const auto v = d->second.find(axis);
      if (v != d->second.end() && v->second == value) continue;
    }
    label += "/" + axis + ":" + value;
  }
  return label;
}

std::string gpu_model_axis(const Measurement& m, bool by_model) {
  return by_model && m.id.device == "gpu" ? "/gpu_model:" + gpu_model_of(m) : "";
}

bool own_ceilings(const ResultSet& set, const Measurement& m, bool by_model) {
  const auto gpu = set.context.find("gpu");
  return !by_model || (gpu != set.context.end() && gpu->second == gpu_model_of(m));
}

Value run_ceiling(const ResultSet& set, const std::string& key) {
  const auto it = set.context.find(key);
  if (it == set.context.end()) {
    const auto why = set.context.find("ceilings");  // the driver could not measure them
    return Value::blank(why != set.context.end() ? "ceilings " + why->second
                                                 : "no " + key + " in the run context");
  }
  const std::string& text = it->second;
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v <= 0) {
    return Value::blank(key + " '" + text + "' is not a positive number");
  }
  return Value::of(v);
}

std::optional<Table> gpu_e2e_table(const ResultSet& set, const Defaults& defaults,
                                   const std::string& corpus) {
  // (label, direction, all axes): the label alone could hide two cells of one file.
  std::map<std::tuple<std::string, std::string, std::string>, Cells> rows;
  bool any_kernel_gbps = false;
  bool any_e2e = false;  // kernel-only runs (--timing kernel) record no end-to-end figure
  const bool by_model = gpu_models(set, corpus).size() > 1;
  for (const Measurement& m : set.cells) {
    if (m.id.device != "gpu" || m.id.corpus != corpus) continue;
    Cells& c = rows[{variant_label(m.id, defaults) + gpu_model_axis(m, by_model), m.id.direction,
                     results::format_params(m.id.params)}];
    if (m.error) {
      c.failed.push_back(m.id.file);
      continue;
    }
    c.ok.push_back(&m);
    any_kernel_gbps = any_kernel_gbps || m.counter(results::counter::kKernelGbps) >= 0;
    any_e2e = any_e2e || m.counter(results::counter::kE2eGbps) >= 0;
  }
  if (!any_kernel_gbps) return std::nullopt;

  const Value copy = run_ceiling(set, "copy_gbps");
  const Value h2d = run_ceiling(set, "h2d_pinned_gbps");
  Table t;
  t.id = "gpu_e2e";
  t.title = "GPU throughput: kernel vs end-to-end, " + corpus;
  t.label_header = "codec";
  t.text_headers = {"direction"};
  t.columns = {
      Column{"kernel", results::counter::kKernelGbps, Unit::gb_per_s, {}},
      Column{"end-to-end, pinned", results::counter::kE2eGbps, Unit::gb_per_s, {}},
      Column{"end-to-end, pageable", results::counter::kE2ePageableGbps, Unit::gb_per_s, {}},
      Column{"kernel, % of copy", results::counter::kPctCopy, Unit::percent, {}},
      Column{"end-to-end, % of pinned H2D", results::counter::kPctH2d, Unit::percent, {}}};
  // Which columns a row fills: all of them, or without end-to-end figures the kernel ones.
  const std::vector<std::size_t> shown =
      any_e2e ? std::vector<std::size_t>{0, 1, 2, 3, 4} : std::vector<std::size_t>{0, 3};
  {
    std::vector<Column> kept;
    for (std::size_t i : shown) kept.push_back(t.columns[i]);
    t.columns = std::move(kept);
  }

  std::set<std::string> all_files;
  for (const auto& [key, c] : rows) {
    for (const Measurement* m : c.ok) all_files.insert(m->id.file);
  }
  std::vector<std::string> failed, partial;
  for (const auto& [key, c] : rows) {
    const auto& [label, direction, params] = key;
    const std::string name = label + " " + direction;
    if (!c.failed.empty()) {
      std::vector<std::string> files;  // names in prose: escaped as Markdown
      for (const std::string& f : c.failed) files.push_back(results::markdown_text(f));
      failed.push_back(fmt::format("{} ({})", name, fmt::join(files, ", ")));
    }
    if (c.ok.empty()) continue;
    if (c.ok.size() + c.failed.size() < all_files.size()) {
      partial.push_back(fmt::format("{} ({} of {})", name, c.ok.size(), all_files.size()));
    }
    const Value kernel = weighted_gbps(c.ok, results::counter::kKernelGbps);
    const Value e2e = weighted_gbps(c.ok, results::counter::kE2eGbps);
    const Value other_model = Value::blank("the run's ceilings are another GPU model's");
    const bool own = own_ceilings(set, *c.ok.front(), by_model);
    const std::vector<Value> all = {
        kernel, e2e, weighted_gbps(c.ok, results::counter::kE2ePageableGbps),
        own ? percent_of(kernel, copy) : other_model, own ? percent_of(e2e, h2d) : other_model};
    Row row{label, {}, {direction}};
    for (std::size_t i : shown) row.values.push_back(all[i]);
    t.rows.push_back(std::move(row));
  }

  t.caption = fmt::format(
      "Throughput of uncompressed bytes over the {} file(s) measured, weighted by size: each "
      "file takes bytes / throughput seconds, a row is total bytes / total seconds. Kernel: "
      "kernel time (CUDA events around the kernels); end-to-end: the whole call from host "
      "memory, pinned or pageable. Kernel % of copy = kernel throughput / the run's "
      "device-to-device copy ({}); end-to-end % of pinned H2D = end-to-end (pinned) throughput "
      "/ the run's pinned host-to-device copy ({}). Codec: its axes that are not the defaults.",
      all_files.size(), ceiling_text(copy), ceiling_text(h2d));
  if (by_model) {
    t.caption += fmt::format(
        " The cells were measured on several GPU models ({}): each row holds one model's cells "
        "(gpu_model), over the files that model measured, and the ceilings are those of the "
        "run context's GPU ({}).",
        fmt::join(gpu_models(set, corpus), ", "),
        set.context.count("gpu") ? set.context.at("gpu") : "unknown");
  }
  if (!any_e2e) {
    t.caption +=
        " No end-to-end columns: the cells were timed kernel-only (--timing kernel), without "
        "the end-to-end paths.";
  }
  // Kernel figures are warm unless the run flushed the L2 before each timed call.
  const auto cold = set.context.find(results::counter::kColdL2);
  t.caption += cold != set.context.end() && cold->second.starts_with("yes")
                   ? " Kernel figures are cold: the L2 was flushed before every timed call."
                   : " Kernel figures are warm: the L2 was not flushed between timed calls "
                     "(--cold-l2 flushes it), so a file that fits in it may have been read "
                     "from it.";
  if (!failed.empty()) {
    t.caption += fmt::format(" Failed cells, left out: {}.", fmt::join(failed, "; "));
  }
  if (!partial.empty()) {
    t.caption += fmt::format(" Rows over fewer files: {}.", fmt::join(partial, ", "));
  }
  return t;
}

}  // namespace gcbench::reports
