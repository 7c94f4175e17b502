#!/bin/bash
# One device call (not committed): the link probe, LZ77 compression HEAD vs tree, the tree's
# A/B switch, LZ77 GPU tests with memcheck and racecheck.
set -u
real_out=$OUT
export OUT=/tmp/res
mkdir -p $OUT
export GCBENCH_CORPUS_MIRROR=$PWD/.carry/corpora
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
cells="--corpus concat:silesia,silesia --codecs lz77 --direction compress --design warp --finder hash --work-items 1024"
python3 bench/device/run.py --limit 430 --no-nvcomp probes versions lz77-decode \
  --skip 'probes:floors' --skip 'probes:crc-mma' --skip 'lz77-decode:*-chunk' \
  --skip 'lz77-decode:*-jump' --set "versions.cells=$cells" --set versions.reps=5 \
  > $OUT/run.log 2>&1
echo "run.py exit $?"
sed -n "/^recipe  *step/,\$p" $OUT/run.log | head -60
GCBENCH_AB_FRESH_INDEX=1 timeout 100 build-device/bench/driver/gcbench --device gpu --timing kernel \
  --cold-l2 --no-progress --out-dir /tmp/ab-fresh --benchmark_repetitions=5 $cells \
  > $OUT/fresh.log 2>&1
echo "fresh exit $?"
R=build-device/reports/gcbench-report
$R --compare /tmp/gcbench-device/versions/head /tmp/ab-fresh --out $OUT/cmp-head-fresh > /dev/null 2>&1
$R --compare /tmp/ab-fresh /tmp/gcbench-device/versions/tree --out $OUT/cmp-fresh-kept > /dev/null 2>&1
for c in versions/compare cmp-head-fresh cmp-fresh-kept; do echo "== $c"; grep -E "^\|" $OUT/$c/compare.md | cut -c1-220 | head -14; done
echo "== link probe"
sed -n '/== 3)/,$p' $OUT/probes/probes.log | head -60
tar czf $real_out/res.tgz -C /tmp res gcbench-device/versions/head gcbench-device/versions/tree ab-fresh 2>/dev/null
ls -la $real_out
