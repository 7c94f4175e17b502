#!/usr/bin/env bash
# A device call for iterating on the LZ77 GPU decoders (issue 14): versions.sh's head-against-tree
# kernel-only cells on Silesia's files (chunk-parallel and jump decode), the tree's GPU tests that
# decode LZ77, memcheck and racecheck; logs archived as $OUT/lz77-decode.tgz after each step (the
# device tool returns few files). CELLS=jump (or chunk): one set of cells; QUICK=1: only the LZ77
# tests that decode; NO_RACECHECK=1: no racecheck.
# Usage (repository root, .carry carried): bash bench/device/iterate_lz77_decode.sh
OUT_FINAL=${OUT:-/tmp/out}
source "$(dirname "$0")/common.sh" lz77-decode
OUT=$OUT_FINAL/logs
mkdir -p "$OUT"
start=$SECONDS
save() { tar czf "$OUT_FINAL/lz77-decode.tgz" -C "$OUT_FINAL" logs; }
elapsed() { echo "at $((SECONDS - start)) s"; }
tree=/tmp/build-versions-tree
tests=(gpu_lz77_gpu_test gpu_registry_gpu_test gpu_device_api_test)
f=Lz77Gpu.SmallAllPaths:Lz77Gpu.HostileContainersRejected:Lz77Gpu.DeviceFindsOffsetBeforeWindow
f+=:Lz77Gpu.JumpResolvesLongChains:Lz77Gpu.ChunkDecodeNeedsChunkScope
filter='*'
[[ -n ${QUICK:-} ]] && tests=(gpu_lz77_gpu_test) filter=$f
cells=(--corpus silesia --codecs lz77 --direction decompress --design warp --work-items 1024)
for set in ${CELLS:-chunk jump}; do
  scope=(--window-scope chunk)
  [[ $set == jump ]] && scope=(--window-scope block --decode-mode jump)
  OUT=$OUT/$set BUILD_TREE=$tree TREE_TARGETS="${tests[*]}" bash bench/device/versions.sh \
    "${cells[@]}" "${scope[@]}" | tail -n 10
done
elapsed
save
for t in "${tests[@]}"; do
  timeout 240 "$tree/tests/$t" --gtest_filter="$filter" >"$OUT/$t.log" 2>&1
  echo "$t rc=$? $(elapsed): $(grep -E '^\[  (PASSED|FAILED)' "$OUT/$t.log" | tr '\n' ' ')"
  save
done
T=$tree/tests/gpu_lz77_gpu_test
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 99 "$T" --gtest_filter="$f" \
  >"$OUT/memcheck.log" 2>&1
echo "memcheck rc=$? $(elapsed): $(grep -E 'ERROR SUMMARY|^\[  (PASSED|FAILED)' \
  "$OUT/memcheck.log" | tr '\n' ' ')"
save
[[ -n ${NO_RACECHECK:-} ]] && exit 0
timeout 90 compute-sanitizer --tool racecheck --error-exitcode 99 "$T" \
  --gtest_filter='Lz77Gpu.SmallAllPaths:Lz77Gpu.JumpResolvesLongChains' >"$OUT/racecheck.log" 2>&1
echo "racecheck rc=$? $(elapsed): $(grep -E 'RACECHECK SUMMARY|^\[  (PASSED|FAILED)' \
  "$OUT/racecheck.log" | tr '\n' ' ')"
save
