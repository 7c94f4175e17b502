#!/usr/bin/env python3
"""What the end-to-end pipeline's chunking allows: a model of each end-to-end cell of a result file.

Usage: python3 notes/pipeline_model.py RESULT.json [--fixed-us 35] [--down-gbps GBPS] [--depth 4]
                                             [--host-us 0] [--chunks-mib 4,8,16,32,64]

The model follows src/gpu/pipeline.cpp: the input is cut into chunks; each chunk's upload waits
for the previous chunk's upload and its download for the previous download (copies of one
direction in chunk order), its kernel follows its upload and the previous chunk's kernel (each
cell's kernel time was measured with the GPU to itself), and chunk i reuses the slot of chunk
i - depth: decompression's upload once that chunk's kernel is done and its kernel once that
chunk is downloaded (the GPU orders the reuse), compression's upload once that chunk is
downloaded (the host drains it). A chunk's kernel takes the cell's kernel time pro rata
plus a fixed time per call (--fixed-us: the header check, plan, report and CRC tail around a
decoder). Links run at the run's pinned H2D and D2H rates in its context, each direction at its
own rate at once (--down-gbps: the downloads' rate instead, e.g. what a timeline measured while
uploads shared the link). The host issues one chunk after another, --host-us each (default 0:
left out): a chunk's upload begins no earlier than its issue and its kernel no earlier than the
issue's end, its launches being the issue's largest share. Without it the model is an upper
bound on what a chunk size allows; its gap to the measured time is the host's work.
Standard library only.
"""
import argparse
import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "reports" / "plots"))
import counters as C  # noqa: E402 (the result files' counter names)

DEFAULT_CHUNK = 32 << 20  # PipelineOptions::chunk_bytes


def model_seconds(n, chunk, ratio, kernel_s, fixed_s, up_bps, down_bps, depth, compress,
                  host_s=0.0):
    """Seconds from the first upload to the last download of an n-byte input."""
    up_end, kernel_end, down_end, kernels, downs = 0.0, 0.0, 0.0, [], []
    for i, start in enumerate(range(0, int(n), chunk)):
        size = min(chunk, n - start)
        up_bytes, down_bytes = (size, size / ratio) if compress else (size / ratio, size)
        down_before = downs[i - depth] if i >= depth else 0.0
        kernel_before = kernels[i - depth] if i >= depth else 0.0
        issued = i * host_s
        up_end = max(up_end, issued, down_before if compress else kernel_before) + up_bytes / up_bps
        kernel_end = (max(up_end, kernel_end, down_before, issued + host_s) + fixed_s +
                      kernel_s * size / n)
        down_end = max(down_end, kernel_end) + down_bytes / down_bps
        kernels.append(kernel_end)
        downs.append(down_end)
    return down_end


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("result")
    p.add_argument("--fixed-us", type=float, default=35.0)
    p.add_argument("--down-gbps", type=float)
    p.add_argument("--depth", type=int, default=4)
    p.add_argument("--host-us", type=float, default=0.0)
    p.add_argument("--chunks-mib", default="4,8,16,32,64")
    a = p.parse_args()
    doc = json.load(open(a.result))
    ctx = doc["context"]
    up, down = float(ctx["h2d_pinned_gbps"]) * 1e9, float(ctx["d2h_pinned_gbps"]) * 1e9
    if a.down_gbps:
        down = a.down_gbps * 1e9
    sizes = [int(s) << 20 for s in a.chunks_mib.split(",")]
    print(f"{ctx.get('gpu')}: pinned H2D {up / 1e9:.1f}, D2H {down / 1e9:.1f} GB/s; "
          f"% of pinned H2D, measured and modelled")
    print(f"{'cell':58} {'measured':>9} {'model':>6} " +
          " ".join(f"{s >> 20:>4}MiB" for s in sizes) + f" {'chunks':>6} {'gap ms':>6}")
    for b in doc["benchmarks"]:
        if b.get("run_type") == "aggregate" or C.E2E_S not in b or b.get("error_occurred"):
            continue
        n, ratio, kernel_s = b[C.INPUT_BYTES], b[C.RATIO], b[C.KERNEL_S]
        compress = b["name"].split("/")[2] == "compress"  # <codec>/<device>/<direction>/...
        chunk = int(b.get(C.PIPELINE_CHUNK_BYTES, DEFAULT_CHUNK))

        def seconds(c):
            return model_seconds(n, c, ratio, kernel_s, a.fixed_us * 1e-6, up, down, a.depth,
                                 compress, a.host_us * 1e-6)

        def pct(c):
            return 100 * n / seconds(c) / up

        # The gap: the measured time over the model's at the cell's chunk, the host's share.
        gap_ms = 1e3 * (b[C.E2E_S] - seconds(chunk))
        print(f"{b['name'][:58]:58} {100 * n / b[C.E2E_S] / up:8.1f}% {pct(chunk):5.1f}% " +
              " ".join(f"{pct(s):6.1f}%" for s in sizes) +
              f" {-(-int(n) // chunk):6d} {gap_ms:6.2f}")


if __name__ == "__main__":
    main()
