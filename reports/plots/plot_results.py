#!/usr/bin/env python3
"""Plots of a gcbench report, drawn by matplotlib from the CSV tables gcbench-report wrote.

usage: plot_results.py [--title-note TEXT] REPORT_DIR CORPUS...

--title-note TEXT: a second line under every plot's title, e.g. the GPU and git revision the
results were measured with ("NVIDIA H100 80GB HBM3, rev 6723ce0"), as gcbench-report passes it.

For each corpus, reads REPORT_DIR/CORPUS/variants.csv (every codec variant over the corpus
total) and gpu_e2e.csv (GPU kernel vs end-to-end throughput) and writes to
REPORT_DIR/CORPUS/plots/, each as SVG and PNG:
  ratio_vs_throughput_compress, ratio_vs_throughput_decompress: container ratio (original /
      container bytes; for a codec with an entropy stage, the container before that untimed
      stage, so not the entropy-coded ratio the tables quote, as a note under the plot says)
      versus end-to-end throughput per variant, the Pareto front marked;
  throughput_vs_work_items, throughput_vs_frame_size: throughput along the swept axis, one
      line per codec, device and the other axes' values;
  pct_of_copy: each GPU kernel's throughput as % of the device's copy, and end-to-end as %
      of its pinned host-to-device copy, one row per codec variant and direction;
  kernel_throughput_vs_run_length, kernel_throughput_vs_element_width (from kernels.csv, the
      kernels section): each GPU kernel and its peers per synthetic input, against the mean
      run length of runs-geo<m>/runs-uni<m> inputs (geometric solid, uniform dashed) and
      against the element width of runs-geo8 (solid) and small_ints (dashed) inputs, the
      device copy as a dotted line; a warm (L2 not flushed) line says so in its label;
  kernel_throughput_per_file (from kernels.csv): each GPU kernel and its peers on every file
      of a corpus (text and binary side by side), so that the files where one overtakes
      another show; synthetic inputs are left to the two plots above;
  columns_ratio_vs_throughput_compress, columns_ratio_vs_throughput_decompress (from
      columns.csv, the column table of a typed corpus): one point per column and GPU codec
      variant, container ratio against kernel throughput.
Every codec has one colour (and, where the device does not set the marker, one marker) in
every plot, plot_style.codec_style; series of one codec in one plot differ by marker, fill or
line style. Legends sit right of the axes, never over the data. Log axes are labelled at
1, 2, 5 per decade over up to three decades, at decades only over more.
A plot with nothing measured is skipped with a printed note, never drawn empty. plots.manifest
(JSON, but not named *.json: gcbench-report reads every *.json under its inputs, and the
report often lies inside them) lists the plots made (title, svg, png) and those skipped
(plot, why).
"""

import argparse
import csv
import json
import math
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402 (the backend is chosen first)
from matplotlib import ticker  # noqa: E402
from matplotlib.text import Text  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import counters as C  # noqa: E402 (the tables' columns of counters take their names)
from plot_style import codec_color, series_marker  # noqa: E402

# Reproducible files: the same CSVs give the same SVG bytes.
plt.rcParams["svg.hashsalt"] = "gcbench"
SVG_METADATA = {"Date": None}
DEVICE_MARKERS = {"cpu": "o", "gpu": "^"}
# Series of one codec, device and direction that differ in another axis: by the marker's fill.
FILLS = ["full", "none", "left", "bottom", "right", "top"]
LEGEND = {"loc": "upper left", "bbox_to_anchor": (1.02, 1), "borderaxespad": 0, "fontsize": 8}
CONTAINER_RATIO = "container ratio (original / container bytes)"
# The second line of every title (--title-note): the GPU and revision of the results.
title_note = ""


def titled(title):
    return f"{title}\n{title_note}" if title_note else title


def read_csv(path):
    """Rows of a gcbench CSV as dicts: numbers as floats, empty fields as None."""
    if not os.path.exists(path):
        return []
    rows = []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            parsed = {}
            for key, text in row.items():
                try:
                    parsed[key] = float(text) if text != "" else None
                except ValueError:
                    parsed[key] = text
            rows.append(parsed)
    return rows


def parse_variant(label):
    """"codec/gpu/axis:a/other:b" -> ("codec", "gpu", {"axis": "a", "other": "b"})."""
    parts = label.split("/")
    return parts[0], parts[1], dict(p.split(":", 1) for p in parts[2:] if ":" in p)


def axis_number(value):
    try:
        return float(value)
    except ValueError:
        return None


def varying_axes(variants):
    """Per (codec, device): the axes whose value differs between its variants."""
    values = {}
    for codec, device, axes in variants:
        for axis, value in axes.items():
            values.setdefault((codec, device, axis), set()).add(value)
    return {key: len(v) > 1 for key, v in values.items()}


def short_label(codec, device, axes, varying, leave_out=()):
    """The codec, its device and the axes that vary among its variants."""
    shown = [
        f"{a}:{v}"
        for a, v in axes.items()
        if varying.get((codec, device, a)) and a not in leave_out
    ]
    return " ".join([f"{codec} {device.upper()}"] + shown)


def needs_log(values, span=20):
    positive = [v for v in values if v and v > 0]
    return len(positive) > 1 and max(positive) / min(positive) >= span


def log_scale(axis_setter, axis, values, unit=""):
    """A log axis labelled 0.01, 0.02, 0.05, 0.1 ... rather than powers of ten; at decades
    only where the values span more than three (1-2-5 labels would then run together).
    `unit` follows each label ("%")."""
    positive = [v for v in values if v and v > 0]
    decades = math.log10(max(positive) / min(positive)) if positive else 0
    axis_setter("log")
    subs = (1.0,) if decades > 3 else (1.0, 2.0, 5.0)
    axis.set_major_locator(ticker.LogLocator(base=10, subs=subs))
    axis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:g}{unit}"))
    axis.set_minor_formatter(ticker.NullFormatter())


def throughput_unit(values):
    """MB/s when most throughputs (stored in GB/s) are below 1 GB/s, as in the tables."""
    values = sorted(v for v in values if v)
    return ("MB/s", 1e3) if values and values[len(values) // 2] < 1 else ("GB/s", 1)


def pareto_front(points):
    """The points no other point beats on both throughput and ratio, by throughput."""
    front = []
    best_ratio = -math.inf
    for p in sorted(points, key=lambda p: (-p["x"], -p["y"])):
        if p["y"] > best_ratio:
            front.append(p)
            best_ratio = p["y"]
    return sorted(front, key=lambda p: p["x"])


def save(fig, plots_dir, name, title, made):
    for ext in ("svg", "png"):
        fig.savefig(
            os.path.join(plots_dir, f"{name}.{ext}"),
            bbox_inches="tight",
            dpi=120,
            metadata=SVG_METADATA if ext == "svg" else None,
        )
    plt.close(fig)
    made.append({"name": name, "title": title, "svg": f"{name}.svg", "png": f"{name}.png"})


def text_box(label, renderer):
    """An annotation's text's box where it is now (its own box includes its leader line)."""
    label.update_positions(renderer)
    return Text.get_window_extent(label, renderer)


def name_points(fig, ax, points):
    """Names `points` ((x, y, text)) beside them, each label moved up or down off the labels
    already placed; those right of the middle named to their left, off the legend."""
    if not points:
        return
    fig.canvas.draw()  # the scales' final limits, and a renderer to measure the labels with
    renderer = fig.canvas.get_renderer()
    middle = ax.get_window_extent(renderer).x0 + ax.get_window_extent(renderer).width / 2
    placed = []
    for x, y, text in sorted(points):
        right = ax.transData.transform((x, y))[0] > middle
        dx = -4 if right else 4
        label = ax.annotate(text, (x, y), textcoords="offset points", xytext=(dx, 4), fontsize=7,
                            ha="right" if right else "left",
                            arrowprops={"arrowstyle": "-", "linewidth": 0.4, "color": "0.5"})
        box = text_box(label, renderer)
        step = box.height * 72 / fig.dpi + 1  # points
        for i in range(1, 41):
            if not any(box.overlaps(b) for b in placed):
                break
            label.xyann = (dx, 4 + step * ((i + 1) // 2) * (1 if i % 2 else -1))
            box = text_box(label, renderer)
        placed.append(box)


def finish_ratio_plot(fig, ax, throughputs, ratios, xlabel, ylabel, title, plots_dir, name, made,
                      note="", named=()):
    """A ratio-versus-throughput scatter's scales, labels, grid and legend, `note` under it and
    the points `named` ((x, y, text)) named; then saves it."""
    if needs_log(throughputs):
        log_scale(ax.set_xscale, ax.xaxis, throughputs)
    if needs_log(ratios, span=10):
        log_scale(ax.set_yscale, ax.yaxis, ratios)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(titled(title))
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(**LEGEND)
    if note:
        ax.annotate(note, (0, 0), xycoords="axes fraction", xytext=(0, -42),
                    textcoords="offset points", va="top", fontsize=8, style="italic")
    name_points(fig, ax, named)
    save(fig, plots_dir, name, title, made)


def ratio_vs_throughput(corpus, variants, direction, plots_dir, made, skipped):
    name = f"ratio_vs_throughput_{direction}"
    column = f"{direction}_{C.E2E_GBPS}"
    parsed = [parse_variant(r["variant"]) for r in variants]
    varying = varying_axes(parsed)
    points = []
    for row, (codec, device, axes) in zip(variants, parsed):
        if row.get(column) and row.get("container_ratio"):
            label = short_label(codec, device, axes, varying)
            points.append(
                {"x": row[column], "y": row["container_ratio"], "codec": codec,
                 "device": device, "label": label, "entropy": bool(row.get("entropy_ratio"))}
            )
    if not points:
        skipped.append({"plot": name, "why": f"no variant with {column} and container_ratio"})
        return
    unit, scale = throughput_unit([p["x"] for p in points])
    for p in points:
        p["x"] *= scale
    title = f"Container ratio vs {direction}ion throughput (end-to-end), {corpus}"
    fig, ax = plt.subplots(figsize=(8, 5))
    # One legend entry per codec and device, in name order (the points are in the CSV's).
    seen = set()
    for p in sorted(points, key=lambda p: (p["codec"], p["device"])):
        key = (p["codec"], p["device"])
        ax.scatter(p["x"], p["y"], color=codec_color(p["codec"]), marker=DEVICE_MARKERS.get(
            p["device"], "s"), s=36, alpha=0.8,
            label=f"{p['codec']} {p['device'].upper()}" if key not in seen else None)
        seen.add(key)
    front = pareto_front(points)
    ax.plot([p["x"] for p in front], [p["y"] for p in front], color="black", linestyle="--",
            linewidth=1, drawstyle="steps-post", label="Pareto front")
    # A codec with an entropy stage (variants.csv has its entropy_ratio) is drawn at its
    # container ratio, before that stage: say so, and name it.
    staged = sorted({p["codec"] for p in points if p["entropy"]})
    note = (f"{', '.join(staged)}: the container before the entropy stage (not timed), not the "
            "entropy-coded ratio of the tables" if staged else "")
    finish_ratio_plot(fig, ax, [p["x"] for p in points], [p["y"] for p in points],
                      f"{direction}ion throughput, end-to-end [{unit} of original bytes]",
                      CONTAINER_RATIO, title, plots_dir, name, made, note,
                      [(p["x"], p["y"], p["label"]) for p in front])


def throughput_vs_axis(corpus, variants, axis, plots_dir, made, skipped):
    name = f"throughput_vs_{axis}"
    parsed = [parse_variant(r["variant"]) for r in variants]
    varying = varying_axes(parsed)
    # One line per codec, device, direction and the values of the other axes.
    lines = {}
    for row, (codec, device, axes) in zip(variants, parsed):
        x = axis_number(axes.get(axis, ""))
        if x is None:
            continue
        others = tuple(sorted((a, v) for a, v in axes.items() if a != axis))
        for direction in ("compress", "decompress"):
            y = row.get(f"{direction}_gbps")
            if y:
                lines.setdefault((codec, device, others, direction), []).append((x, y))
    lines = {k: sorted(v) for k, v in lines.items() if len(v) > 1}
    if not lines:
        skipped.append({"plot": name, "why": f"no variant measured at two or more {axis} values"})
        return
    unit, scale = throughput_unit([p[1] for xy in lines.values() for p in xy])
    lines = {k: [(x, y * scale) for x, y in xy] for k, xy in lines.items()}
    title = f"Throughput vs {axis.replace('_', ' ')}, {corpus}"
    fig, ax = plt.subplots(figsize=(8, 5))
    # The codec sets the colour, the device the marker, the direction the line; the other
    # axes' values of one codec and device, the marker's fill.
    fills = {}
    for codec, device, others, _ in sorted(lines):
        mine = fills.setdefault((codec, device), {})
        mine.setdefault(others, FILLS[len(mine) % len(FILLS)])
    for (codec, device, others, direction), xy in sorted(lines.items()):
        label = short_label(codec, device, dict(others), varying, leave_out=(axis,))
        ax.plot([p[0] for p in xy], [p[1] for p in xy], color=codec_color(codec),
                marker=DEVICE_MARKERS.get(device, "s"), fillstyle=fills[(codec, device)][others],
                linestyle="-" if direction == "compress" else "--",
                label=f"{label}, {direction}")
    xs = [p[0] for xy in lines.values() for p in xy]
    if needs_log(xs, span=8):
        ax.set_xscale("log", base=2)
    ax.set_xticks(sorted(set(xs)))
    ax.set_xticklabels([f"{x:g}" for x in sorted(set(xs))])
    ax.xaxis.set_minor_locator(ticker.NullLocator())
    ys = [p[1] for xy in lines.values() for p in xy]
    if needs_log(ys):
        log_scale(ax.set_yscale, ax.yaxis, ys)
    ax.set_xlabel(axis.replace("_", " "))
    ax.set_ylabel(f"throughput [{unit} of original bytes]\n(GPU: kernel time; CPU: wall time)")
    ax.set_title(titled(title))
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(**LEGEND)
    save(fig, plots_dir, name, title, made)


def pct_of_copy(corpus, e2e_rows, plots_dir, made, skipped):
    name = "pct_of_copy"
    bars = [
        (f"{r['codec']} {r['direction']}", r.get(C.PCT_COPY), r.get(C.PCT_H2D))
        for r in e2e_rows
        if r.get(C.PCT_COPY) or r.get(C.PCT_H2D)
    ]
    if not bars:
        skipped.append({"plot": name, "why": "no GPU cell with pct_copy or pct_h2d"})
        return
    title = f"GPU throughput as % of the machine's copy, {corpus}"
    # The height grows with the rows, so that their labels never run together.
    fig, ax = plt.subplots(figsize=(8, 0.45 * len(bars) + 1.8))
    height = 0.4
    for i, (label, kernel, e2e) in enumerate(bars):
        if kernel:
            ax.barh(i - height / 2, kernel, height, color="tab:blue")
        if e2e:
            ax.barh(i + height / 2, e2e, height, color="tab:orange")
    handles = [plt.Rectangle((0, 0), 1, 1, color="tab:blue"),
               plt.Rectangle((0, 0), 1, 1, color="tab:orange")]
    ax.legend(handles, ["kernel, % of device-to-device copy",
                        "end-to-end (pinned), % of pinned host-to-device copy"],
              **LEGEND)
    ax.set_yticks(range(len(bars)))
    ax.set_yticklabels([b[0] for b in bars], fontsize=8)
    ax.set_ylim(len(bars) - 0.4, -0.6)  # first row on top, no empty band above or below
    values = [v for b in bars for v in b[1:] if v]
    if needs_log(values):
        log_scale(ax.set_xscale, ax.xaxis, values, unit="%")
    else:
        ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:g}%"))
    ax.set_xlabel("% of the copy ceiling measured in the same run")
    ax.set_title(titled(title))
    ax.grid(True, axis="x", which="both", alpha=0.3)
    save(fig, plots_dir, name, title, made)


# Synthetic input names (gcbench's synthetic:<kind>:<size>[:<width>] gives <kind>-<size>[-w<width>]).
RUNS_FILE = re.compile(r"^runs-(geo|uni)(\d+)-.+?(?:-w([124]))?$")
WIDTH_FILE = re.compile(r"^(runs-geo8|small_ints)-.+?(?:-w([124]))?$")
DISTRIBUTIONS = {"geo": ("geometric", "-"), "uni": ("uniform", "--")}


def kernel_rows(rows):
    """The measured GPU cells of kernels.csv, and the device copy's GB/s (or None)."""
    copy = next((r[C.KERNEL_GBPS] for r in rows if r.get("codec") == "device copy"), None)
    cells = [r for r in rows if r.get("codec") != "device copy" and r.get(C.KERNEL_GBPS)]
    return cells, copy


def codec_of_label(label):
    """A variant label's codec: its name before "/axis:value" parts and any note."""
    return label.split("/")[0].split(" ")[0]


def kernel_label(row):
    """The codec variant without its element width (the width is what the axis varies)."""
    label = re.sub(r"/element_width:\d+", "", row["codec"])
    return label + (" (warm)" if row.get("l2") == "warm" else "")


def kernel_panels(title, lines, copy, xlabel, log2_x, plots_dir, name, made, names=None):
    """One panel per direction; `lines`: (label, direction, style) -> [(x, GB/s)]; `names`: the
    x ticks' labels (x -> text), else the numbers."""
    directions = [d for d in ("compress", "decompress") if any(k[1] == d for k in lines)]
    fig, axes = plt.subplots(1, len(directions), figsize=(7 * len(directions), 5), squeeze=False)
    # The codec sets the colour, each of its variants (labels) a marker, the input or the
    # distribution the line style; the same in both panels, which share one legend.
    markers, per_codec = {}, {}
    for label in sorted({k[0] for k in lines}):
        codec = codec_of_label(label)
        markers[label] = series_marker(codec, per_codec.get(codec, 0))
        per_codec[codec] = per_codec.get(codec, 0) + 1
    handles = {}
    for ax, direction in zip(axes[0], directions):
        for (label, d, style), xy in sorted(lines.items()):
            if d != direction:
                continue
            (line,) = ax.plot([p[0] for p in xy], [p[1] for p in xy], color=codec_color(label),
                              marker=markers[label], linestyle=style[0],
                              label=f"{label}{style[1]}")
            handles.setdefault(line.get_label(), line)
        if copy:
            handles["device copy"] = ax.axhline(copy, color="black", linestyle=":", linewidth=1,
                                                label="device copy")
        xs = sorted({p[0] for (_, d, _), xy in lines.items() if d == direction for p in xy})
        if log2_x:
            ax.set_xscale("log", base=2)
        ax.set_xticks(xs)
        if names:
            ax.set_xticklabels([names[x] for x in xs], rotation=45, ha="right")
        else:
            ax.set_xticklabels([f"{x:g}" for x in xs])
        ax.xaxis.set_minor_locator(ticker.NullLocator())
        ys = [p[1] for (_, d, _), xy in lines.items() if d == direction for p in xy]
        if needs_log(ys + ([copy] if copy else [])):
            log_scale(ax.set_yscale, ax.yaxis, ys + ([copy] if copy else []))
        ax.set_xlabel(xlabel)
        ax.set_ylabel("kernel throughput [GB/s of original bytes]")
        ax.set_title(direction)
        ax.grid(True, which="both", alpha=0.3)
    # Right of the last panel, off the data: the series in name order, the copy last.
    order = sorted(k for k in handles if k != "device copy") + (["device copy"] if copy else [])
    axes[0][-1].legend([handles[k] for k in order], order, **{**LEGEND, "fontsize": 7})
    fig.suptitle(titled(title), y=1.0, va="bottom")
    save(fig, plots_dir, name, title, made)


def kernel_plot(name, title, xlabel, lines, copy, why_none, plots_dir, made, skipped, log2_x=False,
                names=None):
    """kernel_panels over the lines of two or more points; skipped, saying `why_none`, if none."""
    lines = {k: sorted(v) for k, v in lines.items() if len(v) > 1}
    if not lines:
        skipped.append({"plot": name, "why": why_none})
        return
    kernel_panels(title, lines, copy, xlabel, log2_x, plots_dir, name, made, names)


def kernels_vs_run_length(corpus, rows, plots_dir, made, skipped):
    name = "kernel_throughput_vs_run_length"
    cells, copy = kernel_rows(rows)
    by_width = {}
    for r in cells:
        m = RUNS_FILE.match(r["file"])
        if m:
            by_width.setdefault(int(m.group(3) or 1), []).append((r, m))
    # The width with the most inputs: the run-length sweep's.
    width = max(by_width, key=lambda w: len({m.group(0) for _, m in by_width[w]}), default=None)
    lines = {}
    for r, m in by_width.get(width, []):
        mean = float(m.group(2))
        # Mean 1 is every run of length 1 in both distributions: one input, on both lines.
        kinds = DISTRIBUTIONS.values() if mean == 1 else [DISTRIBUTIONS[m.group(1)]]
        for dist, style in kinds:
            key = (kernel_label(r), r["direction"], (style, f", {dist}"))
            lines.setdefault(key, []).append((mean, r[C.KERNEL_GBPS]))
    kernel_plot(name, f"GPU kernels vs mean run length (width {width}), {corpus}",
                "mean run length [elements]", lines, copy,
                "no GPU kernel measured on two or more runs-geo<m>/runs-uni<m> inputs of one width",
                plots_dir, made, skipped, log2_x=True)


def kernels_vs_element_width(corpus, rows, plots_dir, made, skipped):
    name = "kernel_throughput_vs_element_width"
    cells, copy = kernel_rows(rows)
    lines = {}
    for r in cells:
        m = WIDTH_FILE.match(r["file"])
        if m:
            style = "-" if m.group(1) == "runs-geo8" else "--"
            key = (kernel_label(r), r["direction"], (style, f", {m.group(1)}"))
            lines.setdefault(key, []).append((float(m.group(2) or 1), r[C.KERNEL_GBPS]))
    kernel_plot(name, f"GPU kernels vs element width, {corpus}", "element width [bytes]", lines,
                copy, "no GPU kernel measured on runs-geo8 or small_ints inputs of two or more "
                "element widths", plots_dir, made, skipped)


def kernels_per_file(corpus, rows, plots_dir, made, skipped):
    name = "kernel_throughput_per_file"
    cells, copy = kernel_rows(rows)
    # A corpus's files, in the table's order; total rows and synthetic inputs are not files here.
    cells = [r for r in cells if not r["file"].startswith("total (")
             and not RUNS_FILE.match(r["file"]) and not WIDTH_FILE.match(r["file"])]
    files = list(dict.fromkeys(r["file"] for r in cells))
    lines = {}
    for r in cells:
        key = (kernel_label(r), r["direction"], ("-", ""))
        lines.setdefault(key, []).append((files.index(r["file"]), r[C.KERNEL_GBPS]))
    kernel_plot(name, f"GPU kernels per file, {corpus}", "file", lines, copy,
                "no GPU kernel measured on two or more files of the corpus", plots_dir, made,
                skipped, names=dict(enumerate(files)))


def columns_ratio_vs_throughput(corpus, rows, direction, plots_dir, made, skipped):
    name = f"columns_ratio_vs_throughput_{direction}"
    column = f"{direction}_{C.KERNEL_GBPS}"
    points = [r for r in rows if r.get(column) and r.get(C.RATIO)]
    if not points:
        skipped.append({"plot": name, "why": f"no column with {column} and ratio"})
        return
    title = f"Container ratio vs {direction}ion kernel throughput per column, {corpus}"
    fig, ax = plt.subplots(figsize=(8, 5))
    # The variant labels ("fl/frame_size:256") of one codec share its colour, each its marker.
    per_codec = {}
    for variant in sorted({r["codec"] for r in points}):
        codec = codec_of_label(variant)
        marker = series_marker(codec, per_codec.get(codec, 0))
        per_codec[codec] = per_codec.get(codec, 0) + 1
        mine = [r for r in points if r["codec"] == variant]
        ax.scatter([r[column] for r in mine], [r[C.RATIO] for r in mine],
                   color=codec_color(variant), marker=marker, s=30, alpha=0.8, label=variant)
    finish_ratio_plot(fig, ax, [r[column] for r in points], [r[C.RATIO] for r in points],
                      f"{direction}ion kernel throughput [GB/s of original bytes]",
                      CONTAINER_RATIO, title, plots_dir, name, made)


def plot_corpus(report_dir, corpus):
    corpus_dir = os.path.join(report_dir, corpus)
    plots_dir = os.path.join(corpus_dir, "plots")
    os.makedirs(plots_dir, exist_ok=True)
    variants = read_csv(os.path.join(corpus_dir, "variants.csv"))
    e2e_rows = read_csv(os.path.join(corpus_dir, "gpu_e2e.csv"))
    made, skipped = [], []
    for direction in ("compress", "decompress"):
        ratio_vs_throughput(corpus, variants, direction, plots_dir, made, skipped)
    for axis in ("work_items", "frame_size"):
        throughput_vs_axis(corpus, variants, axis, plots_dir, made, skipped)
    pct_of_copy(corpus, e2e_rows, plots_dir, made, skipped)
    kernel_cells = read_csv(os.path.join(corpus_dir, "kernels.csv"))
    if kernel_cells:  # the kernels section is written for some runs only
        kernels_vs_run_length(corpus, kernel_cells, plots_dir, made, skipped)
        kernels_vs_element_width(corpus, kernel_cells, plots_dir, made, skipped)
        kernels_per_file(corpus, kernel_cells, plots_dir, made, skipped)
    columns = read_csv(os.path.join(corpus_dir, "columns.csv"))
    if columns:  # typed corpora only
        for direction in ("compress", "decompress"):
            columns_ratio_vs_throughput(corpus, columns, direction, plots_dir, made, skipped)
    for s in skipped:
        print(f"plot_results: {corpus}: {s['plot']} skipped: {s['why']}")
    with open(os.path.join(plots_dir, "plots.manifest"), "w") as f:
        json.dump({"plots": made, "skipped": skipped}, f, indent=2)
    print(f"plot_results: {corpus}: {len(made)} plot(s) in {plots_dir}")


def main(argv):
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--title-note", default="",
                        help="a second title line for every plot (the GPU and revision)")
    parser.add_argument("report_dir")
    parser.add_argument("corpora", nargs="+", metavar="corpus")
    args = parser.parse_args(argv[1:])
    global title_note
    title_note = args.title_note
    for corpus in args.corpora:
        plot_corpus(args.report_dir, corpus)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
