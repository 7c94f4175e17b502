#!/usr/bin/env bash
# A typed array's report as a reader sees it: an int16 .npy column measured by fl, rle and zlib
# on the CPU, then its report, whose summary must give fl's and rle's figures and whose
# report.html, opened in headless Chromium, must show them in the headline.
# Usage: typed_report.sh GCBENCH GCBENCH_REPORT SCRATCH_DIR
set -euo pipefail
gcbench=$1 report=$2 scratch=$3
rm -rf "$scratch" && mkdir -p "$scratch/columns"
# NumPy's format 1.0 by hand (CI has no NumPy): the magic, the header padded to 128 bytes, the
# little-endian int16 values of a sensor-like column.
python3 - "$scratch/columns/readings.npy" <<'PY'
import struct, sys
n = 500_000
header = "{'descr': '<i2', 'fortran_order': False, 'shape': (%d,), }" % n
header = header.ljust(128 - 10 - 1) + "\n"
values = struct.pack(f"<{n}h", *((i // 40) % 1000 - 500 for i in range(n)))
open(sys.argv[1], "wb").write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) +
                              header.encode() + values)
PY
"$gcbench" --codecs fl,rle,zlib --device cpu --sweep defaults --no-progress --max-time 0.02 \
  --out-dir "$scratch/results" "$scratch/columns" >"$scratch/gcbench.log" 2>&1
"$report" --out "$scratch/report" "$scratch/results" >"$scratch/report.log" 2>&1
summary=$scratch/report/columns/summary.md
for column in "fl CPU time" "rle CPU time"; do
  if grep -q "$column.*not measured" "$summary" || ! grep -q "| $column" "$summary"; then
    echo "typed_report: $summary lacks $column's figures:" >&2
    cat "$summary" >&2
    exit 1
  fi
done
grep "readings.npy" "$summary"
python3 "$(dirname "$0")/../report_html_check.py" "$scratch/report/report.html" \
  --headline-codecs fl,rle,zlib
