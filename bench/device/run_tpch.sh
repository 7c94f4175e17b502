#!/usr/bin/env bash
# The integer codecs on real columns (issue 43): the tpch corpus at scale factor SF (default
# 10: lineitem's 60 M rows), generated on the device machine by the carried tpchgen-cli, then
# FL, RLE (both decoders), rle-cub and nvCOMP Cascaded on every column at the column's own
# element width, GPU cells with every timing (kernel and end to end) and a cold L2. Resumable:
# a call cut off by LIMIT keeps its cells, and the same call again runs the rest.
# From the repository root, with .carry/prefix, .carry/nvcomp and .carry/bin/tpchgen-cli:
#   bash bench/device/run_tpch.sh          (LIMIT: seconds each sweep step may run, default 420)
# CODECS: the codecs (default the integer ones and their nvCOMP peers), TIMING=kernel: the
# device calls alone.
# Brings back tpch.json (every cell), the logs, the report's column, kernels and end-to-end
# tables for the corpus and the column plots.
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
