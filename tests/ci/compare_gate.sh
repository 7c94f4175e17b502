#!/usr/bin/env bash
# The CI gate tried as a hostile run would: a sweep's results compared with four damaged copies
# of themselves (one cell removed, one failed, one input digest changed, one container grown by
# 10%), each of which must exit 1 naming its cell, and with themselves, which must exit 0.
# Usage: compare_gate.sh GCBENCH_REPORT RESULTS_DIR SCRATCH_DIR
set -euo pipefail
report=$1 results=$2 scratch=$3
rm -rf "$scratch" && mkdir -p "$scratch"

# damage KIND: a copy of the results with one cell damaged as KIND says; prints the cell's name.
damage() {
  local copy=$scratch/$1
  cp -r "$results" "$copy"
  python3 - "$copy" "$1" <<'PY'
import glob, json, sys
copy, kind = sys.argv[1], sys.argv[2]
for path in sorted(glob.glob(f"{copy}/**/*.json", recursive=True)):
    doc = json.load(open(path))
    if not isinstance(doc, dict) or "benchmarks" not in doc:
        continue
    cells = [b for b in doc["benchmarks"]
             if not b.get("error_occurred") and b.get("compressed_bytes", 0) > 0]
    if not cells:
        continue
    name = cells[0]["run_name"]
    entries = [b for b in doc["benchmarks"] if b.get("run_name") == name]
    if kind == "removed":
        doc["benchmarks"] = [b for b in doc["benchmarks"] if b.get("run_name") != name]
    for b in entries:
        if kind == "failed":
            for key in [k for k in b if isinstance(b[k], (int, float)) and not isinstance(b[k], bool)]:
                if key not in ("iterations", "repetitions", "repetition_index", "threads",
                               "family_index", "per_family_instance_index"):
                    del b[key]
            b["error_occurred"] = True
            b["error_message"] = "decompressed output differs from the input at byte 7"
        elif kind == "digest":
            b.setdefault("provenance", {})["input_sha256"] = "0" * 64
        elif kind == "grown":
            b["compressed_bytes"] = round(b["compressed_bytes"] * 1.1)
            b["ratio"] = b["input_bytes"] / b["compressed_bytes"]
    json.dump(doc, open(path, "w"), indent=2)
    print(name.split("/iterations:")[0].split("/manual_time")[0].split("/real_time")[0])
    break
PY
}

failed=0
for kind in removed failed digest grown; do
  cell=$(damage "$kind")
  status=0
  "$report" --compare "$results" "$scratch/$kind" >"$scratch/$kind.md" 2>&1 || status=$?
  verdict=$(grep -F "| $cell |" "$scratch/$kind.md" | grep -oE '\*\*[A-Z ]+\*\*' | head -1 || true)
  echo "$kind: exit $status, $cell: ${verdict:-no failing verdict}"
  if [[ $status != 1 || -z $verdict ]]; then
    failed=1
    tail -5 "$scratch/$kind.md"
  fi
done
status=0
"$report" --compare "$results" "$results" >"$scratch/itself.md" 2>&1 || status=$?
echo "itself: exit $status, $(grep -E '^Cells:' "$scratch/itself.md")"
[[ $status == 0 ]] || failed=1
exit $failed
