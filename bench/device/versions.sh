#!/usr/bin/env bash
# Kernel-only cells of two versions side by side in one device call, so both come from one machine:
# .carry/head (`make_carry.sh --head-only`, named by its REVISION) and the working tree, each built
# Release, the same cells (cold L2) run by one build after the other, then a table of both.
# BUILD_TREE reuses a build of the tree; TREE_TARGETS adds targets to it. Default cells: FL at width
# 4.
# Usage (repository root, .carry carried): bash bench/device/versions.sh [gcbench args...]
OUT=${OUT:-$PWD/out-versions}
source "$(dirname "$0")/common.sh" versions
args=("$@")
[[ ${#args[@]} == 0 ]] && args=(--corpus synthetic:small_ints:1GiB:4 --codecs fl
  --element-width 4 --frame-size 256,1024,4096)

step "build HEAD ($(cat .carry/head/REVISION)) and the working tree"
cmake_options=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA20_STANDARD_COMPILE_OPTION=-std=c++20
  -DCMAKE_CUDA20_EXTENSION_COMPILE_OPTION=-std=c++20)
# Both at once; each logs to its own folder. The cells wait for both.
(OUT=$OUT/build-head && mkdir -p "$OUT" && build /tmp/build-versions-head .carry/head gcbench) &
tree=${BUILD_TREE:-/tmp/build-versions-tree}
# shellcheck disable=SC2086  # TREE_TARGETS is a list of names
[[ -x $tree/bench/driver/gcbench ]] ||
  (OUT=$OUT/build-tree && mkdir -p "$OUT" && build "$tree" . gcbench ${TREE_TARGETS:-}) || exit 1
wait $! || exit 1

for version in head tree; do
  step "cells: $version"
  binary=/tmp/build-versions-head/bench/driver/gcbench
  [[ $version == tree ]] && binary=$tree/bench/driver/gcbench
  rm -rf "/tmp/versions-$version"
  timeout 240 "$binary" --device gpu --timing kernel --cold-l2 --no-progress \
    --out-dir "/tmp/versions-$version" --benchmark_out="$OUT/$version.json" "${args[@]}" \
    >"$OUT/$version.log" 2>&1
  echo "$version exit status: $?"
done
python3 - "$OUT/head.json" "$OUT/tree.json" <<'PY'
import json, sys
runs = [json.load(open(p)) for p in sys.argv[1:]]
print("copy GB/s: " + " / ".join(str(r["context"].get("copy_gbps")) for r in runs))
cells = {}
for i, r in enumerate(runs):
    for b in r["benchmarks"]:
        v = "ERROR" if b.get("error_occurred") else b.get("kernel_gbps")
        if v is not None:
            cells.setdefault(b["name"], [None, None])[i] = (v, b.get("pct_copy"))
print(f"{'cell':70} {'head':>16} {'tree':>16}")
for name, pair in cells.items():
    shown = [f"{p[0]:8.1f} ({p[1]:5.1f}%)" if p and p[0] != "ERROR" else f"{p[0] if p else '-':>16}"
             for p in pair]
    print(f"{name[:70]:70} {shown[0]:>16} {shown[1]:>16}")
PY
