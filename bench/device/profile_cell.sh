#!/usr/bin/env bash
# Nsight Compute over the kernels of one driver cell (issue 14: "work from the profile"), clocks
# left as found: per kernel, duration, DRAM and SM throughput, occupancy and the top warp stalls.
# LAUNCHES: kernels profiled (default 40); SKIP: matching launches skipped first.
# Usage (repository root, .carry carried):
#   KERNELS='decode_kernel|link_kernel' bash bench/device/profile_cell.sh <driver args...>
OUT=${OUT:-$PWD/out-profile}
source "$(dirname "$0")/common.sh" profile
BUILD=${BUILD:-build-profile}

step build
build_release "$BUILD" gcbench
step "ncu: ${KERNELS:?KERNELS: a regex of kernel names}"
timeout 500 ncu --clock-control none --kernel-name "regex:$KERNELS" \
  --launch-skip "${SKIP:-0}" --launch-count "${LAUNCHES:-40}" \
  --section SpeedOfLight --section Occupancy --section LaunchStats \
  --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio" \
  --csv --page details "$BUILD/bench/driver/gcbench" --no-progress --benchmark_min_time=1x "$@" \
  > "$OUT/ncu.csv" 2> "$OUT/ncu.err"
echo "ncu exit status: $?"
python3 - "$OUT/ncu.csv" <<'PY'
import csv, sys, collections
rows = [r for r in csv.reader(l for l in open(sys.argv[1]) if l.startswith('"'))]
head, rows = rows[0], rows[1:]
col = {n: i for i, n in enumerate(head)}
per = collections.OrderedDict()
for r in rows:
    key = (r[col["ID"]], r[col["Kernel Name"]][:60])
    per.setdefault(key, {})[r[col["Metric Name"]]] = (r[col["Metric Value"]], r[col["Metric Unit"]])
want = ["Duration", "DRAM Throughput", "Compute (SM) Throughput", "Achieved Occupancy",
        "Registers Per Thread", "Grid Size", "Block Size"]
for (i, name), m in per.items():
    stalls = sorted(((float(v[0].replace(",", "")), k) for k, v in m.items()
                     if "issue_stalled" in k and v[0].replace(",", "").replace(".", "").isdigit()),
                    reverse=True)[:3]
    print(i, name, "|", ", ".join(f"{w}={m[w][0]}{m[w][1]}" for w in want if w in m),
          "|", ", ".join(f"{k.split('stalled_')[1].split('_per')[0]}={v:.1f}" for v, k in stalls))
PY
