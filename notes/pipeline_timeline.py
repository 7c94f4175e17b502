#!/usr/bin/env python3
"""Where an end-to-end call's time went: the timelines `gcbench --pipeline-timeline DIR` writes.

Usage: python3 notes/pipeline_timeline.py DIR [--chunks] [--depth 4]

For each timeline file (one call of one cell's path, pinned or pageable): the call's time, the
host's setup before the first chunk (buffers sized), the fill (from the start to the first
download), the links' and the codec calls' busy time, the tail after the last download, and for
every download what it began right after: the codec call of its chunk ("codec"), the previous
download ("link"), an upload ("upload": the copy waited for one of the other direction), or none
of these ("other": the host enqueued it late, or the GPU was slow to start it). Then, over the
chunks after the first `depth` (the steady state), the median and range of a download's time and
of a codec call's own time: from the latest of its upload's end and the end of its slot's
previous codec call and download (chunk i - depth) to its end, the time overlapping calls take.
Last, the host's issue of a chunk: chunk 0's and the median and range of the others', and of
that the codec's own *_async call (where the timeline marks its return, `codec_issued`).
--chunks adds each chunk's marks in milliseconds. Times are seconds from the call's start: GPU
marks are CUDA events, host marks the steady clock, both zeroed at the start within
microseconds.
Standard library only.
"""
import argparse
import json
import pathlib

SLACK_S = 5e-6  # a download that began within this of an event's end began after it


def gated_by(chunks, i):
    """What the download of chunk i began right after."""
    c = chunks[i]
    begin = c["download_begin"]
    link = chunks[i - 1]["download_end"] if i > 0 else 0.0
    ready = max(c["codec_end"], link)
    if begin - ready <= SLACK_S:
        return "codec" if c["codec_end"] >= link else "link"
    if any(0 <= begin - u["upload_end"] <= SLACK_S for u in chunks):
        return "upload"
    return "other"


def busy(chunks, begin, end):
    return sum(c[end] - c[begin] for c in chunks)


def spread(seconds):
    """Median and range in microseconds, or a dash without any."""
    if not seconds:
        return "-"
    s = sorted(seconds)
    return f"{1e6 * s[len(s) // 2]:.0f} us ({1e6 * s[0]:.0f}-{1e6 * s[-1]:.0f})"


def steady_state(chunks, depth):
    """Each later chunk's download time and its codec call's own time (see the usage)."""
    downloads, calls = [], []
    for i in range(depth, len(chunks)):
        c, slot_before = chunks[i], chunks[i - depth]
        start = max(c["upload_end"], slot_before["codec_end"], slot_before["download_end"])
        calls.append(c["codec_end"] - start)
        downloads.append(c["download_end"] - c["download_begin"])
    return downloads, calls


def summary(doc, depth):
    chunks, call = doc["chunks"], doc["call_s"]
    n = doc["original_bytes"]
    codec = sum(c["codec_end"] - max(c["upload_end"], chunks[i - 1]["codec_end"] if i else 0.0)
                for i, c in enumerate(chunks))
    gates = [gated_by(chunks, i) for i in range(len(chunks))]
    rows = [
        ("call", call, f"{n / call / 1e9:.1f} GB/s"),
        ("host setup before the first chunk", doc["setup_s"], ""),
        ("first upload begins", chunks[0]["upload_begin"], ""),
        ("fill: start to the first download", chunks[0]["download_begin"], ""),
        ("uploads busy", busy(chunks, "upload_begin", "upload_end"), ""),
        ("codec calls busy (after their upload and the previous call)", codec, ""),
        ("downloads busy", busy(chunks, "download_begin", "download_end"), ""),
        ("tail: last download to the call's return", call - chunks[-1]["download_end"], ""),
    ]
    lines = [f"{doc['cell']} ({doc['path']}): {len(chunks)} chunks, {n / 1e6:.1f} MB"]
    lines += [f"  {label:62} {1e3 * s:8.3f} ms  {note}" for label, s, note in rows]
    lines.append("  downloads began after: " + ", ".join(
        f"{g} {gates.count(g)}" for g in ("codec", "link", "upload", "other") if g in gates))
    downloads, calls = steady_state(chunks, depth)
    lines.append(f"  after the first {depth} chunks: a download {spread(downloads)}, a codec call "
                 f"{spread(calls)}")
    if "codec_issued" in chunks[0]:
        issue = [c["issue_end"] - c["issue_begin"] for c in chunks]
        launch = [c["codec_issued"] - c["issue_begin"] for c in chunks]
        after = [c["issue_end"] - c["codec_issued"] for c in chunks]
        lines.append(f"  host issue: chunk 0 {1e6 * issue[0]:.0f} us, then {spread(issue[1:])}; "
                     f"to the codec call's return {spread(launch[1:])}, after it "
                     f"{spread(after[1:])}")
    return lines


def chunk_table(doc):
    marks = ["issue_begin", "codec_issued", "issue_end", "upload_begin", "upload_end", "codec_end",
             "download_begin", "download_end", "drained"]
    lines = ["  chunk " + " ".join(f"{m:>14}" for m in marks) + "  download began after"]
    for i, c in enumerate(doc["chunks"]):
        times = " ".join(f"{1e3 * c.get(m, float('nan')):14.3f}" for m in marks)  # nan: unmarked
        lines.append(f"  {i:5d} {times}  {gated_by(doc['chunks'], i)}")
    return lines


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("dir", type=pathlib.Path)
    p.add_argument("--chunks", action="store_true", help="each chunk's marks in ms")
    p.add_argument("--depth", type=int, default=4, help="the pipeline's slots (--pipeline-depth)")
    a = p.parse_args()
    files = sorted(a.dir.glob("timeline-*.json"))
    if not files:
        raise SystemExit(f"pipeline_timeline: no timeline-*.json in {a.dir}")
    for f in files:
        doc = json.loads(f.read_text())
        if not doc["chunks"]:
            continue
        print("\n".join(summary(doc, a.depth) + (chunk_table(doc) if a.chunks else [])),
              end="\n\n")


if __name__ == "__main__":
    main()
