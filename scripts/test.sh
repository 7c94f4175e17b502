#!/usr/bin/env bash
# The README's test command: installs dependencies, builds, runs every test.
#  1. release build (GPU codecs too when nvcc is present) -> all tests (GPU tests skip
#     with a reason when there is no GPU)
#  2. ASan+UBSan build of the host code -> all CPU tests, hostile-input tests included
#  3. libFuzzer smoke run of every decoder when clang is available
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
jobs=$(nproc)

echo "== release build and tests"
bash scripts/build.sh build -DGCBENCH_WERROR=ON
ctest --test-dir build --output-on-failure -j"$jobs" --timeout 900

echo "== sanitizer build (ASan+UBSan, host code) and CPU tests"
# -O1 -g1: line tables are all a sanitizer report needs, and the build takes about half of
# -O2 -g's time.
bash scripts/build.sh build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGCBENCH_SANITIZE=ON \
  -DGCBENCH_WITH_CUDA=OFF -DGCBENCH_WERROR=ON -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan --output-on-failure -j"$jobs" -L cpu --timeout 1800

if command -v clang++ >/dev/null; then
  echo "== libFuzzer smoke (each decoder ${GCBENCH_FUZZ_SECONDS:-10} s)"
  bash scripts/build.sh build-fuzz -DCMAKE_CXX_COMPILER=clang++ -DGCBENCH_FUZZ=ON \
    -DGCBENCH_WITH_CUDA=OFF -DGCBENCH_BUILD_TESTS=OFF -DGCBENCH_BUILD_BENCH=OFF
  # Allocation limits make an unbounded allocation a finding; the committed seeds (valid
  # containers, tests/fuzz/corpus/<decoder>) are read, new inputs go to a scratch directory.
  scratch=$(mktemp -d)
  for fuzzer in build-fuzz/tests/fuzz/fuzz_*; do
    [[ -x $fuzzer ]] || continue
    name=$(basename "$fuzzer")
    seeds=()
    [[ -d tests/fuzz/corpus/${name#fuzz_} ]] && seeds=("tests/fuzz/corpus/${name#fuzz_}")
    mkdir -p "$scratch/$name"
    echo "$name:"
    "$fuzzer" -max_total_time="${GCBENCH_FUZZ_SECONDS:-10}" -rss_limit_mb=2048 \
      -malloc_limit_mb=1024 "$scratch/$name" "${seeds[@]}" 2>&1 |
      grep -E "DONE|ERROR|SUMMARY|finding" | tail -n 2
  done
  rm -rf "$scratch"
else
  echo "== libFuzzer smoke skipped: clang++ not found"
fi
