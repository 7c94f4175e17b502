#!/usr/bin/env bash
# The README's test command: installs dependencies, builds, runs every test.
#  1. release build (GPU codecs too when nvcc is present) -> the GPU tests (they skip with a
#     reason when there is no GPU), the small sweeps and the script tests
#  2. ASan+UBSan build of the host code -> all CPU tests, hostile-input tests included (built
#     and run here only, so the release build holds what ships and the GPU tests)
#  3. libFuzzer smoke run of every decoder when clang is available
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
jobs=$(nproc)
# Each stage's heading says when it began (seconds since this script started).
stage() { echo "== $1 (at ${SECONDS} s)"; }

stage "release build and tests"
bash scripts/build.sh build -DGCBENCH_WERROR=ON -DGCBENCH_CPU_TESTS=OFF
ctest --test-dir build --output-on-failure -j"$jobs" --timeout 900

stage "sanitizer build (ASan+UBSan, host code) and CPU tests"
# -Og -g1: line tables are all a sanitizer report needs, and -Og builds much faster than -O1
# (bench/NOTES.md, "Jobs and the harness", CI) while the tests run as fast. A unity build (16
# sources a compiler run) parses the shared headers once a batch: this build is the longest
# step on two cores. The release build above stays one source a run, as it ships and as the
# README builds it, so that a source missing an include fails there.
bash scripts/build.sh build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGCBENCH_SANITIZE=ON \
  -DGCBENCH_WITH_CUDA=OFF -DGCBENCH_WERROR=ON -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-Og -g1 -DNDEBUG" \
  -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=16
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan --output-on-failure -j"$jobs" -L cpu --timeout 1800

if command -v clang++ >/dev/null; then
  stage "libFuzzer smoke (each decoder ${GCBENCH_FUZZ_SECONDS:-10} s)"
  GCBENCH_BUILD_TARGET=fuzzers bash scripts/build.sh build-fuzz -DCMAKE_CXX_COMPILER=clang++ \
    -DGCBENCH_FUZZ=ON -DGCBENCH_WITH_CUDA=OFF -DGCBENCH_BUILD_TESTS=OFF -DGCBENCH_BUILD_BENCH=OFF
  # Allocation limits make an unbounded allocation a finding; the committed seeds (valid
  # containers, tests/fuzz/corpus/<decoder>) are read, new inputs go to a scratch directory.
  # One fuzzer per core at a time; each one's last lines are printed in name order.
  scratch=$(mktemp -d)
  fuzz_one() {
    local fuzzer=$1 name seeds=()
    name=$(basename "$fuzzer")
    [[ -d tests/fuzz/corpus/${name#fuzz_} ]] && seeds=("tests/fuzz/corpus/${name#fuzz_}")
    mkdir -p "$scratch/$name"
    "$fuzzer" -max_total_time="${GCBENCH_FUZZ_SECONDS:-10}" -rss_limit_mb=2048 \
      -malloc_limit_mb=1024 "$scratch/$name" "${seeds[@]}" >"$scratch/$name.log" 2>&1
    echo "$? $name" >"$scratch/$name.status"
  }
  export -f fuzz_one
  export scratch GCBENCH_FUZZ_SECONDS
  find build-fuzz/tests/fuzz -maxdepth 1 -type f -executable -name "fuzz_*" |
    xargs -P "$jobs" -I{} bash -c 'fuzz_one "$1"' _ {}
  fuzz_failed=0
  for log in "$scratch"/fuzz_*.log; do
    name=$(basename "$log" .log)
    echo "$name:"
    grep -E "DONE|ERROR|SUMMARY|finding" "$log" | tail -n 2
    read -r status _ <"$scratch/$name.status"
    if [[ $status != 0 ]]; then
      echo "$name failed (exit status $status):"
      tail -n 40 "$log"
      fuzz_failed=1
    fi
  done
  rm -rf "$scratch"
  [[ $fuzz_failed == 0 ]] || exit 1
else
  echo "== libFuzzer smoke skipped: clang++ not found"
fi
stage "tests done"
