#!/usr/bin/env bash
# Why nvCOMP LZ4 decompresses end to end at a smaller share of pinned H2D than Cascaded and
# Snappy (issue 45): the peers' decompression end to end over pipeline chunks of 32 MiB (the
# default), 128 MiB and 512 MiB, and their kernels alone on one 32 MiB chunk's worth of input
# beside 1 GiB. 1 GiB synthetic columns of runs (uniform, mean 8), width 4.
# Usage (repository root, .carry with nvCOMP carried): bash bench/device/run_nvcomp_chunks.sh
OUT=${OUT:-$PWD/out-nvcomp-chunks}
source "$(dirname "$0")/common.sh" nvcomp-chunks
BUILD=${BUILD:-build-device}

step build
build_release_with_nvcomp "$BUILD" gcbench

run() {  # name, then gcbench arguments
  local name=$1
  shift
  "$BUILD/bench/driver/gcbench" --codecs nvcomp-lz4,nvcomp-snappy --device gpu --direction decompress \
    --no-progress --benchmark_out="$OUT/$name.json" "$@" > "$OUT/$name.log" 2>&1
  echo "$name: exit status $?"
}
step "kernels on 32 MiB"
run kernel-32MiB --timing kernel --corpus synthetic:runs-uni8:32MiB:4
for chunk in 32MiB 128MiB 512MiB; do
  step "end to end, pipeline chunks of $chunk"
  run "e2e-chunk-$chunk" --pipeline-chunk "$chunk" --corpus synthetic:runs-uni8:1GiB:4
done
python3 - "$OUT" <<'PY'
import glob, json, os, sys
print(f'{"run":18s} {"codec":15s} {"kernel GB/s":>11s} {"e2e GB/s":>9s} {"% H2D":>6s}')
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    d = json.load(open(path))
    for b in d["benchmarks"]:
        if b.get("run_type") != "iteration":
            continue
        name = os.path.basename(path)[:-5]
        if b.get("error_occurred"):
            print(f'{name:18s} {b["name"].split("/")[0]:15s} ERROR {b.get("error_message", "")[:100]}')
            continue
        print(f'{name:18s} {b["name"].split("/")[0]:15s} {b.get("kernel_gbps", 0):11.1f} '
              f'{b.get("e2e_gbps", 0):9.1f} {b.get("pct_h2d", 0):6.1f}')
PY
