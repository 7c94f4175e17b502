#!/usr/bin/env bash
# A device call for iterating on the FL and RLE kernels (issue 14): a Release build with nvCOMP, the
# GPU tests TEST_FILTER picks (a ctest -R regex), memcheck on the codecs' and the device API's GPU
# tests, then kernel-only cells (cold L2) on 1 GiB synthetic inputs, as a table. Default cells: FL,
# RLE and rle-cub at width 4 on small integers and runs of 8, beside a device copy. BUILD keeps the
# build on a warm machine; SKIP_TESTS=1 leaves the tests out.
# Usage (repository root, .carry carried): bash bench/device/iterate_kernels.sh [gcbench args...]
OUT=${OUT:-$PWD/out-iterate}
source "$(dirname "$0")/common.sh" iterate-kernels
BUILD=${BUILD:-/tmp/build-iterate-kernels}

step build
build_release_with_nvcomp "$BUILD" all
T=$BUILD/tests

if [[ -z ${SKIP_TESTS:-} ]]; then
  step "tests and memcheck"
  (cd "$BUILD" && timeout 300 ctest -L gpu -R "${TEST_FILTER:-fl|rle|device_api}" \
    --output-on-failure -j4) >"$OUT/ctest.log" 2>&1 &
  for t in gpu_fl_gpu_test gpu_rle_gpu_test gpu_copy_bytes_gpu_test "gpu_device_api_test:*EdgeCases*:*Damaged*:*Planned*"; do
    binary=${t%%:*} filter='*'
    [[ $t == *:* ]] && filter=${t#*:}
    echo "== $binary --gtest_filter=$filter" >>"$OUT/memcheck.log"
    timeout 240 compute-sanitizer --tool memcheck --error-exitcode 99 "$T/$binary" \
      --gtest_filter="$filter" >>"$OUT/memcheck.log" 2>&1
    echo "exit status: $?" >>"$OUT/memcheck.log"
  done
  wait
  grep -E "tests passed|tests failed|\(Failed\)|\(Timeout\)" "$OUT/ctest.log"
  echo "memcheck: $(grep -E 'ERROR SUMMARY|^exit status' "$OUT/memcheck.log" | tr '\n' ' ')"
fi

step "kernel-only cells"
args=("$@")
[[ ${#args[@]} == 0 ]] && args=(--corpus synthetic:small_ints:1GiB:4,synthetic:runs-geo8:1GiB:4
  --codecs fl,rle,rle-cub --element-width 4 --frame-size 1024 --decode scan,flood)
timeout 300 "$BUILD/bench/driver/gcbench" --device gpu --timing kernel --cold-l2 --no-progress \
  --out-dir "$OUT/results" --benchmark_out="$OUT/kernels.json" "${args[@]}" >"$OUT/driver.log" 2>&1
echo "driver exit status: $?"
python3 - "$OUT/kernels.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(f"copy {d['context'].get('copy_gbps')} GB/s, git {d['context'].get('git_revision')}")
for b in d["benchmarks"]:
    if b.get("error_occurred"):
        print(b["name"][:72], "ERROR", b.get("error_message", "")[:100])
    elif "kernel_gbps" in b:
        print(f"{b['name'][:72]:72} {b['kernel_gbps']:8.1f} GB/s {b.get('pct_copy', 0):6.1f}%")
PY
