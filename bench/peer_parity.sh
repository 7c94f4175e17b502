#!/usr/bin/env bash
# The CPU peers beside their own tools (issue 45): gcbench's single-thread lz4 (level 0, as
# `lz4 -1`), zstd (level 3) and libdeflate (level 6, gzip) cells against `lz4 -b1`, `zstd -b3`
# and libdeflate's own benchmark program (third_party/libdeflate-benchmark) on the same files,
# one after the other on this machine: compression and decompression MB/s and their ratio.
# lz4 and zstd run 2 s per file (-i2), past their first, colder second. libdeflate's benchmark
# times one call per file: it is given each file eight times, its first (cold) pass dropped,
# the median of the rest kept.
# `lz4 -b` times raw blocks, without the frame and its content checksum that the lz4 program
# (and gcbench) write: with --probe (the lz4_timed_region program, bench/probes/), a second
# table splits lz4's work on the same files (raw block, frame with and without its checksum)
# and sets gcbench's cell beside the frame, the same work.
# Usage: bench/peer_parity.sh [--gcbench PATH] [--probe PATH] [--libdeflate-benchmark PATH]
#                             [--min-ratio R] FILE...
# With --min-ratio, exits 1 when a row's gcbench / tool ratio is below R; 77 when no tool (or
# gcbench's peer) is there.
set -euo pipefail
gcbench=build/bench/driver/gcbench
min_ratio=
probe=
libdeflate_benchmark=
while [[ $# -gt 0 && $1 == --* ]]; do
  case $1 in
    --gcbench) gcbench=$2; shift 2 ;;
    --min-ratio) min_ratio=$2; shift 2 ;;
    --probe) probe=$2; shift 2 ;;
    --libdeflate-benchmark) libdeflate_benchmark=$2; shift 2 ;;
    *) echo "peer_parity: unknown flag $1" >&2; exit 2 ;;
  esac
done
[[ $# -gt 0 ]] || { echo "usage: $0 [--gcbench PATH] [--probe PATH] [--libdeflate-benchmark PATH] [--min-ratio R] FILE..." >&2; exit 2; }
tools=()
codecs=$("$gcbench" --list)  # whole: grep -q on a pipe would end it early (SIGPIPE, pipefail)
for t in lz4 zstd libdeflate; do
  program=$t
  [[ $t == libdeflate ]] && program=${libdeflate_benchmark:-libdeflate-benchmark-not-given}
  command -v "$program" >/dev/null && grep -q "^$t " <<<"$codecs" && tools+=("$t")
done
((${#tools[@]})) || { echo "peer_parity: no peer's tool, or no such peer in gcbench" >&2; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$gcbench" "$@" --codecs "$(IFS=,; echo "${tools[*]}")" --sweep defaults --no-progress \
  --benchmark_repetitions=3 --benchmark_out="$work/gcbench.json" >"$work/gcbench.log" 2>&1 ||
  { cat "$work/gcbench.log"; exit 1; }
# tools.txt: one line per measurement, "tool file ... <compress> MB/s ... <decompress> MB/s".
for t in "${tools[@]}"; do
  for f in "$@"; do
    name=$(basename "$f")
    if [[ $t == libdeflate ]]; then
      "$libdeflate_benchmark" -6 -g -s "$(stat -c %s "$f")" "$f" "$f" "$f" "$f" "$f" "$f" "$f" "$f" |
        grep -E "(Dec|C)ompression time" | paste - - | tail -n +2 | sed "s|^|$t $name |"
      continue
    fi
    level=1
    [[ $t == zstd ]] && level=3
    # The tools redraw progress with carriage returns; their result is the last line.
    "$t" -b$level -e$level -i2 "$f" 2>&1 | tr '\r' '\n' | grep -E "MB/s.*MB/s" | tail -n 1 |
      sed "s|^|$t $name |"
  done
done >"$work/tools.txt"
touch "$work/probe.txt"
if [[ -n $probe && " ${tools[*]} " == *" lz4 "* ]]; then
  "$probe" "$@" | tail -n +2 >"$work/probe.txt"
fi
# The result file's counters by the names reports/plots/counters.py gives them.
PYTHONPATH="$(dirname "$0")/../reports/plots" \
  python3 - "$work/gcbench.json" "$work/tools.txt" "$min_ratio" "$work/probe.txt" <<'PY'
import json, re, statistics, sys
import counters as C
doc = json.load(open(sys.argv[1]))
ours = {}
for b in doc["benchmarks"]:
    if b.get("run_type") != "iteration" or b.get("error_occurred"):
        continue
    codec, _, direction, *rest = b["name"].split("/")
    file = rest[1]
    mbps = b[C.INPUT_BYTES] / (b["real_time"] * 1e-9) / 1e6
    ours.setdefault((codec, file, direction), []).append(mbps)
measured = {}
for line in open(sys.argv[2]):
    tool, file, rest = line.split(" ", 2)
    speeds = [float(x) for x in re.findall(r"([0-9.]+) MB/s", rest)]
    for direction, theirs in zip(("compress", "decompress"), speeds):
        measured.setdefault((tool, file, direction), []).append(theirs)
tools = {key: statistics.median(speeds) for key, speeds in measured.items()}
low = []
print(f'{"peer":10s} {"file":16s} {"direction":10s} {"gcbench MB/s":>12s} {"tool MB/s":>10s} {"ratio":>6s}')
for (tool, file, direction), theirs in tools.items():
    mine = statistics.median(ours[(tool, file, direction)])
    ratio = mine / theirs
    print(f"{tool:10s} {file:16s} {direction:10s} {mine:12.1f} {theirs:10.1f} {ratio:6.2f}")
    if sys.argv[3] and ratio < float(sys.argv[3]):
        low.append(f"{tool} {file} {direction} {ratio:.2f}")
probe = [line.split() for line in open(sys.argv[4]) if line.strip()]
if probe:
    print("\nlz4's work split (MB/s, lz4_timed_region): the tool times a raw block; gcbench, as the lz4")
    print("program, a frame with its content checksum, compressed and decoded with a kept context")
    print(f'{"file":16s} {"direction":10s} {"lz4 -b1":>8s} {"block":>8s} {"frame":>8s} {"no sum":>8s} '
          f'{"gcbench":>8s} {"gcbench/frame":>13s}')
    for file, direction, block, frame, unsummed, _fresh in probe:
        mine = statistics.median(ours[("lz4", file, direction)])
        tool = tools.get(("lz4", file, direction), float("nan"))
        print(f"{file:16s} {direction:10s} {tool:8.1f} {float(block):8.1f} {float(frame):8.1f} "
              f"{float(unsummed):8.1f} {mine:8.1f} {mine / float(frame):13.2f}")
if low:
    print("below the bound " + sys.argv[3] + ": " + "; ".join(low))
    sys.exit(1)
PY
