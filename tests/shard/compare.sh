# Shared by the shard and Slurm tests (sourced): what a merged result set must equal.

# The cell names recorded under the given folders, one line per recorded cell.
cells_in() { find "$@" -name '*.json' -exec grep -h '"run_name"' {} + | sed 's/^ *//' | sort; }

# Every table of report $2 equals report $1's: same files, rows and columns; fields whose column
# is a size (size, *bytes*, *ratio*; memory is measured, not a size) equal exactly, others (times,
# throughputs, memory) numeric on both sides or the same blank ("n/a (reason)").
same_tables() {
  local a=$1 b=$2 ok=0
  diff <(cd "$a" && find . -name '*.csv' | sort) <(cd "$b" && find . -name '*.csv' | sort) ||
    { echo "different table files"; return 1; }
  while read -r table; do
    awk -F, -v table="$table" '
      NR == FNR { row[FNR] = $0; rows = FNR; next }
      FNR == 1 { if ($0 != row[1]) { print table ": headers differ"; bad = 1; exit }
                 for (i = 1; i <= NF; ++i) name[i] = $i; next }
      { n = split(row[FNR], want, ",")
        if (n != NF) { print table " row " FNR ": field counts differ"; bad = 1; next }
        for (i = 1; i <= NF; ++i) {
          number = "^-?[0-9.]+(e[-+]?[0-9]+)?$"
          size = name[i] ~ /(^size$|bytes|ratio)/ && name[i] !~ /memory/
          exact = i == 1 || size || !($i ~ number && want[i] ~ number)
          if (exact && $i != want[i]) {
            print table " row " FNR " column " name[i] ": " want[i] " vs " $i; bad = 1
          }
        } }
      END { if (FNR != rows) { print table ": row counts differ"; bad = 1 }; exit bad }' \
      "$a/$table" "$b/$table" || ok=1
  done < <(cd "$a" && find . -name '*.csv' | sort)
  return $ok
}
