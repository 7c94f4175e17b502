#include "reports/columns.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <utility>

#include "reports/gpu_e2e.hpp"
#include "src/results/counters.hpp"

namespace gcbench::reports {
namespace {

constexpr const char* kWidthAxis = "element_width";

// A figure of a cell: its counter, or why there is none.
Value figure(const Measurement* m, const char* counter, const char* direction) {
  if (m == nullptr) return Value::blank(std::string(direction) + " not measured");
  if (m->error) return Value::blank(*m->error);
  const double v = m->counter(counter);
  return v >= 0 ? Value::of(v) : Value::blank(std::string("no ") + counter + " counter");
}

// The ratio, from whichever direction of the variant was measured (both read one container).
Value ratio_of(const Measurement* compress, const Measurement* decompress) {
  for (const Measurement* m : {compress, decompress}) {
    if (m == nullptr || m->error) continue;
    const double in = m->counter(results::counter::kInputBytes),
                 out = m->counter(results::counter::kCompressedBytes);
    if (in == 0) return Value::blank(kEmptyInput);
    if (in > 0 && out > 0) return Value{in / out, {}, in, out};
  }
  return Value::blank("no ratio measured");
}

}  // namespace

std::optional<Table> columns_table(const ResultSet& set, const Defaults& defaults,
                                   const std::string& corpus,
                                   const std::vector<std::string>& files) {
  if (!set.typed_corpora.contains(corpus)) return std::nullopt;
  // file -> variant -> (compress, decompress)
  std::map<std::string, std::map<std::string, std::pair<const Measurement*, const Measurement*>>>
      cells;
  std::map<std::string, std::string> width_of;
  const bool by_model = gpu_models(set, corpus).size() > 1;
  for (const Measurement& m : set.cells) {
    if (m.id.device != "gpu" || m.id.corpus != corpus) continue;
    results::CellId id = m.id;
    if (const std::string* width = id.param(kWidthAxis)) width_of[id.file] = *width;
    std::erase_if(id.params, [](const auto& p) { return p.first == kWidthAxis; });
    auto& pair = cells[m.id.file][variant_label(id, defaults) + gpu_model_axis(m, by_model)];
    (m.id.direction == "compress" ? pair.first : pair.second) = &m;
  }
  if (cells.empty()) return std::nullopt;

  Table t;
  t.id = "columns";
  t.title = "Columns of " + corpus + ": ratio and GB/s per GPU codec";
  t.label_header = "column";
  t.text_headers = {"width", "codec"};
  t.columns = {Column{"size", results::counter::kInputBytes, Unit::bytes, {}},
               Column{results::counter::kRatio, results::counter::kRatio, Unit::ratio, {}},
               Column{"compress kernel", "compress_kernel_gbps", Unit::gb_per_s, {}},
               Column{"decompress kernel", "decompress_kernel_gbps", Unit::gb_per_s, {}},
               Column{"compress e2e", "compress_e2e_gbps", Unit::gb_per_s, {}},
               Column{"decompress e2e", "decompress_e2e_gbps", Unit::gb_per_s, {}}};
  for (const std::string& file : files) {
    const auto of_file = cells.find(file);
    if (of_file == cells.end()) continue;
    const auto width = width_of.find(file);
    for (const auto& [variant, pair] : of_file->second) {
      const auto [compress, decompress] = pair;
      Row row{file, {}, {width == width_of.end() ? "-" : width->second, variant}};
      const Measurement* measured = compress != nullptr && !compress->error ? compress : decompress;
      if (measured == nullptr || measured->error) {  // a failed cell, and no other: its error
        const Measurement* failed = compress != nullptr ? compress : decompress;
        row.values.assign(t.columns.size(), Value::blank(*failed->error));
      } else {
        const double size = measured->counter(results::counter::kInputBytes);
        row.values = {size >= 0 ? Value::of(size) : Value::blank("no input_bytes counter"),
                      ratio_of(compress, decompress),
                      figure(compress, results::counter::kKernelGbps, "compression"),
                      figure(decompress, results::counter::kKernelGbps, "decompression"),
                      figure(compress, results::counter::kE2eGbps, "compression"),
                      figure(decompress, results::counter::kE2eGbps, "decompression")};
      }
      t.rows.push_back(std::move(row));
    }
  }
  t.caption =
      "Each file of a typed corpus (an array of integers of its element width) with every GPU "
      "codec variant measured on it: ratio = original / container; kernel: the device call "
      "alone (CUDA events) on data in device memory; e2e: host memory to host memory through "
      "the pipeline (pinned); GB/s of original bytes. Codec: its axes that are not the "
      "defaults, the element width aside (its own column).";
  if (by_model) {
    t.caption += fmt::format(
        " The cells were measured on several GPU models ({}): each codec names the model that "
        "measured it (gpu_model).",
        fmt::join(gpu_models(set, corpus), ", "));
  }
  return t;
}

}  // namespace gcbench::reports
