#!/usr/bin/env python3
"""report.html of a gcbench report: one self-contained page, opened from disk with no network.

usage: report_html.py REPORT_DIR [STEM]

Reads REPORT_DIR/STEM.page (default STEM: report; JSON that gcbench-report writes beside
report.md: the run's context, each corpus's headline rows and tables as shown, every cell's
sizes and times) and writes REPORT_DIR/STEM.html: the headline as lzbench-style rows, the
ratio-versus-throughput chart with its Pareto front and the effective-throughput-over-a-link
chart (Plotly, its JavaScript inlined), the machine's context and ceilings, and every table of
the report, sortable by clicking a header. A page of kind "compare" (gcbench-report --compare
--out DIR: compare.page) becomes the comparison's page instead: its verdicts, then the groups
and the cells as sortable tables. The stylesheet and the pages' JavaScript, report_page.css,
report_sort.js and report_page.js, are read from beside this script.
"""

import html
import json
import math
import pathlib
import sys

import plotly
from plotly.offline import get_plotlyjs

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import counters as C  # noqa: E402 (beside this script; the page data's keys are counters')
from plot_style import codec_color  # noqa: E402 (beside this script)

DIRECTIONS = ("compress", "decompress")

# Context keys shown in the machine section, in order, with their labels; the rest are in
# the full context below it.
MACHINE_KEYS = [
    ("gpu", "GPU"),
    ("gpu_sm", "compute capability"),
    ("gpu_memory_bytes", "GPU memory"),
    ("gpu_pcie_gen", "PCIe generation"),
    ("gpu_pcie_width", "PCIe width"),
    ("gpu_sm_clock_mhz", "SM clock [MHz]"),
    ("cuda_runtime_version", "CUDA runtime"),
    ("cpu_model", "CPU"),
    ("hardware_threads", "hardware threads"),
    ("cpu_virtualized", "virtualized"),
    ("git_revision", "git revision"),
    ("build_type", "build type"),
    ("date", "date"),
    ("host_name", "host"),
    (C.COLD_L2, "L2 flushed between timed calls"),
]
CEILINGS = [
    ("copy_gbps", "device-to-device copy"),
    ("h2d_pinned_gbps", "host-to-device copy, pinned"),
    ("d2h_pinned_gbps", "device-to-host copy, pinned"),
    ("h2d_pageable_gbps", "host-to-device copy, pageable"),
]


def esc(text):
    return html.escape(str(text), quote=True)


def significant(value, digits=3):
    """Fixed notation with `digits` significant digits, trailing zeros dropped: 0.0123, 12.3."""
    if value == 0 or not math.isfinite(value):
        return str(value)
    decimals = max(0, min(15, digits - 1 - math.floor(math.log10(abs(value)))))
    text = f"{value:.{decimals}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def cell(value, text, reason=""):
    """A numeric <td>: its text, and the number to sort by ("" for a blank, sorted last)."""
    if value is None:
        title = f' title="{esc(reason)}"' if reason else ""
        return f'<td class="num blank" data-sort=""{title}>–</td>'
    return f'<td class="num" data-sort="{value!r}">{esc(text)}</td>'


def gpu_name(context):
    """The GPU, or "none (why)" from the context's "none: why"."""
    gpu = context.get("gpu", "unknown")
    return f"none ({gpu.split(':', 1)[1].strip()})" if gpu.startswith("none:") else gpu


def page_title(data):
    ctx = data["context"]
    return (
        f"gcbench report: {gpu_name(ctx)}, {ctx.get('cpu_model', 'CPU unknown')} "
        f"({ctx.get('hardware_threads', '?')} threads), git {ctx.get('git_revision', 'unknown')}"
    )


def missing_note(corpus):
    missing = corpus["missing_files"]
    if not missing:
        return ""
    files = ", ".join(m["file"] for m in missing)
    reasons = "; ".join(f"{m['file']}: {m['reason']}" for m in missing)
    return (
        f'<p class="note" title="{esc(reasons)}">Files not available, so not measured '
        f"({len(missing)}, hover for why): {esc(files)}.</p>"
    )


def headline_columns(reference):
    """The headline's numeric columns: header, the row's value, its text, why it is blank."""

    def ratio(key, blank):
        return (lambda r: r[key], lambda v: f"{v:.3f}", lambda r: blank or "; ".join(r["reasons"]))

    def gbps(direction, key):
        def why(r):
            if key == C.KERNEL_GBPS and r["device"] == "cpu":
                return "CPU: wall time, in the end-to-end column"
            return "; ".join(r["reasons"])

        return (lambda r: r[direction][key], significant, why)

    def speedup(direction, key):
        def why(r):
            if key == "vs_all_cores" and r["device"] == "cpu":
                return "a CPU row"
            return "; ".join(r["reasons"])

        return (lambda r: r[direction][key], lambda v: significant(v) + "×", why)

    return [
        ("ratio", *ratio(C.RATIO, "")),
        ("LZ77 entropy-coded ratio", *ratio("entropy_ratio", "no entropy stage")),
        ("compress, kernel [GB/s]", *gbps("compress", C.KERNEL_GBPS)),
        ("compress, end to end [GB/s]", *gbps("compress", C.E2E_GBPS)),
        ("decompress, kernel [GB/s]", *gbps("decompress", C.KERNEL_GBPS)),
        ("decompress, end to end [GB/s]", *gbps("decompress", C.E2E_GBPS)),
        (f"× {reference}, compress", *speedup("compress", "vs_reference")),
        (f"× {reference}, decompress", *speedup("decompress", "vs_reference")),
        ("× all-core CPU, compress", *speedup("compress", "vs_all_cores")),
        ("× all-core CPU, decompress", *speedup("decompress", "vs_all_cores")),
        (
            "noise",
            lambda r: r[C.NOISE_PCT],
            lambda v: f"{significant(v, 2)}%",
            lambda r: "one repetition: no spread to show",
        ),
    ]


def headline_section(data, corpus):
    headline = corpus["headline"]
    rows = headline["rows"]
    if not rows:
        return f'<p class="note">No cell of {esc(corpus["name"])} has numbers.</p>' + missing_note(
            corpus
        )
    reference = headline["reference"] or "reference"
    columns, empty = [], []
    for column in headline_columns(reference):
        (columns if any(column[1](r) is not None for r in rows) else empty).append(column)
    out = [f'<table class="sortable headline" id="headline-{esc(corpus["name"])}"><thead><tr>']
    out += [f"<th>{esc(h)}</th>" for h in ["codec", "device"] + [c[0] for c in columns]]
    out.append("</tr></thead><tbody>")
    for r in rows:
        # A CPU row says on how many threads it ran: one-thread and all-core rows side by side.
        threads = r.get("threads") or ""
        device = r["device"].upper() + (f", {threads}" if threads else "")
        tds = [f"<td>{esc(r['codec'])}</td>", f"<td>{esc(device)}</td>"]
        for _, value, text, why in columns:
            v = value(r)
            tds.append(cell(v, text(v) if v is not None else "", why(r)))
        out.append("<tr>" + "".join(tds) + "</tr>")
    out.append("</tbody></table>")
    if empty:
        by_reason = {}
        for header, _, _, why in empty:
            reason = "; ".join(sorted({why(r) for r in rows} - {""})) or "not measured"
            by_reason.setdefault(reason, []).append(header)
        groups = "; ".join(f"{', '.join(h)} ({why})" for why, h in by_reason.items())
        out.append(f'<p class="note">Left out, no row has a value: {esc(groups)}.</p>')
    files = headline["files"]
    left_out = headline["left_out"]
    caption = (
        f"One row per codec and device at its default parameters, each the total over the "
        f"{len(files)} file(s) every row compressed (so that the rows compare the same bytes)"
        + (f"; left out: {'; '.join(left_out)}" if left_out else "")
        + ". Ratio: original / compressed container bytes (what crosses a link); LZ77's "
        "entropy-coded ratio: original / its triples after the entropy stage, the thesis's "
        "ratio. Throughput: GB/s of original bytes = total bytes / total time. Kernel: the GPU "
        "kernels on data in device memory (CUDA events); end to end: the whole GPU call from "
        "host memory, transfers included; CPU rows: wall time, in the end-to-end columns. "
        f"× {reference}: {reference}'s end-to-end (wall) time / the row's, over the same files; "
        "× all-core CPU: the same codec on the CPU with every hardware thread (threads:0) / the "
        "GPU row's end-to-end time. Noise: the median spread (coefficient of variation) of the "
        "row's cells over their repetitions. A dash is a figure not measured: hover it for why."
    )
    return "\n".join(out) + f'\n<p class="caption">{esc(caption)}</p>' + missing_note(corpus)


def data_table(table, anchor):
    heads = [table["label_header"], *table["text_headers"], *table["headers"]]
    out = [f'<table class="sortable" id="{esc(anchor)}"><thead><tr>']
    out += [f"<th>{esc(h)}</th>" for h in heads]
    out.append("</tr></thead>")

    def row_html(row, total):
        label = f"<strong>{esc(row['label'])}</strong>" if total else esc(row["label"])
        tds = [f"<td>{label}</td>"] + [f"<td>{esc(t)}</td>" for t in row["texts"]]
        for text, value in row["cells"]:
            if value is None:
                tds.append(f'<td class="num blank" data-sort="">{esc(text)}</td>')
            else:
                tds.append(f'<td class="num" data-sort="{value!r}">{esc(text)}</td>')
        return "<tr>" + "".join(tds) + "</tr>"

    out.append("<tbody>" + "".join(row_html(r, False) for r in table["rows"]) + "</tbody>")
    if table["total"]:
        out.append("<tfoot>" + row_html(table["total"], True) + "</tfoot>")
    out.append("</table>")
    return "".join(out)


def tables_section(corpus):
    name = corpus["name"]
    parts, toc = [], []
    section = None
    for t in corpus["tables"]:
        if t["section"] != section:
            section = t["section"]
            if section:
                parts.append(f"<h3>{esc(section)}</h3>")
        anchor = f"table-{name}-{t['id']}"
        toc.append(f'<li><a href="#{esc(anchor)}">{esc(t["title"])}</a></li>')
        note = f'<p class="note">{esc(t["note"])}</p>' if t["note"] else ""
        parts.append(
            f'<h4>{esc(t["title"])}</h4><p class="caption">{esc(t["caption"])} '
            f'(<a href="{esc(t["csv"])}">CSV</a>, <a href="{esc(t["tex"])}">LaTeX</a>)</p>'
            f'{note}<div class="scroll">{data_table(t, anchor)}</div>'
        )
    not_measured = corpus["not_measured"]
    if not_measured:
        parts.append(
            f'<p class="note">Not measured (no table written): {esc("; ".join(not_measured))}.</p>'
        )
    return f'<ul class="toc">{"".join(toc)}</ul>' + "".join(parts)


def machine_section(ctx):
    rows = []
    no_gpu = ctx.get("gpu", "").startswith("none")
    for key, label in MACHINE_KEYS:
        if no_gpu and key.startswith(("gpu_", "cuda_")):
            continue
        if key in ctx:
            value = ctx[key]
            if key == "gpu_memory_bytes" and value.isdigit():
                value = f"{int(value) / 2**30:.1f} GiB"
            rows.append(f"<tr><th>{esc(label)}</th><td>{esc(value)}</td></tr>")
    for key, label in CEILINGS:
        value = ctx.get(key)
        shown = f"{value} GB/s" if value else f"not measured ({ctx.get('ceilings', 'no GPU')})"
        rows.append(f"<tr><th>ceiling: {esc(label)}</th><td>{esc(shown)}</td></tr>")
    codecs = [f"{k[len('codec:'):]} {v}" for k, v in sorted(ctx.items()) if k.startswith("codec:")]
    if codecs:
        rows.append(f"<tr><th>codec versions</th><td>{esc(', '.join(codecs))}</td></tr>")
    for key, about in sorted(ctx.items()):
        if key.startswith("about:"):
            rows.append(f"<tr><th>{esc(key[len('about:'):])}</th><td>{esc(about)}</td></tr>")
    missing = [k for k in ctx if k.startswith("missing_file:")]
    full = "".join(
        f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>"
        for k, v in sorted(ctx.items())
        if not k.startswith("missing_file:")
    )
    return (
        f'<table class="context">{"".join(rows)}</table>'
        f"<details><summary>The whole run context ({len(ctx)} entries"
        + (f", {len(missing)} missing corpus files not listed" if missing else "")
        + f')</summary><table class="context">{full}</table></details>'
    )


def appendix_sections(appendix):
    """The caller's sections after the tables (a shard merge's account of what it merged)."""
    out = []
    for a in appendix:
        items = "".join(f"<li>{esc(i)}</li>" for i in a["items"])
        out.append(f'<section><h2>{esc(a["heading"])}</h2><p>{esc(a["text"])}</p>'
                   f'{"<ul>" + items + "</ul>" if items else ""}</section>')
    return "".join(out)


def failed_section(failed):
    if not failed:
        return ""
    items = "".join(f"<li><code>{esc(f)}</code></li>" for f in failed)
    return f'<section id="failed"><h2>Failed cells</h2><ul>{items}</ul></section>'


def chart_data(data):
    """What the charts need, for report_page.js: cells, headline rows, ceilings, colours."""
    codecs = sorted({c["codec"] for c in data["cells"]})
    ctx = data["context"]
    return {
        "gpu": gpu_name(ctx),
        "ceilings": {k: float(ctx[k]) for k, _ in CEILINGS if k in ctx},
        # Each codec's colour of the static plots, whatever else the report holds.
        "colors": {codec: codec_color(codec) for codec in codecs},
        "cells": data["cells"],
        "headline": {c["name"]: c["headline"] for c in data["corpora"]},
    }


def default_corpus(data):
    """The corpus with the most original bytes compressed: the one a reader sees first."""

    def size(corpus):
        return sum(
            c[C.INPUT_BYTES]
            for c in data["cells"]
            if c["corpus"] == corpus["name"] and c["direction"] == "compress"
        )

    return max(data["corpora"], key=size)["name"] if data["corpora"] else ""


def picker(name, label, options):
    opts = "".join(f'<option value="{esc(v)}">{esc(t)}</option>' for v, t in options)
    return f'<label>{esc(label)} <select id="{esc(name)}">{opts}</select></label>'


def page_head(title, css):
    """<head> of every page: its title, the stylesheet inlined, and the handler that records
    uncaught errors on the page (tests/report_html_check.py reads them)."""
    return f"""<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(title)}</title>
<script>
window.gcbenchErrors = [];
window.addEventListener("error", (e) => {{
  window.gcbenchErrors.push(String(e.message));
  document.documentElement.dataset.pageErrors = window.gcbenchErrors.join(" | ");
}});
</script>
<style>
{css}
</style>
</head>"""


def render(data, css, page_js, plotly_js):
    ctx = data["context"]
    first = default_corpus(data)
    corpora = [c["name"] for c in data["corpora"]]
    corpus_options = sorted([(n, n) for n in corpora], key=lambda o: o[0] != first)
    summary = (
        f"{data['cells_total']} cells ({data['cells_failed']} failed) · GPU: {gpu_name(ctx)} · "
        f"CPU: {ctx.get('cpu_model', 'unknown')} ({ctx.get('hardware_threads', '?')} threads) · "
        f"git {ctx.get('git_revision', 'unknown')}"
    )

    def per_corpus(part):
        return "".join(
            f'<div class="corpus-part" data-corpus="{esc(c["name"])}">{part(c)}</div>'
            for c in data["corpora"]
        )

    body = f"""
<header>
<h1>gcbench report</h1>
<p class="summary">{esc(summary)} · <a href="report.md">report.md</a></p>
<div class="pickers">{picker("corpus", "Corpus", corpus_options)}</div>
</header>
<main>
<section id="headline">
<h2>Headline: every codec at its defaults, <span class="corpus-name"></span></h2>
{per_corpus(lambda c: headline_section(data, c))}
</section>
<section id="charts">
<div class="chart-box">
<h2>Ratio versus throughput</h2>
<div class="pickers">
{picker("direction", "Direction", [("compress", "compress"), ("decompress", "decompress")])}
{picker("timing", "Timing", [("e2e", "end to end"), ("kernel", "kernel (CPU: wall)")])}
{picker("device", "Device", [("all", "GPU and CPU"), ("gpu", "GPU"), ("cpu", "CPU")])}
{picker("against", "Against", [("ratio", "ratio"), ("memory", "memory")])}
<label>File <select id="file"></select></label>
</div>
<div id="chart-ratio" class="chart"></div>
<p class="caption">Every codec variant measured: the default parameters outlined, the others
(another design, finder, work-item count...) in the codec's colour. Container ratio = original /
compressed bytes; throughput in GB/s of original bytes; all files = each variant's total over
the corpus (a variant measured on fewer files than the others is left out there, and named
below; pick a file to see it). The Pareto front joins the variants that no other beats on both
ratio and throughput. Memory: the most a call of the variant held on any file (GPU: device
memory, CPU: heap; docs/results.md), lower is better, its front the variants no other beats on
both memory and throughput.</p>
<p class="note" id="chart-ratio-note"></p>
</div>
<div class="chart-box">
<h2>Effective throughput over a link</h2>
<div class="pickers">
{picker("link-timing", "Decompress rate", [("e2e", "end to end"), ("kernel", "kernel")])}
</div>
<div id="chart-link" class="chart"></div>
<p class="caption">Moving the corpus compressed over a link of speed L and then decompressing
it, against moving it raw (the dashed diagonal): effective rate =
1 / (1 / (L × ratio) + 1 / D) GB/s of original bytes, with ratio the container ratio and D
the measured decompress throughput (the headline's total); serial, no overlap of transfer
and decoding, as the end-to-end measurement itself. The time to deliver the corpus is its
bytes / the effective rate (hover a line). A GPU's end-to-end rate includes its own
host-device copies: for data arriving over PCIe or NVLink into the GPU, the kernel rate is
the fairer D. Link speeds are nominal per direction; the table gives the same at each
link (headers: the chart's tags, hover for the link's name), green where compressing beats
moving the data raw.</p>
<div class="scroll" id="link-table"></div>
</div>
</section>
<section id="machine"><h2>Machine and ceilings</h2>{machine_section(ctx)}</section>
<section id="tables"><h2>Tables, <span class="corpus-name"></span></h2>
{per_corpus(tables_section)}
</section>
{appendix_sections(data.get("appendix", []))}
{failed_section(data["failed"])}
<footer>Written by gcbench-report with Plotly {esc(plotly.__version__)} (plotly.js inlined).
Sort a table by clicking its header; tables' numbers are also in the CSV files.</footer>
</main>"""
    chart_json = json.dumps(chart_data(data), separators=(",", ":")).replace("</", "<\\/")
    return f"""<!DOCTYPE html>
<html lang="en">
{page_head(page_title(data), css)}
<body>
{body}
<script type="application/json" id="gcbench-data">{chart_json}</script>
<script>{plotly_js}</script>
<script>
{page_js}
</script>
</body>
</html>
"""


VERDICTS = ("MISSING", "FAILED", "NOT COMPARABLE", "RATIO WORSE", "MEMORY WORSE", "SLOWER",
            "FASTER", "UNCLEAR", "SAME")


def render_compare(data, css, sort_js):
    """The comparison's page: what was compared, the verdict counts, the groups and the cells."""
    counts = data["verdicts"]
    summary = " · ".join(
        f"{what}: " + ", ".join(f"{counts[what].get(v, 0)} {v}" for v in VERDICTS
                                if counts[what].get(v, 0) or v in ("SLOWER", "FASTER", "UNCLEAR",
                                                                   "SAME"))
        for what in ("cells", "groups"))
    status = ("exit status 1: a failing verdict" if data["failed"]
              else "exit status 0: no failing verdict")
    sides = "".join(f"<li><strong>{esc(label)}</strong>: {esc(path)}</li>"
                    for label, path in data["sides"])
    notes = "".join(f'<p class="note">{esc(n)}</p>' for n in data["notes"])
    body = f"""
<header>
<h1>gcbench comparison</h1>
<ul>{sides}</ul>
<p class="summary">{esc(summary)} · {esc(status)} · <a href="compare.md">compare.md</a></p>
</header>
<main>
<section id="method"><p class="caption">{esc(data["method"])}</p>{notes}</section>
<section id="groups"><h2>Groups: corpus, codec, device, direction</h2>
<p class="caption">(<a href="compare_groups.csv">CSV</a>)</p>
<div class="scroll">{data_table(data["groups"], "compare-groups")}</div></section>
<section id="cells"><h2>Cells</h2>
<p class="caption">(<a href="compare.csv">CSV</a>)</p>
<div class="scroll">{data_table(data["cells"], "compare-cells")}</div></section>
<footer>Written by gcbench-report --compare. Sort a table by clicking its header.</footer>
</main>"""
    return f"""<!DOCTYPE html>
<html lang="en">
{page_head("gcbench comparison: " + summary, css)}
<body>
{body}
<script>
{sort_js}
</script>
</body>
</html>
"""


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    report_dir = pathlib.Path(argv[1])
    stem = argv[2] if len(argv) == 3 else "report"
    data = json.loads((report_dir / f"{stem}.page").read_text())
    css = (HERE / "report_page.css").read_text()
    sort_js = (HERE / "report_sort.js").read_text()
    if data.get("kind") == "compare":
        page = render_compare(data, css, sort_js)
    else:
        page = render(data, css, sort_js + (HERE / "report_page.js").read_text(), get_plotlyjs())
    (report_dir / f"{stem}.html").write_text(page)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
