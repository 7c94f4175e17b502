#!/usr/bin/env bash
# The integer codecs on real columns (issue 43): the tpch corpus at scale factor SF (default 10),
# generated on the device by the carried tpchgen-cli, then FL, RLE, rle-cub and nvCOMP Cascaded on
# every column at its own element width, every timing, cold L2; brings back tpch.json, the logs, the
# report's tables and plots. Resumable: a call cut off by LIMIT (seconds per sweep step, default
# 420) keeps its cells. CODECS: the codecs; TIMING=kernel: device calls alone.
# Usage (repository root, .carry carried): bash bench/device/run_tpch.sh
OUT=${OUT:-$PWD/out-tpch}
source "$(dirname "$0")/common.sh" tpch
BUILD=${BUILD:-build-device}
SF=${SF:-10}
results=/tmp/tpch-results

step build
build_release_with_nvcomp "$BUILD" gcbench gcbench-report gcbench_corpus_tool ${TESTS:-}
grep "gcbench:" "$OUT/build.log"

step "tpch-sf$SF columns"
start=$SECONDS
"$BUILD/corpora/gcbench-corpus" fetch "tpch-sf$SF" > "$OUT/generate.log" 2>&1
echo "exit status $?, $((SECONDS - start)) s"
grep -c "^ok" "$OUT/generate.log"
grep -v "^ok" "$OUT/generate.log" | head -5

step "sweep"
start=$SECONDS
# RLE's flood decoder as a second step: --decode applies to every codec with that axis, and
# rle-cub's compression does not depend on it.
sweep() {
  timeout "${LIMIT:-420}" "$BUILD/bench/driver/gcbench" --corpus "tpch-sf$SF" --device gpu \
    --sweep defaults --cold-l2 --no-download --no-progress --out-dir "$results" "$@" \
    >> "$OUT/sweep.log" 2>&1
  echo "exit status $?"
}
sweep --codecs "${CODECS:-fl,rle,rle-cub,nvcomp-cascaded,nvcomp-bitcomp}" ${TIMING:+--timing $TIMING}
sweep --codecs rle --decode flood --direction decompress
echo "$((SECONDS - start)) s"
grep -E "harness share|peak RSS|cells already|measured again|error" "$OUT/sweep.log" | head -20
"$BUILD/bench/driver/gcbench" --export "$results" --benchmark_out="$OUT/tpch.json" \
  >> "$OUT/sweep.log" 2>&1
"$BUILD/reports/gcbench-report" --out "$results/report" "$results" > "$OUT/report.log" 2>&1
for f in columns.md columns.csv kernels.md gpu_e2e.md; do
  cp "$results/report/tpch-sf$SF/$f" "$OUT/" 2>/dev/null
done
cp "$results/report/tpch-sf$SF/plots/columns_ratio_vs_throughput_"*.png "$OUT/" 2>/dev/null
ls "$OUT"
