#!/usr/bin/env bash
# A device call for iterating on the LZ77 warp design: the GPU LZ77 tests (byte identity with the
# CPU reference), then the driver on the mirrored Silesia files against the all-core CPU reference,
# per-file times and the total speed-up last. DESIGNS=warp,block: the GPU designs (default warp);
# CORPUS=concat:silesia: the files as one input; SKIP_TESTS=1: no tests.
# Usage (repository root, .carry carried): bash bench/device/iterate_lz77_warp.sh
source "$(dirname "$0")/common.sh" iterate
B=/tmp/build-iterate

step build
build $B . gcbench gpu_lz77_gpu_test

if [[ -z ${SKIP_TESTS:-} ]]; then
  step "GPU LZ77 tests"
  timeout 300 $B/tests/gpu_lz77_gpu_test >"$OUT/test.log" 2>&1
  echo "tests rc=$?: $(grep -E '^\[  (PASSED|FAILED)' "$OUT/test.log" | tr '\n' ' ')"
fi

step "driver: ${CORPUS:-silesia}"
R=$OUT/results
common=(--corpus "${CORPUS:-silesia}" --out-dir "$R" --no-progress --codecs lz77 --finder hash
  --direction compress --work-items 1024)
timeout 120 $B/bench/driver/gcbench "${common[@]}" --device gpu --design "${DESIGNS:-warp}" \
  --gpu-iterations 5 >"$OUT/driver_gpu.log" 2>&1
echo "driver gpu rc=$?"
timeout 120 $B/bench/driver/gcbench "${common[@]}" --device cpu --threads 0 \
  --benchmark_repetitions=5 --benchmark_min_time=0.001 >"$OUT/driver_cpu.log" 2>&1
echo "driver cpu rc=$?"

python3 - "$R" <<'EOF'
import glob, json, statistics, sys
rows, cols = {}, set()
for path in sorted(glob.glob(sys.argv[1] + "/*/*.json")):
    for b in json.load(open(path))["benchmarks"]:
        if b.get("run_type") != "iteration" or not b.get("verified"):
            continue
        parts = b["name"].split("/")
        col = parts[1] + "".join("/" + p.split(":")[1] for p in parts if p.startswith("design:"))
        rows.setdefault(parts[4], {}).setdefault(col, []).append(b["real_time"])
        cols.add(col)
cols = sorted(cols)
print("file      " + "".join(f"{c:>14}" for c in cols) + "  (ms; CPU: median of 5 runs)")
total = {c: 0.0 for c in cols}
for f, r in sorted(rows.items()):
    line = f"{f:<10}"
    for c in cols:
        v = statistics.median(r[c]) if c in r else float("nan")
        total[c] += v
        line += f"{v:14.3f}"
    print(line)
print(f"{'TOTAL':<10}" + "".join(f"{total[c]:14.3f}" for c in cols))
for c in cols:
    if c != "cpu" and "cpu" in total:
        print(f"cpu / {c}: {total['cpu'] / total[c]:.2f}x")
EOF
