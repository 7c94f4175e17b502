#!/usr/bin/env bash
# A device call for iterating on the LZ77 GPU decoders (issue 14): HEAD (.carry/head, which
# `make_carry.sh --head-only` snapshots) and the working tree, both built Release at once; the
# kernel-only cells of both (cold L2, Silesia's files, chunk-parallel and jump decode) one build
# after the other; then the tree's GPU LZ77 tests, memcheck on the decoding tests and racecheck,
# and a table of both versions last. Session 32 ran it as it stands (bench/results/h100/
# session32-lz77-decode); about 440 s on a fresh H100, within one call.
# From the repository root, with .carry/prefix, .carry/corpora and .carry/head carried:
#   bash bench/device/iterate_lz77_decode.sh
# Everything it writes is under $OUT/logs and archived as $OUT/lz77-decode.tgz after each step
# (the device tool returns at most 8 files).
OUT_FINAL=${OUT:-/tmp/out}
source "$(dirname "$0")/common.sh" lz77-decode
OUT=$OUT_FINAL/logs
mkdir -p "$OUT"
start=$SECONDS
save() { tar czf "$OUT_FINAL/lz77-decode.tgz" -C "$OUT_FINAL" logs; }
chunk=(--corpus silesia --codecs lz77 --direction decompress --design warp --window-scope chunk)
jump=(--corpus silesia --codecs lz77 --direction decompress --design warp --window-scope block
  --decode-mode jump --work-items 1024)
cmake_options=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA20_STANDARD_COMPILE_OPTION=-std=c++20
  -DCMAKE_CUDA20_EXTENSION_COMPILE_OPTION=-std=c++20)
build /tmp/b-tree . gcbench gpu_lz77_gpu_test
(OUT=$OUT/head-build; mkdir -p $OUT; build /tmp/b-head .carry/head gcbench) &
echo "tree built at $((SECONDS-start)) s"
cells() {  # version binary
  for cell in chunk jump; do
    local -n a=$cell
    rm -rf /tmp/c-$1-$cell
    timeout 60 "$2" --device gpu --timing kernel --cold-l2 --no-progress --out-dir /tmp/c-$1-$cell \
      --benchmark_out="$OUT/$1-$cell.json" "${a[@]}" > "$OUT/$1-$cell.log" 2>&1
    echo "$1 $cell rc=$? at $((SECONDS-start)) s"
  done
}
wait  # the head build, so that it does not share the machine with the timed cells
echo "head built at $((SECONDS-start)) s"
cells tree /tmp/b-tree/bench/driver/gcbench
cells head /tmp/b-head/bench/driver/gcbench
save
T=/tmp/b-tree/tests/gpu_lz77_gpu_test
timeout 200 $T > "$OUT/lz77-test.log" 2>&1
echo "lz77 tests rc=$? at $((SECONDS-start)) s: $(grep -E '^\[  (PASSED|FAILED)' "$OUT/lz77-test.log" | tr '\n' ' ')"
save
f='Lz77Gpu.SmallAllPaths:Lz77Gpu.HostileContainersRejected:Lz77Gpu.DeviceFindsOffsetBeforeWindow:Lz77Gpu.JumpResolvesLongChains:Lz77Gpu.ChunkDecodeNeedsChunkScope'
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 99 $T --gtest_filter="$f" > "$OUT/memcheck.log" 2>&1
echo "memcheck rc=$? at $((SECONDS-start)) s: $(grep -E 'ERROR SUMMARY|^\[  (PASSED|FAILED)' "$OUT/memcheck.log" | tr '\n' ' ')"
save
timeout 90 compute-sanitizer --tool racecheck --error-exitcode 99 $T --gtest_filter='Lz77Gpu.SmallAllPaths:Lz77Gpu.JumpResolvesLongChains' > "$OUT/racecheck.log" 2>&1
echo "racecheck rc=$? at $((SECONDS-start)) s: $(grep -E 'RACECHECK SUMMARY|^\[  (PASSED|FAILED)' "$OUT/racecheck.log" | tr '\n' ' ')"
save
python3 - "$OUT" <<'PY'
import json, sys, os
d = sys.argv[1]
cols = {}
for name in ["head-chunk", "tree-chunk", "head-jump", "tree-jump"]:
    p = f"{d}/{name}.json"
    if not os.path.exists(p): continue
    for b in json.load(open(p))["benchmarks"]:
        if "kernel_gbps" not in b: continue
        f = b["name"].split("/")[4]
        cols.setdefault(name, {})[f] = (b["kernel_gbps"], b["input_bytes"], b["kernel_s"])
names = list(cols)
print(f"{'file':10}" + "".join(f"{n:>12}" for n in names))
for f in sorted({f for c in cols.values() for f in c}):
    print(f"{f:10}" + "".join(f"{cols[n].get(f, (0,))[0]:12.1f}" for n in names))
print(f"{'total':10}" + "".join(f"{sum(v[1] for v in cols[n].values()) / sum(v[2] for v in cols[n].values()) / 1e9:12.1f}" for n in names))
print(f"{'mean':10}" + "".join(f"{sum(v[0] for v in cols[n].values()) / len(cols[n]):12.1f}" for n in names))
PY
