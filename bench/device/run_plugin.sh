#!/usr/bin/env bash
# The plugin ABI's device path (issue 44): the example plugin built with its GPU path and loaded as
# a user loads it, the registry's GPU checks on it beside every built-in GPU codec, memcheck and
# racecheck on its kernels, then deltapack beside FL on 256 MiB integer columns against the device
# copy. The build, with nvCOMP, is shared with run_tpch.sh's.
# Usage (repository root, .carry carried): bash bench/device/run_plugin.sh
OUT=${OUT:-$PWD/out-plugin}
source "$(dirname "$0")/common.sh" plugin
BUILD=${BUILD:-build-device}
results=/tmp/plugin-results

step build
build_release_with_nvcomp "$BUILD" gcbench gcbench-report plugin_test registry_codecs_test \
  gpu_registry_gpu_test gcbench_deltapack
T=$BUILD/tests
plugin=$PWD/$BUILD/examples/plugin/libgcbench_deltapack.so

step tests
{
  "$T/plugin_test" 2>&1 | tail -n 3
  GCBENCH_PLUGINS=$plugin "$T/registry_codecs_test" --gtest_filter='*deltapack*' 2>&1 | tail -n 3
  GCBENCH_PLUGINS=$plugin "$T/gpu_registry_gpu_test" 2>&1 | tail -n 3
  GCBENCH_PLUGINS=$plugin "$T/gpu_registry_gpu_test" --gtest_filter='*deltapack*' 2>&1 |
    grep -E "^\[ +(OK|FAILED|SKIPPED) +\]"
} > "$OUT/tests.log" 2>&1
cat "$OUT/tests.log"

step sanitizers
for tool in memcheck racecheck; do
  GCBENCH_PLUGINS=$plugin timeout 240 compute-sanitizer --tool "$tool" --error-exitcode 99 \
    "$T/gpu_registry_gpu_test" --gtest_filter='*deltapack*' > "$OUT/$tool.log" 2>&1
  echo "$tool: exit status $?, $(grep -c "^\[       OK" "$OUT/$tool.log") tests OK"
  grep -E "ERROR SUMMARY" "$OUT/$tool.log" | tail -n 1
done

step benchmark
rm -rf "$results"
"$BUILD/bench/driver/gcbench" --plugin "$plugin" --codecs deltapack,fl --element-width 4 \
  --corpus synthetic:sorted_keys:256MiB:4,synthetic:small_ints:256MiB:4 --sweep defaults \
  --no-progress --out-dir "$results" > "$OUT/sweep.log" 2>&1
echo "sweep exit status $?"
grep -E "ERROR OCCURRED|^copy_gbps|^h2d|^gpu:" "$OUT/sweep.log" | head -n 8
"$BUILD/reports/gcbench-report" --out "$OUT/report" "$results" > "$OUT/report.log" 2>&1
"$BUILD/bench/driver/gcbench" --export "$results" --benchmark_out="$OUT/plugin.json" \
  > /dev/null 2>&1
for corpus in "$OUT"/report/*/; do
  echo "== $(basename "$corpus")"
  grep -E "^\| (variant|deltapack|fl/gpu/element_width:4/frame_size:1024 |fl/cpu)" \
    "$corpus/variants.md"
done
