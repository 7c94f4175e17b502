#!/usr/bin/env bash
# `--preset kernels` on a device machine (issue 14): a Release build with nvCOMP (the Cascaded and
# LZ4 peers), then bench/run_suite.sh --preset kernels --cold-l2, merged into kernels.json, with the
# report's kernels tables and plots and every result file in one archive. A call cut off by LIMIT
# (seconds the preset may run, default 540) keeps its cells, and the same call again runs the rest
# (RESUME=1: no --fresh). BUILD_ONLY=1 builds alone (a first call; BUILD is kept on a warm machine).
# Usage (repository root, .carry carried): bash bench/device/run_kernels.sh
OUT=${OUT:-$PWD/out-kernels}
source "$(dirname "$0")/common.sh" kernels
BUILD=${BUILD:-build-device}
results=/tmp/kernels-results

step build
cmake_options=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA20_STANDARD_COMPILE_OPTION=-std=c++20
  -DCMAKE_CUDA20_EXTENSION_COMPILE_OPTION=-std=c++20 -DGCBENCH_NVCOMP_ROOT="$nvcomp_root")
build "$BUILD" . gcbench gcbench-report
grep "gcbench:" "$OUT/build.log"
[[ ${BUILD_ONLY:-0} == 1 ]] && exit 0

step "preset kernels"
start=$SECONDS
fresh=--fresh
[[ ${RESUME:-0} == 1 ]] && fresh=
timeout "${LIMIT:-540}" bash bench/run_suite.sh --build "$BUILD" --preset kernels --cold-l2 \
  --out "$results" $fresh --no-download --benchmark_out="$OUT/kernels.json" \
  > "$OUT/kernels.log" 2>&1
echo "exit status: $?" >> "$OUT/kernels.log"
echo "preset kernels wall: $((SECONDS - start)) s"
grep -E "preset kernels|cold-l2|harness share|peak RSS|run_suite finished|exit status" "$OUT/kernels.log"
# Cut off by LIMIT: the merged results and the report of the cells recorded so far.
[[ -f $OUT/kernels.json ]] ||
  "$BUILD/bench/driver/gcbench" --export "$results" --benchmark_out="$OUT/kernels.json" >> "$OUT/kernels.log" 2>&1
[[ -f $results/report/report.md ]] ||
  "$BUILD/reports/gcbench-report" --out "$results/report" "$results" >> "$OUT/kernels.log" 2>&1
cp "$results/report/report.md" "$OUT/" 2>/dev/null
for corpus in synthetic silesia silesia-concat; do
  cp "$results/report/$corpus/kernels.md" "$OUT/$corpus-kernels.md" 2>/dev/null
  cp "$results/report/$corpus/plots/kernel_throughput_vs_"*.png "$OUT/" 2>/dev/null
done
tar -czf "$OUT/kernels-results.tar.gz" -C "$results" . 2>/dev/null
