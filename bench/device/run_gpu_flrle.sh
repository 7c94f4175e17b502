#!/usr/bin/env bash
# One device run for issue 3 (GPU FL and RLE): build, the GPU tests, compute-sanitizer memcheck
# and racecheck on the GPU test binaries (synthetic cases only, run beside the tests), then the
# kernel benchmark alone on the GPU. Full logs land in $OUT; a short summary is printed last.
# From the repository root, with .carry/prefix and .carry/corpora carried:
#   bash bench/device/run_gpu_flrle.sh
set -uo pipefail
OUT=${OUT:-$PWD/out-flrle}
BUILD=${BUILD:-build-device}
mkdir -p "$OUT"
export GCBENCH_CORPUS_MIRROR=$PWD/.carry/corpora
export GCBENCH_CORPUS_CACHE=/tmp/gcbench-corpus-cache
step() { echo "== $1 ($(date +%T))"; }

nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv \
  > "$OUT/gpu.txt" 2>&1

step build
# CMake 3.25 does not know nvcc 13's C++20 flag; name it.
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_PREFIX_PATH="$PWD/.carry/prefix" \
  -DCMAKE_CUDA20_STANDARD_COMPILE_OPTION=-std=c++20 \
  -DCMAKE_CUDA20_EXTENSION_COMPILE_OPTION=-std=c++20 > "$OUT/build.log" 2>&1
if ! cmake --build "$BUILD" --target gpu_fl_gpu_test gpu_rle_gpu_test gcbench-gpu-kernels -j16 \
  >> "$OUT/build.log" 2>&1; then
  grep -E "error|FAILED" -A5 "$OUT/build.log" | head -80
  exit 1
fi
T=$BUILD/tests

step "tests and sanitizers"
(cd "$BUILD" && timeout 200 ctest -L gpu -R '^(Fl|Rle)Gpu' --output-on-failure -j4) \
  > "$OUT/ctest.log" 2>&1 &
sanitize() {  # tool binary log gtest-filter
  timeout 200 compute-sanitizer --tool "$1" --error-exitcode 99 "$2" --gtest_filter="$4" \
    > "$OUT/$3" 2>&1
  echo $? > "$OUT/$3.rc"
}
sanitize memcheck "$T/gpu_fl_gpu_test" memcheck_fl.log '-*Corpora*:*LargerThanOneGiB*' &
sanitize memcheck "$T/gpu_rle_gpu_test" memcheck_rle.log '-*Corpora*:*LargerThanOneGiB*' &
sanitize racecheck "$T/gpu_fl_gpu_test" racecheck_fl.log '*MixedWidths*:*SyntheticSmallInts*' &
sanitize racecheck "$T/gpu_rle_gpu_test" racecheck_rle.log '*LongRuns*:*CubChunk*:*BadCounts*' &
wait

step benchmark
timeout 180 "$BUILD/bench/gcbench-gpu-kernels" --benchmark_out="$OUT/bench.json" \
  --benchmark_out_format=json > "$OUT/bench.log" 2>&1
echo $? > "$OUT/bench.rc"

step summary
cat "$OUT/gpu.txt"
grep -E "tests passed|tests failed|Total Test time|\(Failed\)|\(Timeout\)|Not Run" "$OUT/ctest.log"
for s in memcheck_fl memcheck_rle racecheck_fl racecheck_rle; do
  echo "$s: rc=$(cat "$OUT/$s.log.rc") $(grep -E '(ERROR|RACECHECK) SUMMARY' "$OUT/$s.log" | tail -1)" \
    "$(grep -E '^\[  (PASSED|FAILED) ' "$OUT/$s.log" | tr '\n' ' ')"
done
echo "benchmark rc=$(cat "$OUT/bench.rc")"
grep -E "ERROR|error" "$OUT/bench.log" | head -5
sed -n '/^path (1 GiB/,$p' "$OUT/bench.log"
