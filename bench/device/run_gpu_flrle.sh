#!/usr/bin/env bash
# One device run for issue 3 (GPU FL and RLE): build, the GPU tests, compute-sanitizer memcheck
# and racecheck on the GPU test binaries (synthetic cases only, run beside the tests), then the
# kernel benchmark alone on the GPU, and Nsight Compute's speed-of-light numbers for the first
# launches of five paths. Full logs land in $OUT (at most 8 files come back from the device
# machine); a short summary is printed last.
# From the repository root, with .carry/prefix and .carry/corpora carried:
#   bash bench/device/run_gpu_flrle.sh
OUT=${OUT:-$PWD/out-flrle}
source "$(dirname "$0")/common.sh" flrle
BUILD=${BUILD:-build-device}

step build
# CMake 3.25 does not know nvcc 13's C++20 flag; name it.
cmake_options=(-DCMAKE_CUDA20_STANDARD_COMPILE_OPTION=-std=c++20
  -DCMAKE_CUDA20_EXTENSION_COMPILE_OPTION=-std=c++20)
build "$BUILD" . gpu_fl_gpu_test gpu_rle_gpu_test gcbench-gpu-kernels
T=$BUILD/tests

step "tests and sanitizers"
(cd "$BUILD" && timeout 200 ctest -L gpu -R '^(Fl|Rle)Gpu' --output-on-failure -j4) \
  > "$OUT/ctest.log" 2>&1 &
sanitize() {  # tool binary log gtest-filter
  timeout 200 compute-sanitizer --tool "$1" --error-exitcode 99 "$2" --gtest_filter="$4" \
    > "$OUT/$3" 2>&1
  echo "exit status: $?" >> "$OUT/$3"
}
sanitize memcheck "$T/gpu_fl_gpu_test" memcheck_fl.log '-*Corpora*:*LargerThanOneGiB*' &
sanitize memcheck "$T/gpu_rle_gpu_test" memcheck_rle.log '-*Corpora*:*LargerThanOneGiB*' &
sanitize racecheck "$T/gpu_fl_gpu_test" racecheck_fl.log '*MixedWidths*:*SyntheticSmallInts*' &
sanitize racecheck "$T/gpu_rle_gpu_test" racecheck_rle.log '*LongRuns*:*CubChunk*:*BadCounts*' &
wait

step benchmark
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv \
  > "$OUT/bench.log" 2>&1
timeout 180 "$BUILD/bench/gcbench-gpu-kernels" >> "$OUT/bench.log" 2>&1
echo "exit status: $?" >> "$OUT/bench.log"

step "nsight compute"
# Benchmark names carry suffixes (/min_time:..., /manual_time): match on the prefix.
for f in fl_compress fl_decompress rle_compress/mean_run:8 rle_cub_compress/mean_run:8 \
  rle_decompress_scan/mean_run:8; do
  timeout 60 ncu --clock-control none --section SpeedOfLight --launch-count 6 \
    "$BUILD/bench/gcbench-gpu-kernels" --benchmark_filter="^$f/" >> "$OUT/ncu.log" 2>&1
done

step summary
grep -E "tests passed|tests failed|Total Test time|\(Failed\)|\(Timeout\)|Not Run" "$OUT/ctest.log"
for s in memcheck_fl memcheck_rle racecheck_fl racecheck_rle; do
  echo "$s: $(grep -E '(ERROR|RACECHECK) SUMMARY|^exit status|^\[  (PASSED|FAILED) ' "$OUT/$s.log" \
    | tr '\n' ' ')"
done
grep -E "\)x\(|Duration|DRAM Throughput" "$OUT/ncu.log" | sed -E 's/\(unsigned[^)]*\)|Context.*//' \
  | cut -c1-110 | head -80
head -2 "$OUT/bench.log"
grep -E "ERROR|error|^exit status" "$OUT/bench.log" | head -5
sed -n '/^path (1 GiB/,$p' "$OUT/bench.log"
