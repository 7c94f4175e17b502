#!/usr/bin/env bash
# Google Benchmark's own compare.py (Debian's libbenchmark-tools) on gcbench's results: two
# runs, each into an --out-dir with --benchmark_out (the merged file of its directory), then
# `compare.py benchmarks BASE NEW`. Every repetition of every cell must be a row whose old
# and new times are whole nanoseconds above 0 (times once stored in ms printed as 0 there).
# usage: compare_py_test.sh GCBENCH; exits 77 (ctest: skipped) without compare.py or SciPy.
set -euo pipefail
gcbench=$1
compare=/usr/share/benchmark/compare.py
python=/usr/bin/python3  # Debian's, with python3-scipy: compare.py needs it
[[ -f $compare ]] || { echo "skipped: $compare missing (apt-get install libbenchmark-tools)"; exit 77; }
"$python" -c "import scipy" 2>/dev/null ||
  { echo "skipped: $python has no scipy (apt-get install python3-scipy)"; exit 77; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for side in base new; do
  "$gcbench" --corpus synthetic:runs:64KiB --codecs rle,fl --device cpu --sweep defaults \
    --threads 1 --no-progress --out-dir "$work/$side" --benchmark_out="$work/$side.json" \
    --benchmark_repetitions=3 >"$work/$side.log" 2>&1 || { cat "$work/$side.log"; exit 1; }
done
"$python" "$compare" --no-color benchmarks "$work/base.json" "$work/new.json" >"$work/compare.txt"
cat "$work/compare.txt"

"$python" - "$work/base.json" "$work/compare.txt" <<'PY'
import json, sys
merged = json.load(open(sys.argv[1]))
runs = [b for b in merged["benchmarks"] if b.get("run_type") == "iteration"]
assert runs and all(b["time_unit"] == "ns" for b in runs), "no iteration entries in ns"
cells = {b["run_name"] for b in runs}
assert len(cells) == 4, f"expected 4 cells (rle, fl x compress, decompress), got {sorted(cells)}"
rows = {}
for line in open(sys.argv[2]):
    fields = line.split()
    if len(fields) == 7 and fields[0] in cells:
        rows.setdefault(fields[0], []).append(fields)
for cell in cells:
    reps = rows.get(cell, [])
    assert len(reps) == 3, f"{cell}: {len(reps)} rows in compare.py's table, expected 3"
    for fields in reps:
        old, new = int(fields[3]), int(fields[4])
        assert old > 0 and new > 0, f"{cell}: a time shown as 0 ({fields})"
print(f"compare.py: {len(cells)} cells x 3 repetitions, every time above 0 ns")
PY
