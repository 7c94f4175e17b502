#!/usr/bin/env bash
# The suite: the gcbench driver over a corpus (default Canterbury) and every available codec (GPU
# ones when a GPU is usable), then the report tool; prints the GPU vs CPU vs gzip table and every
# codec at its defaults in both directions, where the report is, the suite's harness share
# (gcbench --help) and the drivers' peak RSS. Builds nothing (scripts/build.sh). Each codec axis
# is swept one at a time (gcbench's --sweep axes), --sweep product runs every combination, and
# --preset NAME runs that preset's whole sweep.
#
# usage: bench/run_suite.sh [--ci] [--build DIR] [--out DIR] [--fresh] [gcbench flags...]
#   --ci          CI's CPU sweep (studies/main_job.runs declares both modes' runs)
#   --build DIR   build directory holding the binaries (default: build)
#   --out DIR     results directory (default: results/main, results/ci with --ci,
#                 results/<preset> with --preset); one JSON per corpus file
#                 (DIR/<corpus>/<file>.json; the runs after the sweep's in their own
#                 folders), so an interrupted sweep resumes where it stopped
#   --fresh       delete the results directory first (otherwise the cells recorded under this
#                 revision, build type, codec versions and GPU are skipped)
#   --gpus all|LIST
#                 the main sweep on these GPUs at once (gcbench --gpus: one worker per GPU and
#                 one for the CPU cells); the runs after it follow as without
#   --benchmark_out=FILE [--benchmark_out_format=json|csv|jsonl]
#                 Google Benchmark's output flags apply once, to DIR's export: after the
#                 sweep, every cell recorded under DIR (both driver runs') in FILE (gcbench
#                 --export: one Google Benchmark JSON, or one row per cell as csv or jsonl;
#                 without a format, FILE's extension says)
# Other flags go to gcbench, e.g. --corpus calgary, --finder hash,z,brute, --work-items 2048.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$EPOCHREALTIME

build=build
out=
ci=0
fresh=0
preset=
bench_out=
bench_out_format=()
gpus=()
extra=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --ci) ci=1 ;;
    --build) build=$2; shift ;;
    --out) out=$2; shift ;;
    --fresh) fresh=1 ;;
    --preset) preset=$2; extra+=("$1" "$2"); shift ;;
    --preset=*) preset=${1#--preset=}; extra+=("$1") ;;
    --gpus) gpus=("$1" "$2"); shift ;;
    --gpus=*) gpus=("$1") ;;
    --benchmark_out=*) bench_out=${1#--benchmark_out=} ;;
    --benchmark_out_format=*) bench_out_format=("$1") ;;
    *) extra+=("$1") ;;
  esac
  shift
done

if [[ ${#bench_out_format[@]} -gt 0 ]]; then  # checked before the sweep, not after it
  case ${bench_out_format[0]#--benchmark_out_format=} in
    json | csv | jsonl) ;;
    *) echo "run_suite: ${bench_out_format[0]}: the export is json, csv or jsonl" >&2; exit 2 ;;
  esac
  [[ -n $bench_out ]] || { echo "run_suite: --benchmark_out_format needs --benchmark_out=FILE" >&2; exit 2; }
fi

gcbench=$build/bench/driver/gcbench
report_tool=$build/reports/gcbench-report
for tool in "$gcbench" "$report_tool"; do
  [[ -x $tool ]] || { echo "run_suite: $tool not found; build first (bash scripts/build.sh $build)" >&2; exit 2; }
done

# The main job's runs are the study's data: the mode's sweep flags and the runs after it.
mode=main
[[ $ci == 1 ]] && mode=ci
sweep=()
after_folders=()
after_flags=()
while read -r kind name flags; do
  case $kind in
    sweep) [[ $name == "$mode" ]] && read -ra sweep <<<"$flags" ;;
    after) after_folders+=("$name") && after_flags+=("$flags") ;;
    '' | '#'*) ;;
    *) echo "run_suite: studies/main_job.runs: unknown run kind '$kind'" >&2; exit 2 ;;
  esac
done <studies/main_job.runs
if [[ -n $preset ]]; then
  out=${out:-results/$preset}
  sweep=()
else
  out=${out:-results/$mode}
fi
[[ $fresh == 1 ]] && rm -rf "$out"
mkdir -p "$out"
# Each gcbench run appends its timed seconds, wall seconds and peak RSS here (a --gpus run one
# line: its workers' timed seconds summed, its own wall).
harness=$(mktemp)
trap 'rm -f "$harness"' EXIT

# A failed cell is recorded as an error; the report is still written, and the exit status
# says so at the end.
status=0
echo "== gcbench sweep -> $out"
"$gcbench" "${sweep[@]}" "${gpus[@]}" --out-dir "$out" --harness-file "$harness" "${extra[@]}" ||
  status=$?
for i in "${!after_folders[@]}"; do
  [[ $status -lt 2 && -z $preset ]] || break
  read -ra flags <<<"${after_flags[$i]}"
  "$gcbench" "${sweep[@]}" "${flags[@]}" --out-dir "$out/${after_folders[$i]}" \
    --harness-file "$harness" "${extra[@]}" || status=$?
done

if [[ -n $bench_out ]]; then
  echo "== export of $out -> $bench_out"
  "$gcbench" --export "$out" --benchmark_out="$bench_out" "${bench_out_format[@]}" || status=$?
fi

echo "== report"
"$report_tool" --out "$out/report" --print-summary "$out" || status=$?
wall=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
# timed seconds of both runs / the suite's wall (the report and the gaps count as harness).
awk -v wall="$wall" '
  { for (i = 1; i <= NF; ++i) { split($i, kv, "="); v[kv[1]] = kv[2] }
    timed += v["timed_s"]; runs_wall += v["wall_s"]; cells += v["cells"]
    if (v["peak_rss_bytes"] > peak) peak = v["peak_rss_bytes"]
    if (v["largest_input_bytes"] > largest) largest = v["largest_input_bytes"] }
  END {
    printf "== harness share %.1f%%: %.1f s timed of %.1f s wall (%d gcbench runs, %.1f s, %d cells)\n",
      (wall > 0 ? 100 * timed / wall : 0), timed, wall, NR, runs_wall, cells
    printf "== peak RSS %.2f GiB (%.0f bytes); bound 3 x largest input (%.1f MB) + 1 GiB = %.2f GiB\n",
      peak / 2^30, peak, largest / 1e6, (3 * largest + 2^30) / 2^30
  }' "$harness"
echo "== run_suite finished in $wall s (results in $out, report $out/report/report.md)"
exit "$status"
