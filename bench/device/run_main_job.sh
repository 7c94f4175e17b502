#!/usr/bin/env bash
# The README's main job on a device machine (issue 12: Silesia within 3 minutes on one H100, harness
# share printed): a build as scripts/build.sh does (no nvCOMP; apt-get cannot run there), then
# bench/run_suite.sh on a corpus (default silesia), timed. GPUS=all (or a list, e.g. 0,1) runs the
# sweep on every GPU at once.
# Usage (repository root, .carry carried): bash bench/device/run_main_job.sh [corpus]
OUT=${OUT:-$PWD/out-main-job}
source "$(dirname "$0")/common.sh" main-job
BUILD=${BUILD:-build-device}
corpus=${1:-silesia}

step build
build_release "$BUILD" gcbench gcbench-report

step "main job: $corpus${GPUS:+ (--gpus $GPUS)}"
start=$SECONDS
results=/tmp/main-job-results
gpus=()
[[ -n ${GPUS:-} ]] && gpus=(--gpus "$GPUS")
bash bench/run_suite.sh --build "$BUILD" --corpus "$corpus" --out "$results" --fresh \
  --no-download "${gpus[@]}" > "$OUT/main.log" 2>&1
echo "exit status: $?" >> "$OUT/main.log"
echo "main job wall: $((SECONDS - start)) s"
grep -E "harness share|peak RSS|run_suite finished|exit status" "$OUT/main.log"
tail -30 "$OUT/main.log"
# The results and the report in one archive: the device tool brings back few files.
tar -czf "$OUT/main-job-results.tar.gz" -C "$results" .
