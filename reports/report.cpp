#include "reports/report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "reports/columns.hpp"
#include "reports/gpu_e2e.hpp"
#include "reports/gpu_replicas.hpp"
#include "reports/headline_text.hpp"
#include "reports/kernels.hpp"
#include "reports/measured.hpp"
#include "reports/page_data.hpp"
#include "reports/render.hpp"
#include "reports/variants.hpp"
#include "src/results/cell_name.hpp"
#include "src/results/result_files.hpp"

namespace gcbench::reports {
namespace fs = std::filesystem;
namespace {

const char* const kFormats[] = {".md", ".csv", ".tex"};

// One corpus's part of report.md, before and after its plots, and its tables with no value;
// its tables as report.html shows them, each under the heading of its section ("" before the
// plots).
struct CorpusReport {
  std::string head, tail;
  std::vector<std::string> not_measured;  // "T1: ... (no device)"
  nlohmann::json tables = nlohmann::json::array();
  std::string section;      // the heading of the section tables are added to now
  nlohmann::json headline;  // every codec at its defaults (headline_json)
};

// A table with a value: its files and its section of report.md. Without one: its earlier files
// removed (so that plots never read a stale CSV) and its title and reasons noted instead.
void add_table(const Table& t, const fs::path& dir, const std::string& rel, CorpusReport& corpus,
               std::string CorpusReport::*part) {
  const MeasuredPart shown = measured_part(t);
  if (!shown.any) {
    for (const char* ext : kFormats) fs::remove(dir / (t.id + ext));
    corpus.not_measured.push_back(fmt::format("{} ({})", t.title, shown.note));
    return;
  }
  const std::string note = shown.note.empty() ? "" : shown.note + "\n\n";
  const std::string md = to_markdown(shown.table);
  results::write_file_atomically(dir / (t.id + ".md"),
                                 "## " + t.title + "\n\n" + t.caption + "\n\n" + note + md);
  results::write_file_atomically(dir / (t.id + ".csv"), to_csv(t));
  results::write_file_atomically(dir / (t.id + ".tex"), to_latex(shown.table));
  corpus.*part += fmt::format("### {}\n\n{} ([CSV]({}/{}.csv), [LaTeX]({}/{}.tex))\n\n{}{}\n",
                              t.title, t.caption, rel, t.id, rel, t.id, note, md);
  nlohmann::json page = table_json(shown.table, shown.note);
  page["section"] = corpus.section;
  page["csv"] = rel + "/" + t.id + ".csv";
  page["tex"] = rel + "/" + t.id + ".tex";
  corpus.tables.push_back(std::move(page));
}

std::string plots_section(const PlotOutcome& plots, const std::string& corpus) {
  std::string md;
  if (const auto made = plots.made.find(corpus); made != plots.made.end()) {
    for (const Plot& p : made->second) {
      md += fmt::format("![{}]({}) ([PNG]({}))\n\n", p.title, p.svg.string(), p.png.string());
    }
  }
  if (const auto skipped = plots.skipped.find(corpus); skipped != plots.skipped.end()) {
    md += fmt::format("Plots not drawn: {}.\n\n", fmt::join(skipped->second, "; "));
  }
  return md.empty() ? md : "### Plots, " + corpus + "\n\n" + md;
}

// The GPU the results were measured on: the run context's, or every model that measured GPU
// cells where there are several (each model's figures are kept apart).
std::string gpu_text(const ResultSet& set) {
  std::map<std::string, std::size_t> cells;  // model -> its GPU cells
  for (const Measurement& m : set.cells) {
    if (m.id.device == "gpu" && m.gpu) ++cells[gpu_model_of(m)];
  }
  if (cells.size() > 1) {
    std::vector<std::string> models;
    for (const auto& [model, count] : cells)
      models.push_back(fmt::format("{} ({} cells)", model, count));
    return fmt::format("several models, each kept apart in the tables: {}",
                       fmt::join(models, ", "));
  }
  // Folders of several machines: every GPU their files name (a CPU-only one says "none").
  if (const auto values = set.context_values.find("gpu");
      values != set.context_values.end() && values->second.size() > 1) {
    return fmt::format("the files name several: {}", fmt::join(values->second, "; "));
  }
  const auto gpu = set.context.find("gpu");
  std::string text = gpu == set.context.end() ? "unknown" : gpu->second;
  if (const auto differs = set.context.find("merged_differs:gpu"); differs != set.context.end()) {
    text += fmt::format(
        " (the merged shards ran on {}, and their cells do not record which: GPU figures may mix "
        "models)",
        differs->second);
  }
  return text;
}

// The report's opening: what was measured where, and how to read every table; the studies add
// the tools their figures rest on and how their own columns read.
std::string introduction(const ResultSet& set, std::size_t errors,
                         const std::vector<StudyTables>& studies) {
  const auto ctx = [&](const char* key) { return context_text(set, key); };
  std::string tools, reading;
  for (const StudyTables& s : studies) {
    if (s.tools) tools += ", " + s.tools(set);
    if (!s.introduction.empty()) reading += " " + s.introduction;
  }
  return fmt::format(
             "# gcbench report\n\n"
             "{} cells ({} failed). CPU: {} ({} threads). GPU: {}. git {}{}.\n\n"
             "Times are medians over repetitions, each column in its own unit, named in its header "
             "(ms or s; throughput in MB/s or GB/s of uncompressed bytes); `±` after a time is its "
             "noise: the coefficient of variation (standard deviation / mean) over the "
             "repetitions, or for one repetition the relative standard error of the mean of the "
             "timed calls the stopping rule took; `*` marks a time whose error stayed over its "
             "target (the rule's time cap ended it), `!` a GPU time whose SM clock read under 90% "
             "of its maximum. Sizes in bytes. **Kernel time**: CUDA events "
             "around "
             "the GPU kernels on data already in device memory; **end-to-end time**: the whole GPU "
             "call from host memory, transfers included; CPU times are wall time. "
             "**Container ratio** = original / the codec's container (header included).{}\n\n"
             "Rows and columns without any value are left out and named under their table, tables "
             "without any value under \"Not measured\"; a remaining blank reads `n/a (reason)`: "
             "`no "
             "device` (no GPU on the machine that ran the sweep), `file not available` (the corpus "
             "file could not be fetched), `not measured` (not in the sweep), or the cell's error. "
             "The "
             "CSV files keep every row and column: numbers only, in the units their column names "
             "say "
             "(`_s` seconds, `_gbps` GB/s, `_bytes`), an empty field for a blank and its reason in "
             "the "
             "last column, `reason`.\n\n",
             set.cells.size(), errors, ctx("cpu_model"), ctx("hardware_threads"), gpu_text(set),
             ctx("git_revision"), tools, reading) +
         (set.replicas.empty()
              ? ""
              : fmt::format("GPU replicas: each GPU cell was measured on GPUs {} (gcbench "
                            "--gpu-replicas); the tables show the lowest-numbered GPU's figures, "
                            "and the GPU-to-GPU spread tables each GPU's.\n\n",
                            ctx(results::kGpuReplicasKey.data())));
}

// What report.html shows (page_data.hpp).
nlohmann::json page_data(const ResultSet& set, const Defaults& defaults,
                         const std::vector<std::string>& corpora,
                         const std::map<std::string, CorpusReport>& parts, std::size_t errors) {
  nlohmann::json failed = nlohmann::json::array();
  for (const Measurement& m : set.cells) {
    if (m.error) failed.push_back(results::format_cell_name(m.id) + ": " + *m.error);
  }
  nlohmann::json out_corpora = nlohmann::json::array();
  for (const std::string& corpus : corpora) {
    const CorpusReport& part = parts.at(corpus);
    nlohmann::json missing = nlohmann::json::array();
    for (const auto& [key, reason] : set.missing_files) {
      if (key.starts_with(corpus + "/"))
        missing.push_back({{"file", key.substr(corpus.size() + 1)}, {"reason", reason}});
    }
    out_corpora.push_back({{"name", corpus},
                           {"missing_files", missing},
                           {"headline", part.headline},
                           {"tables", part.tables},
                           {"not_measured", part.not_measured}});
  }
  return {{"context", set.context}, {"cells_total", set.cells.size()},
          {"cells_failed", errors}, {"failed", failed},
          {"corpora", out_corpora}, {"cells", cells_json(set, defaults)}};
}

nlohmann::json appendix_json(const std::vector<ReportAppendix>& appendix) {
  nlohmann::json out = nlohmann::json::array();
  for (const ReportAppendix& a : appendix)
    out.push_back({{"heading", a.heading}, {"text", a.text}, {"items", a.items}});
  return out;
}

}  // namespace

WrittenReport write_report(const ResultSet& set, const ReportOptions& options) {
  WrittenReport written{options.out_dir / "report.md", {}, "", false, "", false};
  // The measuring gcbench's defaults win over this build's (which may lack the GPU codecs).
  Defaults defaults = options.defaults;
  for (const auto& [codec_device, axes] : set.defaults) {
    for (const auto& [axis, value] : axes) defaults[codec_device][axis] = value;
  }
  const std::vector<std::string> corpora = set.corpora();
  std::vector<std::string> references;  // the first study's that names any
  for (const StudyTables& study : options.studies) {
    if (references.empty()) references = study.references;
  }
  std::map<std::string, CorpusReport> parts;
  for (const std::string& corpus : corpora) {
    CorpusReport& part = parts[corpus];
    part.headline = headline_json(set, defaults, corpus, references);
    written.every_codec[corpus] = headline_markdown(part.headline, corpus);
    auto order = options.file_order.find(corpus);
    const std::vector<std::string> files = set.files_of(
        corpus, order == options.file_order.end() ? std::vector<std::string>{} : order->second);
    TableBuilder b(set, defaults, corpus, files);
    // Links and folders by the corpus's folder name: a name from a result file never leads
    // outside --out.
    const std::string folder = results::folder_name(corpus);
    const fs::path dir = options.out_dir / folder;
    if (const auto study = std::find_if(options.studies.begin(), options.studies.end(),
                                        [](const StudyTables& t) { return t.headline != nullptr; });
        study != options.studies.end()) {
      const Table headline = study->headline(b);
      const MeasuredPart shown = measured_part(headline);
      written.summaries[corpus] =
          "## " + results::markdown_text(headline.title) + "\n\n" +
          (shown.any
               ? to_markdown(shown.table) + (shown.note.empty() ? "" : "\n" + shown.note + "\n")
               : "(no value: " + shown.note + ")\n");
      add_table(headline, dir, folder, part, &CorpusReport::head);
    }
    add_table(variants_table(set, corpus), dir, folder, part, &CorpusReport::head);
    // A table written only for some results: without it, its earlier files are removed.
    const auto optional_part = [&](const std::optional<Table>& t, const std::string& id) {
      if (t) {
        add_table(*t, dir, folder, part, &CorpusReport::head);
      } else {
        for (const char* ext : kFormats) fs::remove(dir / (id + ext));
      }
    };
    optional_part(gpu_e2e_table(set, defaults, corpus), "gpu_e2e");
    // Tables of GPU replicas: only for results of gcbench --gpu-replicas.
    optional_part(gpu_replicas_summary(set, defaults, corpus), "gpu_replicas_summary");
    optional_part(gpu_replicas_table(set, defaults, corpus), "gpu_replicas");
    optional_part(
        wants_kernels_section(set) ? kernels_table(set, defaults, corpus, files) : std::nullopt,
        "kernels");
    optional_part(columns_table(set, defaults, corpus, files), "columns");
    for (const StudyTables& study : options.studies) {
      if (!study.sections) continue;
      for (const TableSection& section : study.sections(b)) {
        part.tail += "## " + results::markdown_text(corpus) + ": " + section.heading + "\n\n";
        part.section = section.heading;
        for (const Table& t : section.tables) add_table(t, dir, folder, part, &CorpusReport::tail);
      }
    }
  }

  PlotOutcome plots;
  if (options.plots) {
    plots = draw_plots(*options.plots, options.out_dir, corpora, plot_title_note(set));
    written.plot_note = plots.note;
    written.plots_failed = plots.failed;
  }

  std::size_t errors = 0;
  for (const Measurement& m : set.cells) errors += m.error ? 1 : 0;
  if (options.page) {
    nlohmann::json data = page_data(set, defaults, corpora, parts, errors);
    data["appendix"] = appendix_json(options.appendix);
    const PageOutcome page = write_page(*options.page, options.out_dir, data);
    written.page_note = page.note;
    written.page_failed = page.failed;
  }
  std::string md = introduction(set, errors, options.studies);
  if (options.page && written.page_note.empty()) {
    md +=
        "The same report as one page, with sortable tables and interactive charts: "
        "[report.html](report.html).\n\n";
  } else if (!written.page_note.empty()) {
    md += "Page: " + written.page_note + ".\n\n";
  }
  if (!written.plot_note.empty()) md += "Plots: " + written.plot_note + ".\n\n";
  for (const std::string& corpus : corpora) {
    const CorpusReport& part = parts[corpus];
    md += "## " + results::markdown_text(corpus) + "\n\n";
    if (!part.not_measured.empty()) {
      md += "Not measured (no table written): " +
            fmt::format("{}", fmt::join(part.not_measured, "; ")) + ".\n\n";
    }
    md += part.head + plots_section(plots, corpus) + part.tail;
  }
  if (!set.damaged.empty()) {
    md +=
        "## Result files set aside\n\nNot result documents, so not read (as the driver sets "
        "them aside):\n\n";
    for (const auto& [file, fault] : set.damaged) {
      md += fmt::format("- {}: {}\n", results::markdown_text(file), results::markdown_text(fault));
    }
    md += "\n";
  }
  if (!set.duplicates.empty()) {
    md +=
        "## Cells found twice\n\nThe same cell in more than one result file (folders given "
        "together); one measurement is shown:\n\n";
    for (const std::string& d : set.duplicates) md += "- " + results::markdown_text(d) + "\n";
    md += "\n";
  }
  if (errors > 0) {
    md += "## Failed cells\n\n";
    for (const Measurement& m : set.cells) {
      if (m.error) {
        md += fmt::format("- {}: {}\n", results::markdown_text(results::format_cell_name(m.id)),
                          results::markdown_text(*m.error));
      }
    }
  }
  for (const ReportAppendix& a : options.appendix) {
    md += "\n## " + a.heading + "\n\n" + a.text + "\n\n";
    for (const std::string& item : a.items) md += "- " + item + "\n";
  }
  results::write_file_atomically(written.index, md);
  return written;
}

}  // namespace gcbench::reports
