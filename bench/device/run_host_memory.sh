#!/usr/bin/env bash
# The kernels preset's largest host-memory cells (issue 49's bound: 3 x the largest input +
# 1 GiB): RLE and rle-cub on 1 GiB of runs of length 1 at width 4 (containers of 2 GiB),
# kernel-only: each codec and direction in a run of its own, then all four in one run with its
# resident set sampled twenty times a second beside the console's last line (rss.trace), and the peak
# RSS the driver reports for each.
# Usage (repository root, .carry carried): bash bench/device/run_host_memory.sh
OUT=${OUT:-$PWD/out-host-memory}
source "$(dirname "$0")/common.sh" host-memory
BUILD=${BUILD:-build-device}

step build
build_release_with_nvcomp "$BUILD" gcbench

gcbench() {  # name, then gcbench arguments: the run's log in $OUT/name.log, its peak RSS printed
  local name=$1
  shift
  "$BUILD/bench/driver/gcbench" --device gpu --timing kernel --corpus synthetic:runs-geo1:1GiB:4 \
    --element-width 4 --no-progress --benchmark_out="$OUT/$name.json" "$@" >"$OUT/$name.log" 2>&1 &
  local pid=$!
  while kill -0 $pid 2>/dev/null; do
    echo "$(grep -s VmRSS /proc/$pid/status | tr -s ' \t' ' ') | $(tail -n 1 "$OUT/$name.log")"
    sleep 0.05
  done >"$OUT/$name.rss.trace"
  wait $pid
  echo "$name: exit status $?; $(grep -h 'peak RSS' "$OUT/$name.log")"
}
step "each cell alone"
for codec in rle rle-cub; do
  for direction in compress decompress; do
    gcbench "$codec-$direction" --codecs "$codec" --direction "$direction"
  done
done
step "all four in one run"
gcbench all --codecs rle,rle-cub
sort -t' ' -k2 -n "$OUT/all.rss.trace" | tail -n 3
