#!/usr/bin/python3
"""The column table: per input file of a corpus (a tpch column, a .npy array), its element
width and size, and for every GPU codec variant measured on it the ratio and the kernel and
end-to-end GB/s of compression and decompression; and one ratio-versus-kernel-throughput plot
per corpus. Reads result JSON (a gcbench --out-dir folder or an --export file); knows no codec:
a variant is a cell's codec and its non-default axes, as the cells name them.

usage: columns.py RESULTS [--corpus NAME] [--out DIR]
"""
import argparse
import json
import pathlib
import sys
from collections import defaultdict
from urllib.parse import unquote


def entries(path):
    files = [path] if path.is_file() else sorted(path.rglob("*.json"))
    for f in files:
        if any(part.startswith(".") for part in f.relative_to(path).parts[:-1]) if path.is_dir() else False:
            continue
        try:
            doc = json.loads(f.read_text())
        except (OSError, ValueError):
            continue
        context = doc.get("context", {}) if isinstance(doc, dict) else {}
        if "gcbench_export" in context and path.is_dir():
            continue  # an export inside the folder repeats its cells
        for b in doc.get("benchmarks", []) if isinstance(doc, dict) else []:
            yield b, context


def parse(name):
    """codec, device, direction, corpus, file, [(axis, value)] of a cell name, or None."""
    segs = name.split("/")
    while segs and (segs[-1] in ("real_time", "manual_time", "process_time")
                    or segs[-1].split(":")[0] in ("min_time", "repeats", "iterations")):
        segs.pop()
    if len(segs) < 5 or segs[1] not in ("cpu", "gpu"):
        return None
    params = [tuple(unquote(x) for x in s.split(":", 1)) for s in segs[5:] if ":" in s]
    return unquote(segs[0]), segs[1], segs[2], unquote(segs[3]), unquote(segs[4]), params


def gbps(value):
    return "" if value is None else (f"{value:.0f}" if value >= 100 else f"{value:.3g}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", type=pathlib.Path)
    ap.add_argument("--corpus", help="only this corpus (default: every corpus with GPU cells)")
    ap.add_argument("--out", type=pathlib.Path, help="write columns-<corpus>.md and .png here")
    args = ap.parse_args()

    defaults = {}
    cells = []
    for b, context in entries(args.results):
        for key, value in context.items():
            if key.startswith("defaults:"):
                defaults[key[len("defaults:"):]] = dict(
                    tuple(p.split(":", 1)) for p in value.split("/") if ":" in p)
        parsed = parse(b.get("run_name", b.get("name", "")))
        if parsed is None or b.get("error_occurred") or b.get("run_type") == "aggregate":
            continue
        codec, device, direction, corpus, file, params = parsed
        if device != "gpu" or (args.corpus and corpus != args.corpus):
            continue
        cells.append((codec, direction, corpus, file, params, b))
    if not cells:
        print("columns.py: no GPU cells in", args.results, file=sys.stderr)
        return 2

    # corpus -> file -> variant -> direction -> the entry
    table = defaultdict(lambda: defaultdict(lambda: defaultdict(dict)))
    width = defaultdict(dict)
    for codec, direction, corpus, file, params, b in cells:
        own = defaults.get(f"{codec}/gpu", {})
        shown = [f"{a}={v}" for a, v in params if a != "element_width" and own.get(a) != v]
        variant = codec + (" " + ",".join(shown) if shown else "")
        table[corpus][file][variant][direction] = b
        for a, v in params:
            if a == "element_width":
                width[corpus][file] = v

    for corpus, files in table.items():
        lines = [f"## Columns of {corpus}: ratio and GB/s per codec", "",
                 "Kernel: the device call alone (CUDA events), GB/s of uncompressed bytes; "
                 "e2e: host memory to host memory through the pipeline (pinned). A codec's "
                 "variant names its axes that are not its defaults.", "",
                 "| column | width | MB | codec | ratio | compress kernel | decompress kernel "
                 "| compress e2e | decompress e2e |",
                 "|---|---:|---:|---|---:|---:|---:|---:|---:|"]
        points = defaultdict(list)
        for file in sorted(files):
            for variant in sorted(files[file]):
                by_dir = files[file][variant]
                c, d = by_dir.get("compress", {}), by_dir.get("decompress", {})
                ratio = (c or d).get("ratio")
                size = (c or d).get("input_bytes", 0) / 1e6
                lines.append("| " + " | ".join([
                    file, width[corpus].get(file, ""), f"{size:.1f}", variant,
                    "" if ratio is None else f"{ratio:.3g}",
                    gbps(c.get("kernel_gbps")), gbps(d.get("kernel_gbps")),
                    gbps(c.get("e2e_gbps")), gbps(d.get("e2e_gbps"))]) + " |")
                if ratio and d.get("kernel_gbps"):
                    points[variant].append((d["kernel_gbps"], ratio))
        text = "\n".join(lines) + "\n"
        print(text)
        if args.out:
            args.out.mkdir(parents=True, exist_ok=True)
            (args.out / f"columns-{corpus}.md").write_text(text)
            plot(points, corpus, args.out / f"columns-{corpus}.png",
                 next(iter(cells))[5].get("gpu", {}).get("name", ""))
    return 0


def plot(points, corpus, path, gpu):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("columns.py: no matplotlib, no plot", file=sys.stderr)
        return
    fig, ax = plt.subplots(figsize=(7, 4.5))
    markers = "os^Dv<>pP*X"
    for i, (variant, xy) in enumerate(sorted(points.items())):
        ax.scatter([x for x, _ in xy], [y for _, y in xy], label=variant,
                   marker=markers[i % len(markers)], s=28, alpha=0.8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("decompression kernel [GB/s]")
    ax.set_ylabel("compression ratio")
    ax.set_title(f"{corpus}: one point per column and codec{', ' + gpu if gpu else ''}")
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    plt.close(fig)


if __name__ == "__main__":
    sys.exit(main())
