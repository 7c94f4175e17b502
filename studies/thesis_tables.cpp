#include "studies/thesis_tables.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "studies/gzip_reference.hpp"

namespace gcbench::studies {
using namespace reports;
namespace {

const std::vector<std::string> kFinders = {"hash", "brute", "z"};

// The GPU designs LZ77 compressed with `finder` in: the thesis's thread design first, then the
// default (auto), then the others; the default alone when none was measured (its blanks say
// why).
std::vector<std::string> gpu_designs(const TableBuilder& b, const std::string& finder) {
  const std::string def = b.default_value("lz77/gpu", "design");
  std::vector<std::string> designs =
      b.axis_values("lz77", "design", "compress", {{"finder", finder}});
  if (designs.empty()) return {def};
  std::stable_partition(designs.begin(), designs.end(),
                        [&](const std::string& d) { return d == "thread" || d == def; });
  std::stable_partition(designs.begin(), designs.end(),
                        [](const std::string& d) { return d == "thread"; });
  return designs;
}

// A GPU LZ77 query's axes: `fixed`, plus the design unless it is the default one.
std::map<std::string, std::string> with_design(const TableBuilder& b,
                                               std::map<std::string, std::string> fixed,
                                               const std::string& design) {
  if (!design.empty() && design != b.default_value("lz77/gpu", "design")) fixed["design"] = design;
  return fixed;
}

// What design=auto chose per finder, from the results' context: " (auto: hash warp, z block)".
std::string auto_note(const TableBuilder& b) {
  std::vector<std::string> picks;
  for (const std::string& f : kFinders) {
    const std::string key = "auto:lz77/gpu/finder:" + f + "/";
    for (const auto& [k, v] : b.results().context) {
      if (!k.starts_with(key) || !v.starts_with("design=")) continue;
      picks.push_back(f + " " + v.substr(7, v.find(':') - 7));
      break;
    }
  }
  if (picks.empty()) return "";
  return fmt::format(" design=auto chose, on this GPU: {}.", fmt::join(picks, ", "));
}
}  // namespace

std::vector<Table> lz77_tables(const TableBuilder& b) {
  const std::vector<std::string> wis = b.axis_values("lz77", "work_items");
  const std::string c = b.corpus();
  const std::string auto_chose = auto_note(b);
  std::vector<Table> tables;
  // T1 for the first GPU design measured (the thesis's thread design), a table of its own name
  // for each other design (the thesis numbers one table T1), then T2.
  const std::vector<std::string> t1_designs = gpu_designs(b, "hash");
  for (const std::string& design : t1_designs) {
    const bool first = &design == &t1_designs.front();
    std::vector<Column> cols;
    for (const std::string& wi : wis) {
      cols.push_back(
          col(wi, "work_items_" + wi + "_s", Unit::seconds,
              q("lz77", "gpu", "compress",
                with_design(b, {{"finder", "hash"}, {"work_items", wi}}, design), Quantity::time)));
    }
    const std::string named = t1_designs.size() > 1 ? ", design " + design : "";
    tables.push_back(b.make(first ? "lz77_t1" : "lz77_t1_" + design,
                            fmt::format("{}LZ77 hash compression kernel time on GPU{}, {}",
                                        first ? "T1: " : "", named, c),
                            "Kernel time (CUDA events) per work-item count (PVPP)." + auto_chose,
                            cols));
  }
  {
    std::vector<Column> cols;
    for (const std::string& wi : wis) {
      cols.push_back(col(
          wi, "work_items_" + wi + "_s", Unit::seconds,
          q("lz77", "cpu", "compress", {{"finder", "hash"}, {"work_items", wi}}, Quantity::time)));
    }
    tables.push_back(b.make("lz77_t2", "T2: LZ77 hash compression time on CPU, " + c,
                            "Wall time per work-item count, all cores.", cols));
  }
  // GPU columns per finder and design; a finder measured in its default design alone keeps
  // the plain header ("hash kernel", "GPU hash").
  std::vector<Column> t3, t4, t5;
  for (const std::string& f : kFinders) {
    const std::vector<std::string> designs = gpu_designs(b, f);
    for (const std::string& d : designs) {
      const bool plain = designs.size() == 1 && d == b.default_value("lz77/gpu", "design");
      const std::string head = plain ? f : f + " " + d;
      const std::string csv = plain ? f : f + "_" + d;
      const auto fixed = with_design(b, {{"finder", f}}, d);
      t3.push_back(col(head + " kernel time", csv + "_kernel_s", Unit::seconds,
                       q("lz77", "gpu", "compress", fixed, Quantity::kernel)));
      t3.push_back(col(head + " transfer time", csv + "_transfer_s", Unit::seconds,
                       q("lz77", "gpu", "compress", fixed, Quantity::transfer)));
      t5.push_back(col("GPU " + head + " end-to-end", "gpu_" + csv + "_e2e_s", Unit::seconds,
                       q("lz77", "gpu", "compress", fixed, Quantity::e2e)));
    }
    t4.push_back(col(f, f + "_s", Unit::seconds,
                     q("lz77", "cpu", "compress", {{"finder", f}}, Quantity::time)));
  }
  for (const std::string& f : kFinders) {
    t5.push_back(col("CPU " + f, "cpu_" + f + "_s", Unit::seconds,
                     q("lz77", "cpu", "compress", {{"finder", f}}, Quantity::time)));
  }
  append(t5, reference_cols(b, "compress", Quantity::time, Unit::seconds, "", "s"));
  tables.push_back(b.make("lz77_t3", "T3: LZ77 compression time per match finder on GPU, " + c,
                          "Kernel and host/device transfer time (CUDA events), default work items. "
                          "Designs: thread is the thesis's one thread per chunk." +
                              auto_chose,
                          t3));
  tables.push_back(b.make("lz77_t4", "T4: LZ77 compression time per match finder on CPU, " + c,
                          "Wall time, all cores, default work items (host memory: no transfers).",
                          t4));
  tables.push_back(
      b.make("lz77_t5", "T5: LZ77 compression time, GPU vs CPU vs gzip, " + c,
             "GPU: end-to-end time of a call (transfers included), per finder and design (thread: "
             "the thesis's one thread per chunk); CPU and gzip: wall time." +
                 auto_chose,
             t5));

  std::vector<Column> t6;
  t6.push_back(
      col("CPU sequential", "cpu_sequential_s", Unit::seconds,
          q("lz77", "cpu", "decompress", {{"decode_mode", "sequential"}}, Quantity::time)));
  for (const std::string device : {"cpu", "gpu"}) {
    for (const std::string& wi : b.axis_values("lz77", "work_items", "decompress")) {
      const bool cpu = device == std::string("cpu");
      std::map<std::string, std::string> fixed{{"work_items", wi}};
      if (cpu) fixed["decode_mode"] = "parallel";  // a CPU-only axis
      t6.push_back(col(fmt::format("{} {}{}", cpu ? "CPU" : "GPU", wi, cpu ? "" : " kernel"),
                       fmt::format("{}_parallel_{}{}_s", device, wi, cpu ? "" : "_kernel"),
                       Unit::seconds, q("lz77", device, "decompress", fixed, Quantity::time)));
    }
  }
  append(t6, reference_cols(b, "decompress", Quantity::time, Unit::seconds, "", "s"));
  tables.push_back(
      b.make("lz77_t6", "T6: LZ77 decompression time, " + c,
             "Sequential (one thread), parallel per work-item count (CPU: all cores; GPU: "
             "kernel time), gzip.",
             t6));

  const std::map<std::string, std::string> hash{{"finder", "hash"}};
  std::vector<Column> t7 = size_and_reference_cols(b);
  t7.push_back(col("LZ77 hash entropy-coded", "lz77_hash_entropy_bytes", Unit::bytes,
                   q("lz77", "cpu", "compress", hash, Quantity::entropy_bytes)));
  t7.push_back(col("LZ77 entropy-coded ratio", "lz77_hash_entropy_ratio", Unit::ratio,
                   q("lz77", "cpu", "compress", hash, Quantity::entropy_ratio)));
  tables.push_back(
      b.make("lz77_t7", "T7: sizes, " + c,
             "Sizes in bytes; ratio = original / compressed. LZ77 hash: its triples after the "
             "entropy stage (the thesis's ratio), default work items.",
             t7));
  return tables;
}

std::vector<Table> family_tables(const TableBuilder& b, const std::string& codec) {
  const std::string c = b.corpus();
  std::vector<Table> tables;
  for (const std::string axis : {"frame_size", "element_width"}) {
    const std::vector<std::string> values = b.axis_values(codec, axis);
    if (values.empty()) continue;
    const std::string id = codec + "_" + axis;
    auto per_value = [&](const std::string& device, const std::string& direction, Quantity quantity,
                         const std::string& suffix) {
      std::vector<Column> cols;
      for (const std::string& v : values) {
        cols.push_back(col(fmt::format("{}{}", v, suffix.empty() ? "" : " " + suffix + " time"),
                           fmt::format("{}_{}{}_s", axis, v, suffix.empty() ? "" : "_" + suffix),
                           Unit::seconds, q(codec, device, direction, {{axis, v}}, quantity)));
      }
      return cols;
    };
    tables.push_back(b.make(
        id + "_t1", fmt::format("{} compression kernel time on GPU per {}, {}", codec, axis, c),
        "Kernel time (CUDA events).", per_value("gpu", "compress", Quantity::time, "")));
    tables.push_back(
        b.make(id + "_t2", fmt::format("{} compression time on CPU per {}, {}", codec, axis, c),
               "Wall time, all cores.", per_value("cpu", "compress", Quantity::time, "")));
    std::vector<Column> split = per_value("gpu", "compress", Quantity::kernel, "kernel");
    for (Column& t : per_value("gpu", "compress", Quantity::transfer, "transfer"))
      split.push_back(t);
    tables.push_back(b.make(
        id + "_t3",
        fmt::format("{} GPU compression: kernel and transfer time per {}, {}", codec, axis, c),
        "CUDA events around the kernels and around the host/device copies.", split));
    std::vector<Column> dec;
    for (const std::string device : {"cpu", "gpu"}) {
      const bool cpu = device == std::string("cpu");
      for (Column& t : per_value(device, "decompress", Quantity::time, "")) {
        t.header = fmt::format("{} {}{}", cpu ? "CPU" : "GPU", t.header, cpu ? "" : " kernel");
        t.csv = fmt::format("{}_{}{}", device, t.csv.substr(0, t.csv.size() - 2),
                            cpu ? "_s" : "_kernel_s");
        dec.push_back(t);
      }
    }
    append(dec, reference_cols(b, "decompress", Quantity::time, Unit::seconds, "", "s"));
    tables.push_back(b.make(id + "_t6",
                            fmt::format("{} decompression time per {}, {}", codec, axis, c),
                            "CPU: wall time, all cores; GPU: kernel time; gzip: wall time.", dec));
    std::vector<Column> sizes = size_and_reference_cols(b);
    for (const std::string& v : values) {
      sizes.push_back(col(fmt::format("{} {}={}", codec, axis, v),
                          fmt::format("{}_{}_{}_bytes", codec, axis, v), Unit::bytes,
                          q(codec, "cpu", "compress", {{axis, v}}, Quantity::compressed_bytes)));
      sizes.push_back(col("container ratio",
                          fmt::format("{}_{}_{}_container_ratio", codec, axis, v), Unit::ratio,
                          q(codec, "cpu", "compress", {{axis, v}}, Quantity::ratio)));
    }
    tables.push_back(b.make(id + "_t7", fmt::format("{} sizes per {}, {}", codec, axis, c),
                            "Sizes in bytes; container ratio = original / the container (with its "
                            "32-byte header).",
                            sizes));
  }
  std::vector<Column> t5{
      col("GPU end-to-end", "gpu_e2e_s", Unit::seconds,
          q(codec, "gpu", "compress", {}, Quantity::e2e)),
      col("CPU", "cpu_s", Unit::seconds, q(codec, "cpu", "compress", {}, Quantity::time))};
  append(t5, reference_cols(b, "compress", Quantity::time, Unit::seconds, "", "s"));
  tables.push_back(b.make(
      codec + "_t5", fmt::format("{} compression time, GPU vs CPU vs gzip, {}", codec, c),
      "Default parameters. GPU: end-to-end time of a call (transfers included); CPU, gzip: wall "
      "time.",
      t5));
  return tables;
}

std::vector<TableSection> thesis_sections(const TableBuilder& b) {
  std::vector<TableSection> sections;
  if (b.has_codec("lz77")) sections.push_back({"LZ77 (thesis tables)", lz77_tables(b)});
  for (const std::string codec : {"fl", "rle"}) {
    if (b.has_codec(codec)) sections.push_back({codec, family_tables(b, codec)});
  }
  return sections;
}

}  // namespace gcbench::studies
