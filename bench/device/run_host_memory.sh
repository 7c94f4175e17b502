#!/usr/bin/env bash
# The kernels preset's largest host-memory cells (issue 49's bound: 3 x the largest input +
# 1 GiB): RLE and rle-cub on 1 GiB of runs of length 1 at width 4 (containers of 2 GiB),
# kernel-only: each codec and direction in a run of its own, then all four in one run with its
# resident set sampled twenty times a second beside the console's last line (rss.trace), and the peak
# RSS the driver reports for each; then the kernels preset on its 1 GiB synthetic inputs (every
# step that runs on them, nvCOMP's where it is carried), cold L2, as its full run takes them.
# Usage (repository root, .carry carried): bash bench/device/run_host_memory.sh [preset]
# (preset: the preset's run alone)
OUT=${OUT:-$PWD/out-host-memory}
source "$(dirname "$0")/common.sh" host-memory
BUILD=${BUILD:-build-device}

step build
build_release_with_nvcomp "$BUILD" gcbench

gcbench() {  # name, then gcbench arguments: the run's log in $OUT/name.log, its peak RSS printed
  local name=$1
  shift
  "$BUILD/bench/driver/gcbench" --no-progress --benchmark_out="$OUT/$name.json" "$@" \
    >"$OUT/$name.log" 2>&1 &
  local pid=$!
  while kill -0 $pid 2>/dev/null; do
    echo "$(grep -s VmRSS /proc/$pid/status | tr -s ' \t' ' ') | $(tail -n 1 "$OUT/$name.log")"
    sleep 0.05
  done >"$OUT/$name.rss.trace"
  wait $pid
  echo "$name: exit status $?; $(grep -h 'peak RSS' "$OUT/$name.log")"
}
runs_of_1=(--device gpu --timing kernel --corpus synthetic:runs-geo1:1GiB:4 --element-width 4)
if [[ ${1:-} != preset ]]; then
  step "each cell alone"
  for codec in rle rle-cub; do
    for direction in compress decompress; do
      gcbench "$codec-$direction" "${runs_of_1[@]}" --codecs "$codec" --direction "$direction"
    done
  done
  step "all four in one run"
  gcbench all "${runs_of_1[@]}" --codecs rle,rle-cub
  sort -t' ' -k2 -n "$OUT/all.rss.trace" | tail -n 3
fi
step "the kernels preset on its synthetic inputs"
synthetic=small_ints-1GiB-w1,small_ints-1GiB-w2,small_ints-1GiB-w4,runs-geo8-1GiB-w1,runs-geo8-1GiB-w2
for mean in 1 2 8 64 4096; do synthetic+=,runs-geo$mean-1GiB-w4; done
for mean in 2 8 64 4096; do synthetic+=,runs-uni$mean-1GiB-w4; done
gcbench preset --preset kernels --files "$synthetic" --cold-l2
grep -c '"error_occurred": true' "$OUT/preset.json"
sort -t' ' -k2 -n "$OUT/preset.rss.trace" | tail -n 1
