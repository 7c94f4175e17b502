#!/usr/bin/env bash
# reports/columns.py on the committed TPC-H evidence (bench/results/h200/tpch/tpch.json): one
# row per column and codec variant, the values of the cells it came from, and the plot.
# usage: columns_py_test.sh SOURCE_DIR
set -euo pipefail
source_dir=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 "$source_dir/reports/columns.py" "$source_dir/bench/results/h200/tpch/tpch.json" \
  --out "$work" > "$work/stdout.md"
table=$work/columns-tpch-sf10.md
rows=$(grep -c "^| lineitem\.\|^| orders\." "$table")
# 20 columns x 6 variants (fl, nvcomp-cascaded, rle and rle-cub, each RLE with both decoders).
[[ $rows == 120 ]] || { echo "expected 120 rows, found $rows"; cat "$table"; exit 1; }
# One row checked against its cells: ratio, compress and decompress kernel, both e2e figures.
expected="| lineitem.orderkey.4 | 4 | 239.9 | nvcomp-cascaded | 19.3 | 89.5 | 401 | 44 | 31.8 |"
grep -qF -- "$expected" "$table" || { echo "missing row: $expected"; grep orderkey "$table"; exit 1; }
if /usr/bin/python3 -c "import matplotlib" 2>/dev/null; then
  [[ -s $work/columns-tpch-sf10.png ]] || { echo "no plot written"; exit 1; }
fi
echo "columns.py: $rows rows, plot $( [[ -f $work/columns-tpch-sf10.png ]] && echo written || echo skipped)"
