#!/usr/bin/env bash
# `--preset thesis` on a device machine (issue 13: every present corpus within 10 minutes on one
# H100, verification included): a build as run_main_job.sh does, then bench/run_suite.sh --preset
# thesis, timed; brings back the log, the report, Silesia's and Calgary's T5 and T7, one Calgary
# result file (the report tests' fixture), and every result file in one archive. LIMIT: seconds the
# preset may run (default 550, so the call with its build fits the device tool's 600 s).
# Usage (repository root, .carry carried): bash bench/device/run_thesis.sh
OUT=${OUT:-$PWD/out-thesis}
source "$(dirname "$0")/common.sh" thesis
BUILD=${BUILD:-build-device}
results=/tmp/thesis-results

step build
build_release "$BUILD" gcbench gcbench-report

step "preset thesis"
start=$SECONDS
timeout "${LIMIT:-550}" bash bench/run_suite.sh --build "$BUILD" --preset thesis --out "$results" \
  --fresh --no-download > "$OUT/thesis.log" 2>&1
echo "exit status: $?" >> "$OUT/thesis.log"
echo "preset thesis wall: $((SECONDS - start)) s"
grep -E "preset thesis|harness share|peak RSS|^\[gcbench\] lz77/gpu|run_suite finished|exit status" "$OUT/thesis.log"
# Cut off by LIMIT: the report of the cells recorded so far.
[[ -f $results/report/report.md ]] ||
  "$BUILD/reports/gcbench-report" --out "$results/report" "$results" >> "$OUT/thesis.log" 2>&1
cp "$results/report/report.md" "$OUT/" 2>/dev/null
for corpus in silesia calgary; do
  for table in lz77_t5 lz77_t7; do
    cp "$results/report/$corpus/$table.md" "$OUT/$corpus-$table.md" 2>/dev/null
  done
done
cp "$results/calgary/paper5.json" "$OUT/calgary-paper5.json" 2>/dev/null
tar -czf "$OUT/thesis-results.tar.gz" -C "$results" . 2>/dev/null
