#!/usr/bin/env python3
"""Prints the latest figures that bench/NOTES.md quotes, read from the committed evidence.

Usage: python3 notes/current.py   (from the repository root; standard library only)

Each line: the figure, the GPU, the evidence file and the cell. Kernel GB/s are uncompressed
bytes over the median kernel time (CUDA events); % of copy is that over the same run's
device-to-device copy (the context's copy_gbps). A total over files is bytes summed over
times summed, as the report's total rows.
"""
import json
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.join(ROOT, "reports", "plots"))
import counters as C  # noqa: E402 (the result files' counter names)


def load(path):
    with open(os.path.join(ROOT, path)) as f:
        doc = json.load(f)
    cells = {}
    for b in doc["benchmarks"]:
        if b.get("run_type", "iteration") == "aggregate" or b.get("error_occurred"):
            continue
        cells.setdefault(b["name"], b)
    return doc["context"], cells


def seconds(b):
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[b.get("time_unit", "ns")]
    return b["real_time"] * scale


def cell(cells, prefix):
    """The one cell whose name starts with prefix."""
    found = [v for k, v in cells.items() if k.startswith(prefix)]
    if len(found) != 1:
        raise SystemExit(f"{len(found)} cells start with {prefix}")
    return found[0]


def gbps(cells, prefix):
    return cell(cells, prefix)[C.KERNEL_GBPS]


SILESIA = ["dickens", "mr", "nci", "ooffice", "osdb", "reymont", "x-ray", "xml"]


def main():
    rows = []
    for gpu in ("h100", "h200"):
        path = f"evidence/{gpu}/kernels/kernels.json"
        ctx, c = load(path)
        copy = float(ctx["copy_gbps"])

        def add(what, value, unit="GB/s", pct=True):
            extra = f", {100 * value / copy:.1f}% of copy" if pct else ""
            rows.append(f"{gpu}  {what}: {value:.1f} {unit}{extra}  [{path}]")

        for w in (4, 2, 1):
            for fs in (256, 1024, 4096):
                for d in ("compress", "decompress"):
                    add(f"FL {d} w{w} frames {fs}",
                        gbps(c, f"fl/gpu/{d}/synthetic/small_ints-1GiB-w{w}/element_width:{w}/frame_size:{fs}/"))
        for runs in ("geo1", "geo8", "uni8", "geo64", "geo4096"):
            ours = gbps(c, f"rle/gpu/compress/synthetic/runs-{runs}-1GiB-w4/")
            cub = gbps(c, f"rle-cub/gpu/compress/synthetic/runs-{runs}-1GiB-w4/")
            add(f"RLE compress runs-{runs} w4", ours)
            add(f"rle-cub compress runs-{runs} w4 (ours / rle-cub = {ours / cub:.2f}x)", cub)
            for dec in ("scan", "flood"):
                add(f"RLE decompress {dec} runs-{runs} w4",
                    gbps(c, f"rle/gpu/decompress/synthetic/runs-{runs}-1GiB-w4/element_width:4/decode:{dec}/"))
        for w in (1, 2):
            for dec in ("scan", "flood"):
                add(f"RLE decompress {dec} runs-geo8 w{w}",
                    gbps(c, f"rle/gpu/decompress/synthetic/runs-geo8-1GiB-w{w}/element_width:{w}/decode:{dec}/"))
        concat = "silesia-concat/all-8-of-12"
        warp = gbps(c, "lz77/gpu/compress/" + concat + "/finder:hash/")
        lz4 = gbps(c, "nvcomp-lz4/gpu/compress/" + concat + "/")
        add(f"LZ77 warp compress, Silesia as one input (nvCOMP LZ4 {lz4:.2f}, {warp / lz4:.2f}x)", warp, pct=False)
        add("LZ77 chunk-parallel decode, Silesia as one input",
            gbps(c, f"lz77/gpu/decompress/{concat}/finder:hash/work_items:1024/chunk:4096/config:thesis/window_scope:chunk/"), pct=False)
        add("LZ77 jump decode (launch-block scope), Silesia as one input",
            gbps(c, f"lz77/gpu/decompress/{concat}/finder:hash/work_items:1024/chunk:4096/config:thesis/window_scope:block/design:warp/decode_mode:jump/"), pct=False)
        add("nvCOMP LZ4 decompress, Silesia as one input",
            gbps(c, "nvcomp-lz4/gpu/decompress/" + concat + "/"), pct=False)
        for finder in ("z", "brute"):
            nbytes = g_t = c_t = 0.0
            for f in SILESIA:
                g = cell(c, f"lz77/gpu/compress/silesia/{f}/finder:{finder}/")
                p = cell(c, f"lz77/cpu/compress/silesia/{f}/finder:{finder}/")
                nbytes += g[C.INPUT_BYTES]
                g_t += seconds(g)
                c_t += seconds(p)
            rows.append(f"{gpu}  LZ77 {finder} finder, Silesia total, work_items 1024: GPU (design auto) "
                        f"{nbytes / g_t / 1e6:.1f} MB/s, CPU on every core {nbytes / c_t / 1e6:.2f} MB/s, "
                        f"{c_t / g_t:.1f}x  [{path}]")
        rows.append(f"{gpu}  device copy {copy:.1f} GB/s  [{path}]")
    for gpu in ("h100", "h200"):
        for name in ("fl", "rle", "lz77", "lz77_chunk"):
            path = f"evidence/{gpu}/end-to-end/e2e_{name}.json"
            if not os.path.exists(os.path.join(ROOT, path)):
                continue
            ctx, c = load(path)
            rows.append(f"{gpu}  end to end, {path} at {ctx['git_revision']}: pinned H2D "
                        f"{float(ctx['h2d_pinned_gbps']):.1f} GB/s, pageable H2D "
                        f"{float(ctx['h2d_pageable_gbps']):.2f}")
            for k, b in c.items():
                parts = k.split("/")
                axes = [a for a in parts[5:-1] if a.startswith(("element_width", "window_scope"))]
                rows.append(f"{gpu}    {'/'.join(parts[:3] + axes)}: kernel {b[C.KERNEL_GBPS]:.1f} GB/s, "
                            f"pinned end to end {b[C.E2E_GBPS]:.1f} ({b[C.PCT_H2D]:.1f}% of pinned H2D), "
                            f"pageable {b[C.E2E_PAGEABLE_GBPS]:.1f}, ratio {b[C.RATIO]:.3f}")
    print("\n".join(rows))


if __name__ == "__main__":
    sys.exit(main())
