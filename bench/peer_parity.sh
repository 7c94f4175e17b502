#!/usr/bin/env bash
# The CPU peers beside their own tools (issue 45): gcbench's single-thread lz4 (level 0, as
# `lz4 -1`) and zstd (level 3) cells against `lz4 -b1` and `zstd -b3` on the same files, one
# after the other on this machine, compression and decompression MB/s and their ratio. The
# differences that remain are the frames' work the tools' benchmarks skip: `lz4 -b` times raw
# blocks, without the frame and its content checksum that the lz4 program (and gcbench) write.
# The tools run 2 s per file (-i2), past their first, colder second.
# Usage: bench/peer_parity.sh [--gcbench PATH] [--min-ratio R] FILE...
# With --min-ratio, exits 1 when a row's gcbench / tool ratio is below R; 77 when neither tool
# (or gcbench's peer) is there.
set -euo pipefail
gcbench=build/bench/driver/gcbench
min_ratio=
while [[ $# -gt 0 && $1 == --* ]]; do
  case $1 in
    --gcbench) gcbench=$2; shift 2 ;;
    --min-ratio) min_ratio=$2; shift 2 ;;
    *) echo "peer_parity: unknown flag $1" >&2; exit 2 ;;
  esac
done
[[ $# -gt 0 ]] || { echo "usage: $0 [--gcbench PATH] [--min-ratio R] FILE..." >&2; exit 2; }
tools=()
codecs=$("$gcbench" --list)  # whole: grep -q on a pipe would end it early (SIGPIPE, pipefail)
for t in lz4 zstd; do
  command -v "$t" >/dev/null && grep -q "^$t " <<<"$codecs" && tools+=("$t")
done
((${#tools[@]})) || { echo "peer_parity: no lz4 or zstd program, or no such peer in gcbench" >&2; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$gcbench" "$@" --codecs "$(IFS=,; echo "${tools[*]}")" --sweep defaults --no-progress \
  --benchmark_repetitions=3 --benchmark_out="$work/gcbench.json" >"$work/gcbench.log" 2>&1 ||
  { cat "$work/gcbench.log"; exit 1; }
for t in "${tools[@]}"; do
  level=1
  [[ $t == zstd ]] && level=3
  for f in "$@"; do
    # The tools redraw progress with carriage returns; their result is the last line.
    "$t" -b$level -e$level -i2 "$f" 2>&1 | tr '\r' '\n' | grep -E "MB/s.*MB/s" | tail -n 1 |
      sed "s|^|$t $(basename "$f") |" >>"$work/tools.txt"
  done
done
python3 - "$work/gcbench.json" "$work/tools.txt" "$min_ratio" <<'PY'
import json, re, statistics, sys
doc = json.load(open(sys.argv[1]))
ours = {}
for b in doc["benchmarks"]:
    if b.get("run_type") != "iteration" or b.get("error_occurred"):
        continue
    codec, _, direction, *rest = b["name"].split("/")
    file = rest[1]
    mbps = b["input_bytes"] / (b["real_time"] * 1e-9) / 1e6
    ours.setdefault((codec, file, direction), []).append(mbps)
low = []
print(f'{"peer":5s} {"file":16s} {"direction":10s} {"gcbench MB/s":>12s} {"tool MB/s":>10s} {"ratio":>6s}')
for line in open(sys.argv[2]):
    tool, file, rest = line.split(" ", 2)
    speeds = [float(x) for x in re.findall(r"([0-9.]+) MB/s", rest)]
    for direction, theirs in zip(("compress", "decompress"), speeds):
        mine = statistics.median(ours[(tool, file, direction)])
        ratio = mine / theirs
        print(f"{tool:5s} {file:16s} {direction:10s} {mine:12.1f} {theirs:10.1f} {ratio:6.2f}")
        if sys.argv[3] and ratio < float(sys.argv[3]):
            low.append(f"{tool} {file} {direction} {ratio:.2f}")
if low:
    print("below the bound " + sys.argv[3] + ": " + "; ".join(low))
    sys.exit(1)
PY
