#include "reports/variants.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <set>

#include "reports/gpu_e2e.hpp"
#include "src/results/cell_name.hpp"
#include "src/results/counters.hpp"

namespace gcbench::reports {
namespace {

struct Totals {
  std::set<std::string> files;
  double input = 0, compressed = 0;
  double entropy = 0;       // the entropy-coded size (entropy_bytes), where a codec has one
  bool all_entropy = true;  // every compression cell recorded it
  double compress_s = 0, compress_e2e_s = 0;
  double decompress_s = 0, decompress_e2e_s = 0;
  bool compress_kernel_only = false, decompress_kernel_only = false;  // a cell lacks e2e_s
  bool failed = false;
};

std::string variant_label_with_every_axis(const results::CellId& id) {
  std::string label = id.codec + "/" + id.device;
  for (const auto& [axis, value] : id.params) label += "/" + axis + ":" + value;
  return label;
}

constexpr const char* kKernelOnly = "timed kernel-only (--timing kernel)";

Value per_second(double bytes, double seconds) {
  if (seconds <= 0) return Value::blank("no time");
  return Value::of(bytes / seconds * 1e-9);
}

}  // namespace

Table variants_table(const ResultSet& set, const std::string& corpus) {
  // Which files every variant measured on most of the corpus compressed without error: the
  // totals are taken over those only, so that every row sums the same inputs. A variant measured
  // on a few files only (a slow design a preset runs on the first file) would otherwise narrow
  // every total to those files: it is left out instead, and named.
  // GPU variants measured on several GPU models are split by model; each model's share of the
  // files does not narrow the others' totals.
  const bool by_model = gpu_models(set, corpus).size() > 1;
  // Typed inputs of several dtypes: each one's cells at its own width are one variant,
  // "element_width:dtype", measured on every file.
  const auto label_of = [&](const Measurement& m) {
    const results::CellId seen = m.as_defaults_see_it();
    const std::string own = seen.params.size() < m.id.params.size() ? "/element_width:dtype" : "";
    return variant_label_with_every_axis(seen) + own + gpu_model_axis(m, by_model);
  };
  std::map<std::string, std::set<std::string>> files_of;
  std::set<std::string> failed, split;
  // A cell skipped on purpose is not measured, not failed: its variant lacks that file.
  for (const Measurement& m : set.cells) {
    if (m.id.corpus != corpus || m.skipped()) continue;
    const std::string label = label_of(m);
    if (m.error) failed.insert(label);
    if (!m.error && m.id.direction == "compress") files_of[label].insert(m.id.file);
    if (by_model && m.id.device == "gpu") split.insert(label);
  }
  std::size_t most = 0;
  for (const auto& [label, f] : files_of) {
    if (!failed.count(label) && !split.count(label)) most = std::max(most, f.size());
  }
  std::set<std::string> files;
  bool first = true;
  for (const auto& [label, f] : files_of) {
    if (failed.count(label) || split.count(label) || 2 * f.size() < most) continue;
    if (first) {
      files = f;
      first = false;
      continue;
    }
    std::set<std::string> common;
    std::set_intersection(files.begin(), files.end(), f.begin(), f.end(),
                          std::inserter(common, common.begin()));
    files = std::move(common);
  }

  std::map<std::string, Totals> variants;
  for (const Measurement& m : set.cells) {
    if (m.id.corpus != corpus || m.skipped()) continue;
    Totals& t = variants[label_of(m)];
    if (m.error) {
      t.failed = true;
      continue;
    }
    if (!files.count(m.id.file)) continue;
    // A GPU cell timed kernel-only (--timing kernel) has no end-to-end time: the column is
    // then blank, not the kernel time. A CPU cell's is its wall time.
    const double e2e = m.counter(results::counter::kE2eS, m.id.device == "gpu" ? -1 : m.time_s);
    if (m.id.direction == "compress") {
      t.files.insert(m.id.file);
      t.input += m.counter(results::counter::kInputBytes, 0);
      t.compressed += m.counter(results::counter::kCompressedBytes, 0);
      const double entropy = m.counter(results::counter::kEntropyBytes, 0);
      t.entropy += entropy;
      t.all_entropy = t.all_entropy && entropy > 0;
      t.compress_s += m.time_s;
      t.compress_e2e_s += std::max(e2e, 0.0);
      t.compress_kernel_only = t.compress_kernel_only || e2e < 0;
    } else {
      t.decompress_s += m.time_s;
      t.decompress_e2e_s += std::max(e2e, 0.0);
      t.decompress_kernel_only = t.decompress_kernel_only || e2e < 0;
    }
  }

  Table table;
  table.id = "variants";
  table.label_header = "variant";
  table.title = "Every variant on the " + corpus + " total";
  auto column = [](const char* header, const char* csv, Unit unit) {
    return Column{header, csv, unit, {}};
  };
  table.columns = {column("container ratio", "container_ratio", Unit::ratio),
                   column("entropy-coded ratio", "entropy_ratio", Unit::ratio),
                   column("compress, kernel or CPU", "compress_gbps", Unit::gb_per_s),
                   column("compress, end-to-end", "compress_e2e_gbps", Unit::gb_per_s),
                   column("decompress, kernel or CPU", "decompress_gbps", Unit::gb_per_s),
                   column("decompress, end-to-end", "decompress_e2e_gbps", Unit::gb_per_s)};
  std::vector<std::string> failed_variants, partial_variants;
  for (const auto& [label, t] : variants) {
    if (t.failed || t.files != files) {
      (t.failed ? failed_variants : partial_variants).push_back(label);
      continue;
    }
    table.rows.push_back(
        {label,
         {t.compressed > 0 ? Value{t.input / t.compressed, {}, t.input, t.compressed}
                           : Value::blank("no compressed_bytes"),
          t.all_entropy && t.entropy > 0 ? Value{t.input / t.entropy, {}, t.input, t.entropy}
                                         : Value::blank("no entropy stage"),
          per_second(t.input, t.compress_s),
          t.compress_kernel_only ? Value::blank(kKernelOnly)
                                 : per_second(t.input, t.compress_e2e_s),
          t.decompress_s > 0 ? per_second(t.input, t.decompress_s) : Value::blank("not measured"),
          t.decompress_kernel_only ? Value::blank(kKernelOnly)
          : t.decompress_e2e_s > 0 ? per_second(t.input, t.decompress_e2e_s)
                                   : Value::blank("not measured")}});
  }
  std::vector<std::string> shown_files;  // names in prose: escaped as Markdown
  for (const std::string& f : files) shown_files.push_back(results::markdown_text(f));
  table.caption = fmt::format(
      "Over the {} file(s) every variant measured on most of the corpus compressed: {}. "
      "Container ratio = total original / "
      "total container bytes (a codec with an entropy stage: before it); entropy-coded ratio "
      "= total original / total entropy-coded bytes, for a codec that records them; throughput = "
      "total original "
      "bytes / total time: kernel or CPU = GPU kernel time (CUDA events) or CPU wall time; "
      "end-to-end = the whole call with transfers and host work (CPU: wall time again).",
      files.size(), fmt::join(shown_files, ", "));
  if (!failed_variants.empty()) {
    table.caption +=
        fmt::format(" Left out (failed on a file): {}.", fmt::join(failed_variants, ", "));
  }
  // E.g. the suite's decompression-only pass (LZ77 decode_mode:sequential), or a design
  // measured on the first file only.
  if (!partial_variants.empty()) {
    table.caption += fmt::format(" Left out (not compressed on all of these files): {}.",
                                 fmt::join(partial_variants, ", "));
  }
  if (by_model) {
    table.caption += fmt::format(
        " The GPU cells were measured on several GPU models ({}): each GPU variant is split by "
        "the model that measured it (gpu_model), and kept only where that model measured every "
        "one of these files.",
        fmt::join(gpu_models(set, corpus), ", "));
  }
  return table;
}

}  // namespace gcbench::reports
