#!/usr/bin/env bash
# --shard K/N and gcbench-report --merge-shards end to end, on a small CPU sweep of Canterbury and
# Calgary (FL, RLE, LZ77 with the hash finder, at their defaults): for N in 1, 2, 3, 7 the
# shards cover every cell of the unsharded run exactly once, and the merged report's tables
# equal the unsharded run's (sizes and ratios exactly; every time present on both sides). Then
# the shard of a Slurm job array task and of a Kubernetes Indexed Job pod, resuming a shard
# that lost cells, and merge's errors.
# usage: shard_merge_test.sh GCBENCH GCBENCH_REPORT WORK_DIR MIN_TIME
set -euo pipefail
gcbench=$1 report=$2 work=$3 min_time=$4
rm -rf "$work"
mkdir -p "$work"
sweep=(--corpus canterbury,calgary --codecs fl,rle,lz77 --device cpu --finder hash
       --sweep defaults --no-progress --benchmark_min_time="$min_time")
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

source "$(dirname "$0")/compare.sh"

echo "== unsharded run"
"$gcbench" "${sweep[@]}" --out-dir "$work/full" >/dev/null 2>"$work/full.log"
"$report" --out "$work/full/report" "$work/full" >/dev/null
cells_in "$work/full" >"$work/full.cells"
total=$(wc -l <"$work/full.cells")
[[ $total -gt 100 ]] || fail "the unsharded run recorded only $total cells"
[[ -z $(uniq -d "$work/full.cells") ]] || fail "the unsharded run recorded a cell twice"

for n in 1 2 3 7; do
  echo "== $n shards"
  dirs=()
  for ((k = 1; k <= n; ++k)); do
    "$gcbench" "${sweep[@]}" --shard "$k/$n" --out-dir "$work/n$n/s$k" >/dev/null \
      2>"$work/n$n-s$k.log"
    grep -q "shard $k/$n from --shard" "$work/n$n-s$k.log" || fail "shard $k/$n did not say so"
    dirs+=("$work/n$n/s$k")
  done
  diff "$work/full.cells" <(cells_in "${dirs[@]}") >/dev/null ||
    fail "the $n shards do not cover the unsharded run's cells exactly once"
  "$report" --merge-shards "$work/n$n/merged" "${dirs[@]}" >"$work/n$n-merge.log" ||
    { fail "merging $n shards"; cat "$work/n$n-merge.log"; continue; }
  diff "$work/full.cells" <(cells_in "$work/n$n/merged") >/dev/null ||
    fail "the merge of $n shards does not hold the unsharded run's cells exactly once"
  same_tables "$work/full/report" "$work/n$n/merged/report" ||
    fail "the merge of $n shards: tables differ from the unsharded run's"
done

echo "== shard from the environment"
list=(--benchmark_list_tests=true)
shard_cells() { "$gcbench" "${sweep[@]}" "${list[@]}" "$@" 2>/dev/null | sort; }
diff <(shard_cells --shard 2/3) \
  <(SLURM_ARRAY_TASK_ID=5 SLURM_ARRAY_TASK_COUNT=3 SLURM_ARRAY_TASK_MIN=4 shard_cells) ||
  fail "the Slurm task 5 of array 4-6 did not run shard 2/3"
SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_COUNT=3 "$gcbench" "${sweep[@]}" "${list[@]}" \
  >/dev/null 2>"$work/slurm.log"
grep -q "shard 2/3 from the Slurm job array" "$work/slurm.log" ||
  fail "a Slurm job array task did not say where its shard came from"
diff <(shard_cells --shard 3/3) <(JOB_COMPLETION_INDEX=2 GCBENCH_SHARD_COUNT=3 shard_cells) ||
  fail "the Kubernetes pod of index 2 of 3 did not run shard 3/3"
diff <(shard_cells) <(SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_COUNT=3 shard_cells --shard 1/1) ||
  fail "--shard 1/1 in a Slurm job array did not run every cell"

expect_error() {  # expect_error STATUS TEXT COMMAND...: fails unless COMMAND exits STATUS saying TEXT
  local status=$1 text=$2 got=0
  shift 2
  "$@" >"$work/out.log" 2>&1 || got=$?
  [[ $got == "$status" ]] || fail "$* exited $got, not $status"
  grep -qF -- "$text" "$work/out.log" || { fail "$* did not say '$text'"; cat "$work/out.log"; }
}
expect_error 2 "the shard K must be from 1 to N = 2" "$gcbench" --shard 3/2
expect_error 2 "the shard count N must be at least 1" "$gcbench" --shard 0/0
expect_error 2 "expected K/N" "$gcbench" --shard 2of3
expect_error 2 "SLURM_ARRAY_TASK_ID='x' is not an integer" env SLURM_ARRAY_TASK_ID=x \
  SLURM_ARRAY_TASK_COUNT=3 "$gcbench"

echo "== a shard that lost cells resumes"
cp -r "$work/n3/s2" "$work/lost"
lost_file=$(find "$work/lost" -name '*.json' | sort | head -n 1)
lost=$(grep -c '"run_name"' "$lost_file")
rm "$lost_file"
expect_error 2 "shard 2/3 ($work/lost) is missing $lost of its" \
  "$report" --merge-shards "$work/m-lost" "$work/n3/s1" "$work/lost" "$work/n3/s3"
[[ ! -e $work/m-lost ]] || fail "a refused merge wrote something"
"$gcbench" "${sweep[@]}" --shard 2/3 --out-dir "$work/lost" >/dev/null 2>"$work/resume.log"
grep -q "cells already recorded in $work/lost .*: skipped" "$work/resume.log" ||
  fail "the rerun shard did not resume"
grep -q "[^0-9]$lost cells (" "$work/resume.log" ||
  fail "the rerun shard did not run only the $lost lost cells"
"$report" --merge-shards "$work/m-resumed" "$work/n3/s1" "$work/lost" "$work/n3/s3" >/dev/null ||
  fail "the resumed shard does not merge"

echo "== merge errors"
s=("$work/n3/s1" "$work/n3/s2" "$work/n3/s3")
expect_error 2 "shard 3/3 is missing (no input holds its plan)" \
  "$report" --merge-shards "$work/m1" "${s[0]}" "${s[1]}"
"$report" --merge-shards "$work/m-partial" --allow-missing "${s[0]}" "${s[1]}" >/dev/null ||
  fail "--allow-missing did not merge"
grep -q "cells missing" "$work/m-partial/report/report.md" || fail "the report hides missing cells"
[[ -s $work/m-partial/missing-cells.txt ]] || fail "no missing-cells.txt"
grep -q '"merge_missing_cells"' "$(find "$work/m-partial" -name '*.json' | head -n 1)" ||
  fail "the merged context does not mark the missing cells"
cp -r "${s[1]}" "$work/dup"
expect_error 2 "shard 2/3 is given twice" "$report" --merge-shards "$work/m2" "${s[@]}" "$work/dup"
expect_error 2 "duplicated cell" "$report" --merge-shards "$work/m2" "${s[@]}" "$work/dup"
rm "$work/dup/gcbench.plan"
expect_error 2 "duplicated cell" "$report" --merge-shards "$work/m2" "${s[@]}" "$work/dup"
cp -r "${s[2]}" "$work/rev"
find "$work/rev" -name '*.json' -exec sed -i 's/"git_revision": "[^"]*"/"git_revision": "0123abcd"/' {} +
expect_error 2 "different builds: git_revision is" \
  "$report" --merge-shards "$work/m3" "${s[0]}" "${s[1]}" "$work/rev"
"$report" --merge-shards "$work/m3" --allow-different-revisions "${s[0]}" "${s[1]}" "$work/rev" \
  >/dev/null || fail "--allow-different-revisions did not merge"
grep -q '"git_revision": "mixed (--allow-different-revisions): ' \
  "$(find "$work/m3" -name '*.json' | head -n 1)" || fail "the merged context hides the revisions"
mkdir -p "$work/empty"
expect_error 2 "$work/empty holds no gcbench results" "$report" --merge-shards "$work/m4" "$work/empty"
expect_error 2 "$work/nowhere: no such folder" "$report" --merge-shards "$work/m4" "$work/nowhere"
expect_error 2 "already holds results" "$report" --merge-shards "$work/n3/merged" "${s[@]}"
expect_error 2 "overlap" "$report" --merge-shards "${s[0]}/merged" "${s[@]}"

[[ $failures == 0 ]] || { echo "$failures failures"; exit 1; }
echo "all passed: $total cells, shards 1, 2, 3 and 7 merged equal to the unsharded run"
