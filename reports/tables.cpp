#include "reports/tables.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace gcbench::reports {
namespace {

const std::vector<std::string> kFinders = {"hash", "brute", "z"};

Column col(std::string header, std::string csv, Unit unit, Query query) {
  return Column{std::move(header), std::move(csv), unit, std::move(query)};
}

Query q(std::string codec, std::string device, std::string direction,
        std::map<std::string, std::string> fixed, Quantity quantity) {
  return Query{std::move(codec), std::move(device), std::move(direction), std::move(fixed),
               quantity};
}

// The gzip reference columns: the gzip program's (`gzip -6 -n`, its wall time) where it was
// measured, and zlib's beside it under its own name; without gzip cells, zlib's alone, named
// zlib (never gzip); with neither, a gzip column that says "not measured".
// Headers are "<codec><suffix>", CSV names "<codec>_<csv>".
std::vector<Column> reference_cols(const TableBuilder& b, const std::string& direction,
                                   Quantity quantity, Unit unit, const std::string& suffix,
                                   const std::string& csv) {
  std::vector<std::string> codecs;
  for (const std::string codec : {"gzip", "zlib"}) {
    if (b.has_codec(codec)) codecs.push_back(codec);
  }
  if (codecs.empty()) codecs.push_back("gzip");
  std::vector<Column> cols;
  for (const std::string& codec : codecs) {
    cols.push_back(
        col(codec + suffix, codec + "_" + csv, unit, q(codec, "cpu", direction, {}, quantity)));
  }
  return cols;
}

// The codec whose cells give the original size: the gzip reference, as above.
std::string size_codec(const TableBuilder& b) {
  return b.has_codec("gzip") || !b.has_codec("zlib") ? "gzip" : "zlib";
}

// The original size, then each gzip reference's compressed bytes and ratio (T7's layout).
std::vector<Column> size_and_reference_cols(const TableBuilder& b) {
  std::vector<Column> cols{col("size", "size_bytes", Unit::bytes,
                               q(size_codec(b), "cpu", "compress", {}, Quantity::size))};
  for (const Column& bytes :
       reference_cols(b, "compress", Quantity::compressed_bytes, Unit::bytes, "", "bytes")) {
    cols.push_back(bytes);
    cols.push_back(col(bytes.header + " ratio", bytes.query.codec + "_ratio", Unit::ratio,
                       q(bytes.query.codec, "cpu", "compress", {}, Quantity::ratio)));
  }
  return cols;
}

void append(std::vector<Column>& to, std::vector<Column> more) {
  for (Column& c : more) to.push_back(std::move(c));
}

std::string shorten(const std::string& text) {
  return text.size() <= 80 ? text : text.substr(0, 77) + "...";
}

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

TableBuilder::TableBuilder(const ResultSet& set, Defaults defaults, std::string corpus,
                           std::vector<std::string> files)
    : set_(set),
      defaults_(std::move(defaults)),
      corpus_(std::move(corpus)),
      files_(std::move(files)) {}

const Measurement* TableBuilder::find(const std::string& file, const Query& query,
                                      bool errors) const {
  const auto defaults = defaults_.find(query.codec + "/" + query.device);
  for (const Measurement& m : set_.cells) {
    const results::CellId& id = m.id;
    if (id.codec != query.codec || id.device != query.device || id.direction != query.direction ||
        id.corpus != corpus_ || id.file != file || m.error.has_value() != errors) {
      continue;
    }
    bool match = std::all_of(query.fixed.begin(), query.fixed.end(), [&](const auto& f) {
      const std::string* v = id.param(f.first);
      return v != nullptr && *v == f.second;
    });
    for (const auto& [axis, value] : id.params) {
      if (!match || query.fixed.count(axis)) continue;
      if (defaults == defaults_.end()) continue;
      auto d = defaults->second.find(axis);
      match = d == defaults->second.end() || d->second == value;
    }
    if (match) return &m;
  }
  return nullptr;
}

Value TableBuilder::value(const std::string& file, const Query& query) const {
  if (const auto missing = set_.missing_files.find(corpus_ + "/" + file);
      missing != set_.missing_files.end()) {
    // A user's folder's entries left out on purpose say why (a FIFO, the same file twice).
    return Value::blank(results::is_skipped_reason(missing->second) ? missing->second
                                                                    : "file not available");
  }
  const Measurement* m = find(file, query, false);
  if (m == nullptr) {
    if (const Measurement* e = find(file, query, true))
      return Value::blank(e->skipped() ? *e->error : "error: " + shorten(*e->error));
    if (query.device == "gpu" && !set_.gpu_present) return Value::blank("no device");
    if (one_launch_block(file, query)) {
      return Value::blank("one launch block: as at " +
                          default_value(query.codec + "/" + query.device, "work_items"));
    }
    return Value::blank("not measured");
  }
  auto counter = [&](const char* name) -> Value {
    double v = m->counter(name);
    if (v < 0) return Value::blank(std::string("no ") + name + " counter");
    return Value::of(v);
  };
  auto ratio = [&](const char* den_name) -> Value {
    double num = m->counter("input_bytes");
    double den = m->counter(den_name);
    if (num < 0 || den <= 0) return Value::blank(std::string("no ") + den_name + " counter");
    if (num == 0) return Value::blank("empty input");  // 0 bytes: a ratio of 0 would say "grew"
    return Value{num / den, {}, num, den};
  };
  switch (query.quantity) {
    case Quantity::time: {
      Value v = Value::of(m->time_s);
      if (m->repetitions > 1 || m->cv > 0) v.spread = m->cv;
      return v;
    }
    case Quantity::kernel:
      return counter("kernel_s");
    case Quantity::transfer:
      return counter("transfer_s");
    case Quantity::e2e:
      return counter("e2e_s");
    case Quantity::size:
      return counter("input_bytes");
    case Quantity::compressed_bytes:
      return counter("compressed_bytes");
    case Quantity::entropy_bytes:
      return counter("entropy_bytes");
    case Quantity::ratio:
      return ratio("compressed_bytes");
    case Quantity::entropy_ratio:
      return ratio("entropy_bytes");
  }
  return Value::blank("unknown quantity");
}

bool TableBuilder::one_launch_block(const std::string& file, const Query& query) const {
  const auto wi = query.fixed.find("work_items");
  const std::string codec = query.codec + "/" + query.device;
  const std::string chunk = default_value(codec, "chunk"), def = default_value(codec, "work_items");
  if (wi == query.fixed.end() || chunk.empty() || def.empty()) return false;
  for (const Measurement& m : set_.cells) {
    if (m.id.corpus != corpus_ || m.id.file != file || m.counter("input_bytes") < 0) continue;
    return m.counter("input_bytes") <=
           std::stod(chunk) * std::min(std::stod(def), std::stod(wi->second));
  }
  return false;
}

Row TableBuilder::total_row(const std::vector<Column>& columns,
                            const std::vector<Row>& rows) const {
  // Files that are not available are left out of the total (and the label says so); any
  // other blank makes the column's total blank too, since a partial sum would mislead. Entries
  // of a user's folder skipped on purpose (a FIFO, a file found twice) are not files the total
  // lacks: the label counts them apart.
  std::vector<const Row*> included;
  std::size_t skipped = 0;
  for (const Row& r : rows) {
    const auto missing = set_.missing_files.find(corpus_ + "/" + r.label);
    if (missing == set_.missing_files.end()) {
      included.push_back(&r);
    } else if (results::is_skipped_reason(missing->second)) {
      ++skipped;
    }
  }
  const std::size_t files = rows.size() - skipped;
  std::string label = included.size() == files
                          ? fmt::format("{} files", files)
                          : fmt::format("{} of {} files", included.size(), files);
  if (skipped > 0) label += fmt::format("; {} skipped", skipped);
  Row total{included.size() == rows.size() ? "total" : fmt::format("total ({})", label), {}};
  for (std::size_t c = 0; c < columns.size(); ++c) {
    Value sum = Value::of(0);
    for (const Row* r : included) {
      const Value& v = r->values[c];
      if (!v.value) {
        sum = Value::blank(v.reason);
        break;
      }
      *sum.value += *v.value;
      sum.num += v.num;
      sum.den += v.den;
    }
    if (included.empty()) sum = Value::blank("no files");
    if (sum.value && columns[c].unit == Unit::ratio)
      sum.value = sum.den > 0 ? sum.num / sum.den : 0;
    total.values.push_back(sum);
  }
  return total;
}

Table TableBuilder::make(std::string id, std::string title, std::string caption,
                         std::vector<Column> columns, bool with_total) const {
  Table t{std::move(id), std::move(title), std::move(caption), std::move(columns), {},
          std::nullopt};
  for (const std::string& file : files_) {
    Row row{file, {}};
    for (const Column& c : t.columns) row.values.push_back(value(file, c.query));
    t.rows.push_back(std::move(row));
  }
  if (with_total) t.total = total_row(t.columns, t.rows);
  return t;
}

std::vector<std::string> TableBuilder::axis_values(
    const std::string& codec, const std::string& axis, const std::string& direction,
    const std::map<std::string, std::string>& where) const {
  std::set<std::string> seen;
  for (const Measurement& m : set_.cells) {
    if (m.id.codec != codec || m.id.corpus != corpus_ || m.id.direction != direction) continue;
    if (!std::all_of(where.begin(), where.end(), [&](const auto& w) {
          const std::string* v = m.id.param(w.first);
          return v != nullptr && *v == w.second;
        })) {
      continue;
    }
    if (const std::string* v = m.id.param(axis)) seen.insert(*v);
  }
  std::vector<std::string> out(seen.begin(), seen.end());
  std::sort(out.begin(), out.end(), [](const std::string& a, const std::string& b) {
    return a.size() != b.size() ? a.size() < b.size() : a < b;  // numeric order for integers
  });
  return out;
}

bool TableBuilder::has_codec(const std::string& codec) const {
  return std::any_of(set_.cells.begin(), set_.cells.end(), [&](const Measurement& m) {
    return m.id.codec == codec && m.id.corpus == corpus_;
  });
}

std::string TableBuilder::default_value(const std::string& codec_device,
                                        const std::string& axis) const {
  const auto d = defaults_.find(codec_device);
  if (d == defaults_.end()) return "";
  const auto v = d->second.find(axis);
  return v == d->second.end() ? "" : v->second;
}

std::vector<Table> lz77_tables(const TableBuilder& b) {
  const std::vector<std::string> wis = b.axis_values("lz77", "work_items");
  const std::string c = b.corpus();
  const std::string auto_chose = auto_note(b);
  std::vector<Table> tables;
  // T1 once per GPU design measured (the thesis's thread design first), then T2.
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
    tables.push_back(
        b.make(first ? "lz77_t1" : "lz77_t1_" + design,
               fmt::format("T1: LZ77 hash compression kernel time on GPU{}, {}", named, c),
               "Kernel time (CUDA events) per work-item count (PVPP)." + auto_chose, cols));
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
             "entropy stage (SPEC 1.4), default work items.",
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

Table summary_table(const TableBuilder& b) {
  std::vector<Column> cols;
  for (const std::string codec : {"lz77", "fl", "rle"}) {
    if (!b.has_codec(codec)) continue;
    const bool lz = codec == std::string("lz77");
    cols.push_back(col(codec + " GPU end-to-end time", codec + "_gpu_e2e_s", Unit::seconds,
                       q(codec, "gpu", "compress", {}, Quantity::e2e)));
    if (lz) {
      // The default GPU design (auto: the fastest verified on the GPU that measured it); the
      // others, where measured, beside it.
      const std::string thesis = b.default_value("lz77/gpu", "design");
      for (const std::string& design : b.axis_values("lz77", "design")) {
        if (design == thesis) continue;
        cols.push_back(col("lz77 GPU " + design + " end-to-end time",
                           "lz77_gpu_" + design + "_e2e_s", Unit::seconds,
                           q("lz77", "gpu", "compress", {{"design", design}}, Quantity::e2e)));
      }
    }
    cols.push_back(col(codec + " CPU time", codec + "_cpu_s", Unit::seconds,
                       q(codec, "cpu", "compress", {}, Quantity::time)));
    cols.push_back(
        col(lz ? "lz77 entropy-coded ratio" : codec + " container ratio",
            codec + (lz ? "_entropy_ratio" : "_container_ratio"), Unit::ratio,
            q(codec, "cpu", "compress", {}, lz ? Quantity::entropy_ratio : Quantity::ratio)));
  }
  for (const Column& t :
       reference_cols(b, "compress", Quantity::time, Unit::seconds, " time", "s")) {
    cols.push_back(t);
    cols.push_back(col(t.query.codec + " ratio", t.query.codec + "_ratio", Unit::ratio,
                       q(t.query.codec, "cpu", "compress", {}, Quantity::ratio)));
  }
  return b.make(
      "summary", "GPU vs CPU vs gzip: compression, " + b.corpus(),
      "Default parameters (LZ77 GPU: also each other design measured). GPU: end-to-end time "
      "per call (transfers included); CPU, gzip: wall time. Ratio = original / compressed: "
      "LZ77's entropy-coded size (SPEC 1.4), FL's and RLE's container, gzip's file.",
      cols);
}

}  // namespace gcbench::reports
