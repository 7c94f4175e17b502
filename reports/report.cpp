#include "reports/report.hpp"

#include <fmt/format.h>

#include <fstream>
#include <stdexcept>

#include "reports/gpu_e2e.hpp"
#include "reports/render.hpp"
#include "reports/svg.hpp"
#include "reports/variants.hpp"

namespace gcbench::reports {
namespace fs = std::filesystem;
namespace {

// The gzip program that measured the gzip cells ("gzip 1.12 (/usr/bin/gzip)"), or why none did.
std::string gzip_program(const ResultSet& set) {
  if (auto it = set.context.find("codec:gzip/cpu"); it != set.context.end()) return it->second;
  if (auto it = set.context.find("unavailable_codec:gzip"); it != set.context.end())
    return "gzip program unavailable (" + it->second + ")";
  return "gzip program unknown";
}

void write_file(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::trunc);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

// Corpus throughput in MB/s for one query: total bytes over total time of the files that
// have a value; nullopt when none has.
std::optional<double> throughput(const TableBuilder& b, const std::vector<std::string>& files,
                                 Query query) {
  double bytes = 0;
  double seconds = 0;
  for (const std::string& f : files) {
    Query size_q = query;
    size_q.quantity = Quantity::size;
    Value t = b.value(f, query);
    Value s = b.value(f, size_q);
    if (!t.value || !s.value || *t.value <= 0) continue;
    bytes += *s.value;
    seconds += *t.value;
  }
  if (seconds <= 0) return std::nullopt;
  return bytes / seconds / 1e6;
}

// Returns the Markdown lines that embed the plots.
std::string write_plots(const TableBuilder& b, const std::vector<std::string>& files,
                        const fs::path& dir, const std::string& rel) {
  std::string md;
  auto emit = [&](const std::string& name, const std::string& svg, const std::string& caption) {
    write_file(dir / name, svg);
    md += fmt::format("![{}]({}/{})\n\n", caption, rel, name);
  };
  const std::vector<std::string> wis = b.axis_values("lz77", "work_items");
  if (!wis.empty()) {
    std::vector<double> xs;
    for (const std::string& w : wis) xs.push_back(std::stod(w));
    std::vector<Series> series;
    for (const auto& [device, direction, quantity, name] :
         std::vector<std::tuple<std::string, std::string, Quantity, std::string>>{
             {"cpu", "compress", Quantity::time, "CPU compress"},
             {"gpu", "compress", Quantity::time, "GPU compress (kernel)"},
             {"cpu", "decompress", Quantity::time, "CPU decompress"},
             {"gpu", "decompress", Quantity::time, "GPU decompress (kernel)"}}) {
      Series s{name, {}};
      for (const std::string& w : wis) {
        std::map<std::string, std::string> fixed{{"finder", "hash"}, {"work_items", w}};
        if (direction == "decompress") fixed.erase("finder");
        s.values.push_back(throughput(b, files, Query{"lz77", device, direction, fixed, quantity}));
      }
      if (std::none_of(s.values.begin(), s.values.end(),
                       [](const auto& v) { return v.has_value(); })) {
        s.name += device == "gpu" ? " (no data: no device?)" : " (no data)";
      }
      series.push_back(std::move(s));
    }
    emit("throughput_vs_work_items.svg",
         line_chart("LZ77 hash throughput vs work items, " + b.corpus(),
                    "work items per launch block", "MB/s (corpus total)", xs, series),
         "LZ77 throughput vs work items");
  }

  std::vector<Series> ratios;
  auto ratio_series = [&](const std::string& name, const std::string& codec, Quantity quantity) {
    if (!b.has_codec(codec)) return;
    Series s{name, {}};
    for (const std::string& f : files)
      s.values.push_back(b.value(f, Query{codec, "cpu", "compress", {}, quantity}).value);
    ratios.push_back(std::move(s));
  };
  ratio_series("gzip -6", "gzip", Quantity::ratio);
  ratio_series("zlib -6", "zlib", Quantity::ratio);
  ratio_series("LZ77 hash, entropy-coded", "lz77", Quantity::entropy_ratio);
  ratio_series("LZ77 hash, container", "lz77", Quantity::ratio);
  ratio_series("FL", "fl", Quantity::ratio);
  ratio_series("RLE", "rle", Quantity::ratio);
  emit("ratio_per_file.svg",
       bar_chart("Compression ratio per file, " + b.corpus(), "original / compressed", files,
                 ratios),
       "Compression ratio per file");

  std::vector<std::string> codecs;
  Series cpu{"CPU", {}};
  Series gpu{"GPU (end to end)", {}};
  for (const std::string codec : {"lz77", "fl", "rle", "gzip", "zlib"}) {
    if (!b.has_codec(codec)) continue;
    codecs.push_back(codec == std::string("gzip")   ? "gzip -6"
                     : codec == std::string("zlib") ? "zlib -6"
                                                    : codec);
    cpu.values.push_back(throughput(b, files, Query{codec, "cpu", "compress", {}, Quantity::time}));
    gpu.values.push_back(throughput(b, files, Query{codec, "gpu", "compress", {}, Quantity::e2e}));
  }
  emit("gpu_cpu_gzip.svg",
       bar_chart("Compression throughput, GPU vs CPU vs gzip, " + b.corpus(), "MB/s (corpus total)",
                 codecs, {cpu, gpu}),
       "GPU vs CPU vs gzip");
  return md;
}

std::string table_section(const Table& t, const fs::path& dir, const std::string& rel) {
  write_file(dir / (t.id + ".md"), "## " + t.title + "\n\n" + t.caption + "\n\n" + to_markdown(t));
  write_file(dir / (t.id + ".csv"), to_csv(t));
  write_file(dir / (t.id + ".tex"), to_latex(t));
  return fmt::format("### {}\n\n{} ([CSV]({}/{}.csv), [LaTeX]({}/{}.tex))\n\n{}\n", t.title,
                     t.caption, rel, t.id, rel, t.id, to_markdown(t));
}

}  // namespace

WrittenReport write_report(const ResultSet& set, const ReportOptions& options) {
  WrittenReport written{options.out_dir / "report.md", {}};
  std::string md = "# gcbench report\n\n";
  auto ctx = [&](const char* key) {
    auto it = set.context.find(key);
    return it == set.context.end() ? std::string("unknown") : it->second;
  };
  std::size_t errors = 0;
  for (const Measurement& m : set.cells) errors += m.error ? 1 : 0;
  md += fmt::format(
      "{} cells ({} failed). CPU: {} ({} threads). GPU: {}. git {}, zlib {}, {}.\n\n"
      "Times in seconds (medians over repetitions), sizes in bytes, ratio = original / "
      "compressed. A blank is written `n/a (reason)`: `no device` (no GPU on the machine that "
      "ran the sweep), `file not available` (the corpus file could not be fetched), `not "
      "measured` (not in the sweep), or the cell's error. gzip columns are the gzip program "
      "(`gzip -6 -n`, `gzip -d`), timed as its wall time (process start, pipes, exit); where "
      "it was not measured, zlib's deflate -6 stands in, in columns named zlib.\n\n",
      set.cells.size(), errors, ctx("cpu_model"), ctx("hardware_threads"), ctx("gpu"),
      ctx("git_revision"), ctx("zlib_version"), gzip_program(set));

  // The measuring gcbench's defaults win over this build's (which may lack the GPU codecs).
  Defaults defaults = options.defaults;
  for (const auto& [codec_device, axes] : set.defaults) {
    for (const auto& [axis, value] : axes) defaults[codec_device][axis] = value;
  }
  for (const std::string& corpus : set.corpora()) {
    auto order = options.file_order.find(corpus);
    const std::vector<std::string> files = set.files_of(
        corpus, order == options.file_order.end() ? std::vector<std::string>{} : order->second);
    TableBuilder b(set, defaults, corpus, files);
    const fs::path dir = options.out_dir / corpus;
    md += "## " + corpus + "\n\n";
    const Table summary = summary_table(b);
    written.summaries[corpus] = to_markdown(summary);
    md += table_section(summary, dir, corpus);
    md += table_section(variants_table(set, corpus), dir, corpus);
    if (auto e2e = gpu_e2e_table(set, defaults, corpus)) md += table_section(*e2e, dir, corpus);
    md += write_plots(b, files, dir / "plots", corpus + "/plots");
    if (b.has_codec("lz77")) {
      md += "## " + corpus + ": LZ77 (thesis tables)\n\n";
      for (const Table& t : lz77_tables(b)) md += table_section(t, dir, corpus);
    }
    for (const std::string codec : {"fl", "rle"}) {
      if (!b.has_codec(codec)) continue;
      md += "## " + corpus + ": " + codec + "\n\n";
      for (const Table& t : family_tables(b, codec)) md += table_section(t, dir, corpus);
    }
  }
  if (errors > 0) {
    md += "## Failed cells\n\n";
    for (const Measurement& m : set.cells) {
      if (m.error) md += fmt::format("- `{}`: {}\n", driver::format_cell_name(m.id), *m.error);
    }
  }
  write_file(written.index, md);
  return written;
}

}  // namespace gcbench::reports
