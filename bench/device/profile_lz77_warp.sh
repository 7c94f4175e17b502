#!/usr/bin/env bash
# Nsight Compute profile of the LZ77 warp-design compression kernel on chosen Silesia files:
# the details page (occupancy, issue, stall reasons) and the per-source-line stall samples.
# Usage (carry [".carry"]): FILES=ooffice,nci bash bench/device/profile_lz77_warp.sh [SRC]
source "$(dirname "$0")/common.sh" profile
src=${1:-.}
files=${FILES:-ooffice,nci}
B=/tmp/build-profile

step build
cmake_options=(-DCMAKE_CUDA_FLAGS=-lineinfo)
build $B "$src" gcbench

for f in ${files//,/ }; do
  step "profile $f"
  timeout 200 ncu --clock-control none --kernel-name regex:warp_design_kernel --launch-count 1 \
    --set full --import-source yes -f -o "$OUT/warp_$f" \
    $B/bench/driver/gcbench --corpus silesia --files "$f" --codecs lz77 --device gpu \
    --design warp --finder hash --direction compress --gpu-iterations 1 --no-progress \
    >>"$OUT/ncu.log" 2>&1
  echo "ncu rc=$?"
  rep="$OUT/warp_$f.ncu-rep"
  ncu -i "$rep" --page details >"$OUT/details_$f.txt" 2>&1
  ncu -i "$rep" --page source --csv --print-source cuda >"$OUT/source_cuda_$f.csv" 2>&1
  ncu -i "$rep" --page source --csv --print-source sass 2>&1 | gzip >"$OUT/source_sass_$f.csv.gz"
  rm -f "$rep"
  grep -E "Duration|Achieved Occupancy|Theoretical Occupancy|Executed Ipc A|Issue Slots Busy|No Eligible|Warp Cycles Per Issued|Registers Per|Dynamic Shared" \
    "$OUT/details_$f.txt"
done
