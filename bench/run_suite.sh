#!/usr/bin/env bash
# The suite: runs the gcbench driver over a corpus (default Canterbury) and every available
# codec (GPU ones when a GPU is usable), then the report tool, and ends by printing the GPU vs
# CPU vs gzip table and where the report is. Builds nothing (see scripts/build.sh).
#
# usage: bench/run_suite.sh [--ci] [--build DIR] [--out DIR] [--fresh] [gcbench flags...]
#   --ci          CPU sweep on Canterbury and Calgary with zlib and the CPU references
#   --build DIR   build directory holding the binaries (default: build)
#   --out DIR     results directory (default: results/main, or results/ci with --ci); one
#                 JSON per corpus file, so an interrupted sweep resumes where it stopped
#   --fresh       delete the results directory first (otherwise recorded cells are skipped)
# Other flags go to gcbench, e.g. --corpus calgary, --finder hash,z,brute, --work-items 2048.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)

build=build
out=
ci=0
fresh=0
extra=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --ci) ci=1 ;;
    --build) build=$2; shift ;;
    --out) out=$2; shift ;;
    --fresh) fresh=1 ;;
    *) extra+=("$1") ;;
  esac
  shift
done

gcbench=$build/bench/driver/gcbench
report_tool=$build/reports/gcbench-report
for tool in "$gcbench" "$report_tool"; do
  [[ -x $tool ]] || { echo "run_suite: $tool not found; build first (bash scripts/build.sh $build)" >&2; exit 2; }
done

if [[ $ci == 1 ]]; then
  out=${out:-results/ci}
  sweep=(--corpus canterbury,calgary --codecs fl,rle,lz77,zlib --device cpu)
else
  out=${out:-results/main}
  sweep=(--corpus canterbury)
fi
[[ $fresh == 1 ]] && rm -rf "$out"
mkdir -p "$out"

# A failed cell is recorded as an error; the report is still written, and the exit status
# says so at the end.
status=0
echo "== gcbench sweep -> $out"
"$gcbench" "${sweep[@]}" --out-dir "$out" "${extra[@]}" || status=$?
# T6's sequential column: LZ77 decompression on one thread (a decompression-only axis).
if [[ $status -lt 2 ]]; then
  "$gcbench" "${sweep[@]}" --codecs lz77 --device cpu --direction decompress \
    --decode-mode sequential --out-dir "$out" "${extra[@]}" || status=$?
fi

echo "== report"
"$report_tool" --out "$out/report" --print-summary "$out" || status=$?
echo "== run_suite finished in $(( $(date +%s) - start )) s (results in $out, report $out/report/report.md)"
exit "$status"
