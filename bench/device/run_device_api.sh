#!/usr/bin/env bash
# One device run for the device API and the end-to-end path (issue 12): every GPU test (TEST_FILTER:
# a ctest -R regex), memcheck and racecheck on the device API tests, then kernel-only and end-to-end
# cells on 1 GiB synthetic inputs and on Silesia as one input, with the run's ceilings (device copy,
# pinned and pageable PCIe) in the context. SKIP_TESTS=1: the benchmark only; BUILD: the build
# folder.
# Usage (repository root, .carry carried): bash bench/device/run_device_api.sh
OUT=${OUT:-$PWD/out-device-api}
source "$(dirname "$0")/common.sh" device-api
BUILD=${BUILD:-build-device}

step build
build_release_with_nvcomp "$BUILD" all
T=$BUILD/tests

if [[ -z ${SKIP_TESTS:-} ]]; then
  step "tests and sanitizers"
  (cd "$BUILD" && timeout 300 ctest -L gpu -R "${TEST_FILTER:-.}" --output-on-failure -j4) \
    > "$OUT/ctest.log" 2>&1 &
  sanitize() {  # tool log binary gtest-filter [sanitizer options]; appends to the log
    {
      echo "== $(basename "$3") --gtest_filter=$4"
      timeout 240 compute-sanitizer --tool "$1" --error-exitcode 99 "${@:5}" "$3" \
        --gtest_filter="$4" 2>&1
      echo "exit status: $?"
    } >> "$OUT/$2"
  }
  # memcheck: the device API, every registered GPU decoder fed the damaged containers of the
  # registry's suite, the codecs' own hostile-input tests, and the L2 flush.
  (
    sanitize memcheck memcheck.log "$T/gpu_device_api_test" \
      '*EdgeCases*:*Damaged*:*Planned*:*DecodeLimit*'
    sanitize memcheck memcheck.log "$T/gpu_registry_gpu_test" '*RejectsDamagedContainers*'
    for codec in rle lz77; do
      sanitize memcheck memcheck.log "$T/gpu_${codec}_gpu_test" '*Hostile*:*BadCounts*'
    done
    sanitize memcheck memcheck.log "$T/gpu_cold_l2_test" '*'
  ) &
  # Our kernels only: nvCOMP's own decoders (unsnap_kernel, inflate_kernel) report shared-memory
  # hazards inside the library, which we can neither see nor change.
  sanitize racecheck racecheck.log "$T/gpu_device_api_test" '*EdgeCases*' \
    --kernel-name-exclude kns=nvcomp &
  wait
  grep -E "tests passed|tests failed|Total Test time|\(Failed\)|\(Timeout\)|Not Run" "$OUT/ctest.log"
  for s in memcheck racecheck; do
    echo "$s: $(grep -E '(ERROR|RACECHECK) SUMMARY|^exit status|^\[  (PASSED|FAILED) ' \
      "$OUT/$s.log" | tr '\n' ' ')"
  done
fi

step "end-to-end cells"
echo "transparent huge pages: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>&1)" >> "$OUT/e2e.log"
# Each codec on the data it is made for (FL: small integers, RLE: runs), one process each, so
# that each run's peak RSS is its own; all driver output goes to e2e.log.
e2e() {  # json-name driver-args...
  echo "== gcbench $*" >> "$OUT/e2e.log"
  "$BUILD/bench/driver/gcbench" --no-progress --benchmark_out="$OUT/$1" "${@:2}" >> "$OUT/e2e.log" 2>&1
  echo "exit status: $?" >> "$OUT/e2e.log"
}
e2e e2e_fl.json --corpus synthetic:small_ints:1GiB:4 --codecs fl --device gpu --element-width 4 \
  --frame-size 1024
e2e e2e_rle.json --corpus synthetic:runs:1GiB:4 --codecs rle,rle-cub --device gpu --element-width 4
# The nvCOMP peers through the same device cells and pipeline, where nvCOMP was carried.
lz_codecs=lz77
[[ -n $nvcomp_root ]] &&
  lz_codecs+=,nvcomp-lz4,nvcomp-snappy,nvcomp-cascaded,nvcomp-deflate,nvcomp-zstd
e2e e2e_lz77.json --corpus concat:silesia --codecs $lz_codecs --device gpu --design warp \
  --finder hash --work-items 1024

step summary
python3 - "$OUT"/e2e_{fl,rle,lz77}.json <<'PY'
import json, sys
for path in sys.argv[1:]:
    try:
        d = json.load(open(path))
    except Exception as e:
        print(path, "unreadable:", e); continue
    c = d["context"]
    print({k: c.get(k) for k in ("gpu", "copy_gbps", "h2d_pinned_gbps", "d2h_pinned_gbps",
                                 "h2d_pageable_gbps", "gpu_sm_clock_mhz", "gpu_mem_clock_mhz")})
    print({k: v for k, v in c.items() if k.startswith(("nvidia_", "gpu_p", "gpu_ecc", "gpu_uuid",
                                                      "cpu_", "build_type"))})
    print(f"{'cell':64} {'kernel':>8} {'e2e':>7} {'e2e pg':>7} {'%copy':>6} {'%h2d':>6} {'rss GiB':>7}")
    for b in d["benchmarks"]:
        if b.get("error_occurred"):
            print(b["name"][:64], "ERROR", b.get("error_message", "")[:100]); continue
        g = lambda k: b.get(k, float("nan"))
        print(f"{b['name'][:64]:64} {g('kernel_gbps'):8.1f} {g('e2e_gbps'):7.1f} "
              f"{g('e2e_pageable_gbps'):7.1f} {g('pct_copy'):6.1f} {g('pct_h2d'):6.1f} "
              f"{g('peak_rss_bytes') / 2**30:7.2f}")
PY
grep -E "^== gcbench|exit status|peak RSS" "$OUT/e2e.log"
