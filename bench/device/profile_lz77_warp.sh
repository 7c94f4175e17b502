#!/usr/bin/env bash
# Nsight Compute profile of the LZ77 warp-design compression kernel on chosen Silesia files:
# the details page (occupancy, issue, stall reasons) and the per-source-line stall samples.
# Usage (carry [".carry"]): FILES=ooffice,nci bash bench/device/profile_lz77_warp.sh [SRC]
set -uo pipefail
OUT=${OUT:-/tmp/profile-out}
src=${1:-.}
root=$PWD
files=${FILES:-ooffice,nci}
mkdir -p "$OUT"
export GCBENCH_CORPUS_MIRROR=$root/.carry/corpora GCBENCH_CORPUS_CACHE=/tmp/gcbench-corpus-cache
B=/tmp/build-profile
step() { echo "== $1 ($(date +%T))"; }

step build
cmake -S "$src" -B $B -G Ninja -DCMAKE_PREFIX_PATH="$root/.carry/prefix" \
  -DCMAKE_CUDA_FLAGS=-lineinfo >"$OUT/build.log" 2>&1 &&
  cmake --build $B --target gcbench -j16 >>"$OUT/build.log" 2>&1 ||
  { grep -E "error|FAILED" -A5 "$OUT/build.log" | head -60; exit 1; }

step profile
count=$(tr ',' '\n' <<<"$files" | wc -l)
timeout 400 ncu --clock-control none --kernel-name regex:warp_design_kernel \
  --launch-count "$count" --set full --import-source yes -f -o "$OUT/warp" \
  $B/bench/driver/gcbench --corpus silesia --files "$files" --codecs lz77 --device gpu \
  --design warp --finder hash --direction compress --gpu-iterations 1 --no-progress \
  >"$OUT/ncu.log" 2>&1
echo "ncu rc=$?"
ncu -i "$OUT/warp.ncu-rep" --page details >"$OUT/details.txt" 2>&1
ncu -i "$OUT/warp.ncu-rep" --page source --csv --print-source cuda >"$OUT/source_cuda.csv" 2>&1
ncu -i "$OUT/warp.ncu-rep" --page source --csv --print-source sass >"$OUT/source_sass.csv" 2>&1
gzip -f "$OUT/source_sass.csv"
grep -E "warp_design_kernel|Duration|Achieved Occupancy|Theoretical Occupancy|Executed Ipc A|Issue Slots Busy|No Eligible|Warp Cycles Per Issued|Registers Per|Dynamic Shared" \
  "$OUT/details.txt"
