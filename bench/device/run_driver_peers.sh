#!/usr/bin/env bash
# One device call for the driver and the peers (issues 5 and 6): builds everything with
# nvCOMP, runs the nvCOMP GPU tests and memcheck on them, then the gcbench driver on the
# mirrored Silesia files with GPU and CPU cells side by side, and prints the report's summary.
# Usage (repository root, carry [".carry"]): bash bench/device/run_driver_peers.sh [SRC]
# SRC: source tree to build (default .); logs and results go to $OUT.
source "$(dirname "$0")/common.sh" driver
src=${1:-.}
B=/tmp/build-driver-device

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
step build
cmake_options=(-DGCBENCH_NVCOMP_ROOT="$nvcomp_root")
build $B "$src" gcbench gcbench-report gpu_nvcomp_gpu_test
grep "gcbench:" "$OUT/build.log"

step "nvCOMP GPU tests"
timeout 120 $B/tests/gpu_nvcomp_gpu_test >"$OUT/nvcomp_test.log" 2>&1
tail -3 "$OUT/nvcomp_test.log"
step "memcheck (nvCOMP edge sizes)"
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tests/gpu_nvcomp_gpu_test \
  --gtest_filter='*EdgeSizes*' >"$OUT/nvcomp_memcheck.log" 2>&1
echo "memcheck rc=$?: $(grep -E 'ERROR SUMMARY' "$OUT/nvcomp_memcheck.log" | tail -1)"

step "driver: Silesia, GPU and CPU side by side"
R=$OUT/results
corpus=${CORPUS:-silesia}  # CORPUS=concat:silesia: the whole corpus as one input
common=(--corpus "$corpus" --out-dir "$R" --no-progress --gpu-iterations 3)
timeout 240 $B/bench/driver/gcbench "${common[@]}" \
  --codecs lz77,fl,rle,rle-cub,zlib,nvcomp-lz4,nvcomp-snappy,nvcomp-cascaded,nvcomp-deflate,nvcomp-zstd \
  --finder hash --design thread,block,warp --work-items 1024 --element-width 1 --frame-size 1024 \
  --threads 0,1 --level 6 >"$OUT/driver_main.log" 2>&1
echo "driver rc=$?"
# The CPU peers at the levels people use; the slowest (zstd -19) last, so that a timeout
# loses only its own cells.
# Each with one thread and on every core (zstd: its own workers; libdeflate, lz4: 1 MiB chunks).
for peer in "libdeflate 1,6,12 0,1" "lz4 0,9 0,1" "zstd 1,3 0,1" "zstd 19 0,1"; do
  set -- $peer
  grep -q "peer $1 ON" "$OUT/build.log" || { echo "driver ($1): not built"; continue; }
  limit=45
  [[ $1 == libdeflate ]] && limit=100  # level 12 on one thread is the slowest peer
  [[ $2 == 19 ]] && limit=120
  threads=()
  [[ $# -ge 3 ]] && threads=(--threads "$3")
  timeout $limit $B/bench/driver/gcbench "${common[@]}" --codecs "$1" --level "$2" \
    "${threads[@]}" >>"$OUT/driver_peers.log" 2>&1
  echo "driver ($1 levels $2 ${3:+threads $3}) rc=$?"
done
$B/reports/gcbench-report --out "$OUT/report" --print-summary "$R" >"$OUT/report.log" 2>&1
cat "$OUT"/report/*/variants.md >"$OUT/variants.md"
tar -C "$OUT" -czf "$OUT/results.tgz" results report && rm -rf "$R" "$OUT/report"
step done
tail -14 "$OUT/report.log"
cat "$OUT/variants.md"
