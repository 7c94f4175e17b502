#!/usr/bin/env bash
# One device call for the GPU LZ77 work: build its targets, run its GPU tests, compute-sanitizer
# (memcheck, racecheck) on the small subset, then the Silesia benchmark. Full logs go to $OUT;
# the last lines printed are the summaries and the benchmark table.
# Usage (repository root, with .carry carried): bash bench/device/run_gpu_lz77.sh
source "$(dirname "$0")/common.sh" lz77gpu
B=build-lz77gpu-device

nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee "$OUT/gpu.txt"
step build
build $B . gpu_lz77_gpu_test gcbench-lz77-gpu

step "ctest -L gpu -R Lz77Gpu"
(cd $B && timeout 210 ctest -L gpu -R Lz77Gpu --output-on-failure --timeout 200 -j4) \
  >"$OUT/ctest.log" 2>&1
ctest_rc=$?

step benchmark
timeout 150 $B/bench/gcbench-lz77-gpu --benchmark_out="$OUT/bench.json" \
  --benchmark_out_format=json >"$OUT/bench.log" 2>&1
bench_rc=$?

SUBSET='Lz77Gpu.SmallAllPaths:Lz77Gpu.DeviceFindsOffsetBeforeWindow:Lz77Gpu.ChunkDecodeNeedsChunkScope'
SUBSET+=':Lz77Gpu.JumpResolvesLongChains:Lz77Gpu.WarpDesignRejectsZ:Lz77Gpu.HostileContainersRejected'
step "compute-sanitizer memcheck"
timeout 70 compute-sanitizer --tool memcheck --error-exitcode 9 \
  $B/tests/gpu_lz77_gpu_test --gtest_filter="$SUBSET" >"$OUT/memcheck.log" 2>&1
memcheck_rc=$?
step "compute-sanitizer racecheck"
timeout 50 compute-sanitizer --tool racecheck --error-exitcode 9 \
  $B/tests/gpu_lz77_gpu_test --gtest_filter="Lz77Gpu.SmallAllPaths" >"$OUT/racecheck.log" 2>&1
racecheck_rc=$?

echo "---- ctest (rc $ctest_rc)"
grep -E "tests passed|Failed|Passed|\*\*\*" "$OUT/ctest.log" | tail -25
echo "---- memcheck (rc $memcheck_rc)"
grep -E "ERROR SUMMARY|PASSED|FAILED" "$OUT/memcheck.log" | tail -5
echo "---- racecheck (rc $racecheck_rc)"
grep -E "RACECHECK SUMMARY|ERROR SUMMARY|PASSED|FAILED" "$OUT/racecheck.log" | tail -5
echo "---- benchmark (rc $bench_rc)"
grep -v -E "^\S+/\S+ +[0-9.]+ ms" "$OUT/bench.log" | tail -30
