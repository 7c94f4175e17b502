#!/usr/bin/env bash
# nvCOMP's peers end to end beside FL and RLE, after run_gpu_tests.sh in the same warm machine
# (its build folder is reused): 1 GiB synthetic integer columns, both directions, the device
# call and the pipelined path from pinned and pageable memory; prints per cell the kernel and
# end-to-end GB/s, the % of pinned H2D, the noise and the SM clock.
# Usage (repository root, .carry carried): bash bench/device/run_nvcomp_e2e.sh
OUT=${OUT:-$PWD/out-nvcomp-e2e}
source "$(dirname "$0")/common.sh" nvcomp-e2e
BUILD=${BUILD:-build-device}

step build
build_release_with_nvcomp "$BUILD" gcbench

step "end to end"
"$BUILD/bench/driver/gcbench" --codecs nvcomp-cascaded,nvcomp-lz4,nvcomp-snappy,fl,rle \
  --device gpu --corpus synthetic:small_ints:1GiB:4,synthetic:runs-uni8:1GiB:4 --element-width 4 \
  --no-progress --out-dir "$OUT/results" --benchmark_out="$OUT/e2e.json" > "$OUT/e2e.log" 2>&1
echo "exit status $?"
python3 - "$OUT/e2e.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = d["context"]
print("h2d_pinned_gbps", c.get("h2d_pinned_gbps"), "copy_gbps", c.get("copy_gbps"))
print(f'{"cell":70s} {"kernel":>8s} {"e2e":>7s} {"%H2D":>6s} {"noise":>6s} {"n":>5s} {"clock":>5s}')
for b in d["benchmarks"]:
    if b.get("run_type") != "iteration":
        continue
    if b.get("error_occurred"):
        print(f'{b["name"][:70]:70s} ERROR {b.get("error_message", "")[:120]}')
        continue
    print(f'{b["name"][:70]:70s} {b.get("kernel_gbps", 0):8.1f} {b.get("e2e_gbps", 0):7.1f} '
          f'{b.get("pct_h2d", 0):6.1f} {b.get("noise_pct", -1):6.2f} {b.get("samples", 0):5.0f} '
          f'{b.get("sm_clock_pct", -1):5.0f}')
PY
