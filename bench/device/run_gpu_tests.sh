#!/usr/bin/env bash
# After a change to GPU code: every GPU test of a build with nvCOMP, compute-sanitizer memcheck
# and racecheck on the FL, RLE and registry GPU tests, then FL, RLE and rle-cub kernel-only cells on
# 1 GiB synthetic inputs (cold L2) to set beside bench/results/<gpu>/kernels/kernels.json, rle-cub's
# with the bare cub::DeviceRunLengthEncode beside it (primitive_gbps). Without .carry/nvcomp or
# .deps/nvcomp the nvCOMP tests skip.
# Usage (repository root, .carry carried): bash bench/device/run_gpu_tests.sh
OUT=${OUT:-$PWD/out-gpu-tests}
source "$(dirname "$0")/common.sh" gpu-tests
BUILD=${BUILD:-build-device}
T=$BUILD/tests

step build
build_release_with_nvcomp "$BUILD" all

step "tests and sanitizers"
(cd "$BUILD" && timeout 300 ctest -L gpu --output-on-failure -j4) > "$OUT/ctest.log" 2>&1 &
sanitize() {  # tool binary gtest-filter: appends to $OUT/<tool>.log
  {
    echo "== $(basename "$2") --gtest_filter=$3"
    timeout 200 compute-sanitizer --tool "$1" --error-exitcode 99 "$2" --gtest_filter="$3" 2>&1
    echo "exit status: $?"
  } >> "$OUT/$1.log"
}
(
  for tool in memcheck racecheck; do
    sanitize "$tool" "$T/gpu_fl_gpu_test" '*'
    sanitize "$tool" "$T/gpu_rle_gpu_test" '*Hostile*:*BadCounts*:*Matches*:*CubReference*'
    # Our codecs only: nvCOMP's decoders report shared-memory hazards inside the library.
    sanitize "$tool" "$T/gpu_registry_gpu_test" '*RejectsDamagedContainers*:*EdgeInputs*-*nvcomp*'
  done
  # The guard that keeps damaged chunks from nvCOMP's decoders (our kernels around its calls).
  sanitize memcheck "$T/gpu_nvcomp_gpu_test" '*DamagedChunkData*:*EdgeSizes*'

) &
wait
grep -E "tests passed|tests failed|Total Test time|\(Failed\)|\(Timeout\)" "$OUT/ctest.log"
for tool in memcheck racecheck; do
  echo "$tool: $(grep -E '(ERROR|RACECHECK) SUMMARY|^exit status' "$OUT/$tool.log" | sort | uniq -c |
    tr -s ' \n' ' ')"
done

step "kernel cells"
"$BUILD/bench/driver/gcbench" --codecs fl,rle,rle-cub --device gpu --timing kernel --cold-l2 \
  --corpus synthetic:small_ints:1GiB:4,synthetic:runs-geo8:1GiB:4,synthetic:runs-uni8:1GiB:4 \
  --element-width 4 \
  --no-progress --benchmark_out="$OUT/kernels.json" > "$OUT/kernels.log" 2>&1
echo "exit status $?"
python3 - "$OUT/kernels.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print("copy_gbps", d["context"].get("copy_gbps"))
for b in d["benchmarks"]:
    if b.get("run_type") == "iteration" and "kernel_gbps" in b:
        bare = f' bare primitive {b["primitive_gbps"]:8.1f} GB/s' if "primitive_gbps" in b else ""
        noise = f' noise {b["noise_pct"]:5.2f}% of {b["samples"]:.0f} samples' if "noise_pct" in b else ""
        clock = f' SM clock {b["sm_clock_pct"]:.0f}%' if "sm_clock_pct" in b else ""
        print(f'{b["name"][:80]:80s} {b["kernel_gbps"]:8.1f} GB/s{bare}{noise}{clock}')
PY
