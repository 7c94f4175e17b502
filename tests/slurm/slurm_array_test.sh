#!/usr/bin/env bash
# A real single-node Slurm: starts munged, slurmctld and slurmd (Debian's slurm-wlm and munge,
# installed by scripts/install-deps.sh; a minimal slurm.conf written here, the node advertising
# two stand-in GPUs so that the script's --gres=gpu:1 is granted), submits
# bench/slurm/gcbench.sbatch as a 3-task job array over the CPU part of a small sweep, waits for
# the merge job the array submits, and compares the merged tables with an unsharded run of
# bench/run_suite.sh. Exits 77 (ctest: skipped) with the reason where Slurm cannot start.
# usage: slurm_array_test.sh SOURCE_DIR BUILD_DIR WORK_DIR MIN_TIME
set -euo pipefail
source_dir=$1 build=$2 work=$3 min_time=$4
skip() { echo "SKIP: $*"; exit 77; }
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
source "$(dirname "$0")/../shard/compare.sh"

[[ $(id -u) == 0 ]] || skip "starting munged, slurmctld and slurmd needs root"
for tool in munged slurmctld slurmd sbatch squeue sinfo scancel; do
  command -v "$tool" >/dev/null || skip "$tool not found (apt-get install slurm-wlm munge)"
done

rm -rf "$work"
mkdir -p "$work"
# Daemons' files in a short path: a unix socket's path holds at most 107 bytes.
state=$(mktemp -d /tmp/gcbench-slurm.XXXXXX)
chmod 755 "$state"  # munged's socket must be reachable
daemons=()
slurm_up=0
cleanup() {
  if [[ $slurm_up == 1 ]]; then
    scancel --quiet --full "--name=gcbench" 2>/dev/null || true
    scancel --quiet --full "--name=gcbench-merge" 2>/dev/null || true
  fi
  for pid in "${daemons[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${daemons[@]}"; do wait "$pid" 2>/dev/null || true; done
  [[ -n ${GCBENCH_KEEP_SLURM_STATE:-} ]] || rm -rf "$state"
}
trap cleanup EXIT
# The daemons' logs, for a skip's or a failure's reason.
logs() { tail -n 5 "$state"/*.log 2>/dev/null || true; }

host=$(hostname -s)
port=$((20000 + RANDOM % 20000))
mkdir -p "$state/spool" "$state/state" "$state/etc"
head -c 1024 /dev/urandom >"$state/munge.key"
chmod 400 "$state/munge.key"
munged --force --foreground --socket="$state/munge.socket" --key-file="$state/munge.key" \
  --pid-file="$state/munged.pid" --log-file="$state/munged.log" \
  --seed-file="$state/munged.seed" 2>>"$state/munged.log" &
daemons+=($!)

cat >"$state/etc/slurm.conf" <<EOF
ClusterName=gcbenchtest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$state/munge.socket
CredType=cred/munge
StateSaveLocation=$state/state
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
GresTypes=gpu
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) Gres=gpu:2 State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
# slurmd drops GPUs without a device file; these two stand in (nothing here opens them).
printf 'NodeName=%s Name=gpu File=%s\n' "$host" /dev/null "$host" /dev/zero >"$state/etc/gres.conf"
export SLURM_CONF=$state/etc/slurm.conf
sleep 1
slurmctld -D -i -f "$SLURM_CONF" 2>>"$state/slurmctld.log" &
daemons+=($!)
slurmd -D -N "$host" -f "$SLURM_CONF" 2>>"$state/slurmd.log" &
daemons+=($!)
for ((i = 0; i < 60; ++i)); do
  [[ $(sinfo -h -o %T 2>/dev/null) == idle ]] && break
  sleep 0.5
done
[[ $(sinfo -h -o %T 2>/dev/null) == idle ]] || { logs; skip "Slurm did not start (logs above)"; }
slurm_up=1
echo "== Slurm up: $(sinfo -h -o '%N %c CPUs %G %T')"

sweep=(--corpus canterbury --codecs fl,rle,lz77 --device cpu --finder hash --sweep defaults
       --no-progress --benchmark_min_time="$min_time")
cd "$source_dir"
echo "== unsharded run"
bash bench/run_suite.sh --build "$build" --out "$work/full" "${sweep[@]}" >"$work/full.log" 2>&1 ||
  { cat "$work/full.log"; fail "the unsharded run"; }

echo "== job array"
array=$(GCBENCH_RESULTS=$work/results GCBENCH_BUILD=$build \
  sbatch --parsable --array=0-2 --output="$work/task-%A_%a.out" bench/slurm/gcbench.sbatch \
  "${sweep[@]}")
echo "array job $array"
for ((i = 0; i < 600; ++i)); do
  [[ -z $(squeue -h -o %i 2>/dev/null) && -n $(compgen -G "$work/results/merge-*.out") ]] && break
  sleep 0.5
done
[[ -z $(squeue -h -o %i) ]] || { squeue; logs; fail "the jobs did not finish in 300 s"; }
for task in 0 1 2; do
  out=$work/task-${array}_$task.out
  grep -q "shard $((task + 1))/3 from the Slurm job array" "$out" 2>/dev/null ||
    { cat "$out" 2>/dev/null; fail "array task $task did not run shard $((task + 1))/3"; }
done
merge_log=$(compgen -G "$work/results/merge-*.out" | head -n 1)
if grep -q "^report written to" "$merge_log" 2>/dev/null; then
  grep "^merged" "$merge_log"
  diff <(cells_in "$work/full") <(cells_in "$work/results/merged") >/dev/null ||
    fail "the merged cells differ from the unsharded run's"
  same_tables "$work/full/report" "$work/results/merged/report" ||
    fail "the merged tables differ from the unsharded run's"
else
  cat "$merge_log" 2>/dev/null
  logs
  fail "the merge job did not write its report"
fi
[[ $failures == 0 ]] || { echo "$failures failures"; exit 1; }
echo "all passed: a 3-task job array and its merge equal the unsharded run"
