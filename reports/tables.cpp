#include "reports/tables.hpp"
#include "src/results/counters.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <set>

namespace gcbench::reports {
namespace {

std::string shorten(const std::string& text) {
  return text.size() <= 80 ? text : text.substr(0, 77) + "...";
}

// "NVIDIA H100 80GB HBM3" -> "nvidia_h100_80gb_hbm3": a model in a CSV column name.
std::string slug(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!out.empty() && out.back() != '_') {
      out += '_';
    }
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

}  // namespace

TableBuilder::TableBuilder(const ResultSet& set, Defaults defaults, std::string corpus,
                           std::vector<std::string> files)
    : set_(set),
      defaults_(std::move(defaults)),
      corpus_(std::move(corpus)),
      files_(std::move(files)) {
  if (std::vector<std::string> models = gpu_models(set_, corpus_); models.size() > 1)
    models_ = std::move(models);
}

const Measurement* TableBuilder::find(const std::string& file, const Query& query,
                                      bool errors) const {
  const auto defaults = defaults_.find(query.codec + "/" + query.device);
  const auto matches = [&](const Measurement& m) {
    const results::CellId& id = m.id;
    if (id.codec != query.codec || id.device != query.device || id.direction != query.direction ||
        id.corpus != corpus_ || id.file != file || m.error.has_value() != errors ||
        (query.gpu_model && gpu_model_of(m) != *query.gpu_model)) {
      return false;
    }
    bool match = std::all_of(query.fixed.begin(), query.fixed.end(), [&](const auto& f) {
      const std::string* v = id.param(f.first);
      return v != nullptr && *v == f.second;
    });
    for (const auto& [axis, value] : m.as_defaults_see_it().params) {
      if (!match || query.fixed.count(axis)) continue;
      if (defaults == defaults_.end()) continue;
      auto d = defaults->second.find(axis);
      match = d == defaults->second.end() || d->second == value;
    }
    return match;
  };
  for (const Measurement& m : set_.cells) {
    if (matches(m)) return &m;
  }
  // A model's cell may be a GPU replica that `cells` holds on another GPU.
  if (query.gpu_model) {
    for (const Measurement& m : set_.replicas) {
      if (matches(m)) return &m;
    }
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
    if (query.gpu_model) {
      Query any_model = query;
      any_model.gpu_model.reset();
      const Measurement* other = find(file, any_model, false);
      if (other == nullptr) other = find(file, any_model, true);
      if (other != nullptr) return Value::blank("measured on " + gpu_model_of(*other));
    }
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
    double num = m->counter(results::counter::kInputBytes);
    double den = m->counter(den_name);
    if (num < 0 || den <= 0) return Value::blank(std::string("no ") + den_name + " counter");
    if (num == 0) return Value::blank(kEmptyInput);  // 0 bytes: a ratio of 0 would say "grew"
    return Value{num / den, {}, num, den};
  };
  switch (query.quantity) {
    case Quantity::time: {
      Value v = Value::of(m->time_s);
      v.spread = m->uncertainty();
      v.over_target = m->over_error_target();
      v.throttled = m->throttled();
      v.busy = m->busy();
      return v;
    }
    case Quantity::kernel:
      return counter(results::counter::kKernelS);
    case Quantity::transfer:
      return counter(results::counter::kTransferS);
    case Quantity::e2e:
      return counter(results::counter::kE2eS);
    case Quantity::size:
      return counter(results::counter::kInputBytes);
    case Quantity::compressed_bytes:
      return counter(results::counter::kCompressedBytes);
    case Quantity::entropy_bytes:
      return counter(results::counter::kEntropyBytes);
    case Quantity::ratio:
      return ratio(results::counter::kCompressedBytes);
    case Quantity::entropy_ratio:
      return ratio(results::counter::kEntropyBytes);
    case Quantity::memory_host:
      return counter(results::counter::kMemoryHostBytes);
    case Quantity::memory_device:
      return counter(results::counter::kMemoryDeviceBytes);
  }
  return Value::blank("unknown quantity");
}

bool TableBuilder::one_launch_block(const std::string& file, const Query& query) const {
  const auto wi = query.fixed.find("work_items");
  const std::string codec = query.codec + "/" + query.device;
  const std::string chunk = default_value(codec, "chunk"), def = default_value(codec, "work_items");
  if (wi == query.fixed.end() || chunk.empty() || def.empty()) return false;
  for (const Measurement& m : set_.cells) {
    if (m.id.corpus != corpus_ || m.id.file != file || m.counter(results::counter::kInputBytes) < 0)
      continue;
    return m.counter(results::counter::kInputBytes) <=
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
  std::set<std::string> empty;  // rows whose ratios have none: left out of those columns' totals
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
  for (const Row* r : included) {
    for (const Value& v : r->values) {
      if (!v.value && v.reason == kEmptyInput) empty.insert(r->label);
    }
  }
  if (!empty.empty()) {
    label += fmt::format("{}ratios without {} (empty)", label.empty() ? "" : "; ",
                         fmt::join(empty, ", "));
  }
  const bool whole = included.size() == rows.size() && empty.empty();
  Row total{whole ? "total" : fmt::format("total ({})", label), {}};
  for (std::size_t c = 0; c < columns.size(); ++c) {
    Value sum = Value::of(0);
    for (const Row* r : included) {
      const Value& v = r->values[c];
      if (!v.value && v.reason == kEmptyInput) continue;  // nothing to add: named in the label
      if (!v.value) {
        sum = Value::blank(v.reason);
        break;
      }
      // Memory is a peak per cell: the corpus's is the largest, not their sum.
      if (columns[c].query.quantity == Quantity::memory_host ||
          columns[c].query.quantity == Quantity::memory_device) {
        *sum.value = std::max(*sum.value, *v.value);
        continue;
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

std::vector<Column> TableBuilder::split_by_model(std::vector<Column> columns) const {
  if (models_.empty()) return columns;
  std::vector<Column> split;
  for (Column& c : columns) {
    if (c.query.device != "gpu") {
      split.push_back(std::move(c));
      continue;
    }
    for (const std::string& model : models_) {
      Column of_model = c;
      of_model.header += " (" + model + ")";
      of_model.csv = slug(model) + "_" + c.csv;
      of_model.query.gpu_model = model;
      split.push_back(std::move(of_model));
    }
  }
  return split;
}

Table TableBuilder::make(std::string id, std::string title, std::string caption,
                         std::vector<Column> columns, bool with_total) const {
  const bool gpu_columns = std::any_of(columns.begin(), columns.end(),
                                       [](const Column& c) { return c.query.device == "gpu"; });
  if (!models_.empty() && gpu_columns) {
    caption += fmt::format(
        " The GPU cells were measured on several GPU models: each GPU column is split into one "
        "per model ({}).",
        fmt::join(models_, ", "));
  }
  Table t{
      std::move(id), std::move(title), std::move(caption), split_by_model(std::move(columns)), {},
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

Column col(std::string header, std::string csv, Unit unit, Query query) {
  return Column{std::move(header), std::move(csv), unit, std::move(query)};
}

Query q(std::string codec, std::string device, std::string direction,
        std::map<std::string, std::string> fixed, Quantity quantity) {
  return Query{std::move(codec), std::move(device), std::move(direction), std::move(fixed),
               quantity};
}

}  // namespace gcbench::reports
