#!/usr/bin/env bash
# Issue 50's four-GPU evidence on a device machine of several GPUs: one job (main: the Silesia main
# job; thesis: --preset thesis) on one of the GPUs, then with --gpus all, same machine and build,
# the corpora fetched into the cache first so that neither run pays for it. Brings back each
# run's log and the --gpus run's results with their report.
# Usage (repository root, .carry/prefix and .carry/corpora carried):
#   bash bench/device/run_scale.sh main|thesis [one|all|both]
OUT=${OUT:-$PWD/out-scale}
source "$(dirname "$0")/common.sh" scale
BUILD=${BUILD:-build-device}
job=${1:?main or thesis}
runs=${2:-both}

step build
build_release "$BUILD" gcbench gcbench-report gcbench_corpus_tool
nvidia-smi -L > "$OUT/nvidia-smi.txt"
"$BUILD/corpora/gcbench-corpus" fetch silesia calgary canterbury --no-download \
  --mirror "$GCBENCH_CORPUS_MIRROR" --cache "$GCBENCH_CORPUS_CACHE" | grep -c "^ok" |
  sed 's/^/corpus files ready: /'

case $job in
  main) suite=(--corpus silesia) ;;
  thesis) suite=(--preset thesis) ;;
  *) echo "run_scale.sh: main or thesis, not $job" >&2; exit 2 ;;
esac
run() {  # run NAME [--gpus all]
  local name=$1
  shift
  step "$job: $name"
  local start=$SECONDS
  bash bench/run_suite.sh --build "$BUILD" "${suite[@]}" --out "/tmp/scale-$name" --fresh \
    --no-download "$@" > "$OUT/$job-$name.log" 2>&1
  echo "exit status: $?" >> "$OUT/$job-$name.log"
  echo "$job $name wall: $((SECONDS - start)) s"
  grep -E "run_suite finished|exit status|bounded the run|harness share .* gcbench runs" \
    "$OUT/$job-$name.log"
}
[[ $runs == one || $runs == both ]] && run one-gpu
if [[ $runs == all || $runs == both ]]; then
  run gpus-all --gpus all
  tar -czf "$OUT/$job-gpus-all-results.tar.gz" --exclude=.workers -C /tmp/scale-gpus-all .
fi
