#!/usr/bin/env bash
# The closing device check after host-side refactors: every GPU test binary (LZ77's three
# slowest corpus sweeps left out), memcheck on the FL/RLE synthetic cases and the LZ77 small
# ones, then the FL/RLE kernel benchmark. Usage (carry [".carry"]):
#   bash bench/device/run_final_check.sh [SRC]
source "$(dirname "$0")/common.sh" final
src=${1:-.}
B=/tmp/build-final

nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
step build
cmake_options=(-DGCBENCH_NVCOMP_ROOT="$root/.carry/nvcomp")
build $B "$src" gpu_fl_gpu_test gpu_rle_gpu_test gpu_lz77_gpu_test gpu_nvcomp_gpu_test \
  gcbench-gpu-kernels

step "GPU tests and memcheck"
slow='Lz77Gpu.ChunkAndWorkItemShapes|Lz77Gpu.CalgaryAndCanterbury|Lz77Gpu.SyntheticThesisBothScopes'
(cd $B && timeout 260 ctest -L gpu -E "$slow" --output-on-failure -j4 --timeout 250) \
  >"$OUT/ctest.log" 2>&1 &
memcheck() {  # binary gtest-filter
  timeout 200 compute-sanitizer --tool memcheck --error-exitcode 99 "$B/tests/$1" \
    --gtest_filter="$2" >"$OUT/memcheck_$1.log" 2>&1
  echo "exit status: $?" >>"$OUT/memcheck_$1.log"
}
memcheck gpu_fl_gpu_test '-*Corpora*:*LargerThanOneGiB*' &
memcheck gpu_rle_gpu_test '-*Corpora*:*LargerThanOneGiB*' &
memcheck gpu_lz77_gpu_test '*SmallAllPaths*:*JumpResolvesLongChains*:*HostileContainersRejected*' &
wait

step benchmark
timeout 150 $B/bench/gcbench-gpu-kernels >"$OUT/bench.log" 2>&1
echo "exit status: $?" >>"$OUT/bench.log"

step summary
grep -E "tests passed|tests failed|\(Failed\)|Timeout" "$OUT/ctest.log"
for f in "$OUT"/memcheck_*.log; do
  echo "$(basename "$f"): $(grep -E 'ERROR SUMMARY' "$f" | tail -1) $(tail -1 "$f")"
done
tail -16 "$OUT/bench.log"
