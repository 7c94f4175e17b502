#!/usr/bin/env bash
# The evidence of a kernels change in one device call (bench/results/<gpu>/kernels/):
# iterate_kernels.sh's GPU tests and memcheck, racecheck on the RLE and FL encoders' tests, then
# run_kernels.sh's preset, on one build; logs come back as one archive. Write the commit into
# REVISION first (`git rev-parse --short=12 HEAD > REVISION`, deleted after) so the results'
# git_revision names it, not the device copy's old HEAD.
# Usage (repository root, .carry carried): bash bench/device/run_kernels_evidence.sh
OUT=${OUT:-$PWD/out-evidence}
source "$(dirname "$0")/common.sh" evidence
export OUT BUILD=${BUILD:-/tmp/build-evidence}

TEST_FILTER=. bash bench/device/iterate_kernels.sh --corpus synthetic:runs-geo1:1GiB:4,synthetic:runs-geo8:1GiB:4 \
  --codecs rle,rle-cub --element-width 4 --direction compress >"$OUT/iterate.txt" 2>&1
for t in "gpu_rle_gpu_test:*EdgeCases*:*SyntheticRuns*:*LongRuns*" "gpu_fl_gpu_test:*OnePass*"; do
  echo "== ${t%%:*} --gtest_filter=${t#*:}" >>"$OUT/racecheck.log"
  timeout 150 compute-sanitizer --tool racecheck --error-exitcode 99 "$BUILD/tests/${t%%:*}" \
    --gtest_filter="${t#*:}" >>"$OUT/racecheck.log" 2>&1
  echo "exit status: $?" >>"$OUT/racecheck.log"
done
LIMIT=${LIMIT:-300} bash bench/device/run_kernels.sh >"$OUT/run_kernels.txt" 2>&1

cd "$OUT" || exit 1
tar -czf logs.tar.gz iterate.txt memcheck.log racecheck.log ctest.log run_kernels.txt
rm -rf iterate.txt memcheck.log racecheck.log ctest.log build.log driver.log report.md \
  kernels-results.tar.gz results
echo "#### tests"; tar -xzOf logs.tar.gz iterate.txt | grep -E "tests passed|memcheck|copy"
echo "#### racecheck"; tar -xzOf logs.tar.gz racecheck.log | grep -E "RACECHECK SUMMARY|exit status"
echo "#### kernels preset"; tar -xzOf logs.tar.gz run_kernels.txt | tail -6
