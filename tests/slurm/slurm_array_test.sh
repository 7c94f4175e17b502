#!/usr/bin/env bash
# A Slurm cluster on this one machine, loopback only: munged, slurmctld and two compute nodes,
# each a slurmd of its own name (-N node1, -N node2) on its own port and in its own PID
# namespace, so that killing one ends every process of its jobs as a node that dies would
# (Debian's slurm-wlm and munge, installed by scripts/install-deps.sh; each node advertises one
# stand-in GPU so that the script's --gres=gpu:1 is granted). It runs
# bench/slurm/gcbench.sbatch as a 3-task job array over the CPU part of a small sweep, tasks on
# both nodes, kills node2 once its task has recorded a cell, and checks that the merge job
# names the failed task and the command that reruns it; runs that command with node2 back,
# which resumes the task and merges again; then compares the merged tables with an unsharded
# run of bench/run_suite.sh and each shard's recorded node (slurm_node) with the node scontrol
# says ran its task. Exits 77 (ctest: skipped) with the reason where Slurm cannot start.
# usage: slurm_array_test.sh SOURCE_DIR BUILD_DIR WORK_DIR MIN_TIME
set -euo pipefail
source_dir=$1 build=$2 work=$3 min_time=$4
skip() { echo "SKIP: $*"; exit 77; }
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# shellcheck source=tests/shard/compare.sh
source "$(dirname "$0")/../shard/compare.sh"

[[ $(id -u) == 0 ]] || skip "starting munged, slurmctld and slurmd needs root"
for tool in munged slurmctld slurmd sbatch squeue sinfo scontrol scancel unshare; do
  command -v "$tool" >/dev/null || skip "$tool not found (apt-get install slurm-wlm munge)"
done
why=$(unshare --pid --fork --kill-child --mount-proc true 2>&1) ||
  skip "a node needs its own PID namespace, and unshare cannot make one: $why"

rm -rf "$work"
mkdir -p "$work"
# Daemons' files in a short path: a unix socket's path holds at most 107 bytes.
state=$(mktemp -d /tmp/gcbench-slurm.XXXXXX)
chmod 755 "$state"  # munged's socket must be reachable
daemons=()
declare -A node_pid
slurm_up=0
cleanup() {
  if [[ $slurm_up == 1 ]]; then
    scancel --quiet --full "--name=gcbench" 2>/dev/null || true
    scancel --quiet --full "--name=gcbench-merge" 2>/dev/null || true
  fi
  # unshare leaves SIGTERM to its child; SIGKILL ends it and (--kill-child) its namespace.
  for pid in "${node_pid[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  for pid in "${daemons[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${daemons[@]}" "${node_pid[@]}"; do wait "$pid" 2>/dev/null || true; done
  [[ -n ${GCBENCH_KEEP_SLURM_STATE:-} ]] || rm -rf "$state"
}
trap cleanup EXIT
# The daemons' logs, for a skip's or a failure's reason.
logs() { tail -n 5 "$state"/*.log 2>/dev/null || true; }

host=$(hostname -s)
port=$((20000 + RANDOM % 20000))
nodes=(node1 node2)
mkdir -p "$state/state" "$state/etc"
for node in "${nodes[@]}"; do mkdir -p "$state/spool/$node"; done
head -c 1024 /dev/urandom >"$state/munge.key"
chmod 400 "$state/munge.key"
munged --force --foreground --socket="$state/munge.socket" --key-file="$state/munge.key" \
  --pid-file="$state/munged.pid" --log-file="$state/munged.log" \
  --seed-file="$state/munged.seed" 2>>"$state/munged.log" &
daemons+=($!)

# SlurmdTimeout: a dead node is noticed within seconds; JobRequeue=0: its batch task fails
# rather than being requeued; sched_interval: a job whose dependency a node's death satisfied
# starts within seconds; MinJobAge: scontrol still shows the finished tasks.
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
SlurmdSpoolDir=$state/spool/%n
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd-%n.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
SlurmdTimeout=5
JobRequeue=0
SchedulerParameters=sched_interval=2
MinJobAge=900
GresTypes=gpu
NodeName=node1 NodeHostname=$host NodeAddr=127.0.0.1 Port=$((port + 2)) CPUs=1 Gres=gpu:1 State=UNKNOWN
NodeName=node2 NodeHostname=$host NodeAddr=127.0.0.1 Port=$((port + 3)) CPUs=1 Gres=gpu:1 State=UNKNOWN
PartitionName=test Nodes=node[1-2] Default=YES MaxTime=INFINITE State=UP
EOF
# slurmd drops GPUs without a device file; /dev/null stands in (nothing here opens it).
echo "NodeName=node[1-2] Name=gpu File=/dev/null" >"$state/etc/gres.conf"
export SLURM_CONF=$state/etc/slurm.conf

start_node() {
  unshare --pid --fork --kill-child --mount-proc slurmd -D -N "$1" -f "$SLURM_CONF" \
    2>>"$state/slurmd-$1.log" &
  node_pid[$1]=$!
}
# Waits until every node is idle; returns 1 after 30 s.
nodes_idle() {
  for ((i = 0; i < 60; ++i)); do
    [[ $(sinfo -h -N -o %T 2>/dev/null | sort -u) == idle ]] && return 0
    sleep 0.5
  done
  return 1
}
sleep 1
slurmctld -D -i -f "$SLURM_CONF" 2>>"$state/slurmctld.log" &
daemons+=($!)
for node in "${nodes[@]}"; do start_node "$node"; done
nodes_idle || { logs; skip "Slurm did not start (logs above)"; }
slurm_up=1
echo "== Slurm up: $(sinfo -h -N -o '%N (%c CPU, %G) %T' | paste -sd ' ')"

# "<task> <state> <node>" of every task of job array $1, one line each.
tasks_of() {
  scontrol -o show job "$1" | sed -n \
    's/.* ArrayTaskId=\([^ ]*\) .* JobState=\([^ ]*\) .* NodeList=\([^ ]*\) .*/\1 \2 \3/p' | sort -n
}
# Waits until no job is queued; returns 1 after $1 s.
jobs_done() {
  for ((i = 0; i < $1 * 2; ++i)); do
    [[ -z $(squeue -h -o %i 2>/dev/null) ]] && return 0
    sleep 0.5
  done
  return 1
}

sweep=(--corpus canterbury --codecs "fl,rle,lz77" --device cpu --finder hash --sweep defaults
  --no-progress --benchmark_min_time="$min_time")
cd "$source_dir"
echo "== unsharded run"
started=$(date +%s)
bash bench/run_suite.sh --build "$build" --out "$work/full" "${sweep[@]}" >"$work/full.log" 2>&1 ||
  { cat "$work/full.log"; fail "the unsharded run"; }
echo "took $(($(date +%s) - started)) s"

echo "== job array of 3 tasks on 2 nodes; node2 killed once its task has recorded a cell"
started=$(date +%s)
array=$(GCBENCH_RESULTS=$work/results GCBENCH_BUILD=$build \
  sbatch --parsable --array=0-2 --output="$work/task-%A_%a.out" bench/slurm/gcbench.sbatch \
  "${sweep[@]}")
victim=
for ((i = 0; i < 600; ++i)); do
  task=$(tasks_of "$array" | awk '$2 == "RUNNING" && $3 == "node2" { print $1 }')
  if [[ -n $task ]] && compgen -G "$work/results/shard-$task/*/*.json" >/dev/null; then
    victim=$task
    break
  fi
  sleep 0.2
done
if [[ -z $victim ]]; then
  tasks_of "$array"
  logs
  fail "no task of array $array recorded a cell while running on node2"
  exit 1
fi
kill -KILL "${node_pid[node2]}"
wait "${node_pid[node2]}" 2>/dev/null || true
echo "killed node2 while it ran task $victim"
jobs_done 300 || { squeue; logs; fail "the array and its merge did not end in 300 s"; }
echo "took $(($(date +%s) - started)) s; the array's tasks (task, state, node):"
first_run=$(tasks_of "$array")
echo "$first_run"
[[ $(awk '{ print $3 }' <<<"$first_run" | sort -u | paste -sd ' ') == "node1 node2" ]] ||
  fail "the tasks did not run on both nodes"
[[ $(awk -v t="$victim" '$1 == t { print $2 }' <<<"$first_run") == NODE_FAIL ]] ||
  fail "task $victim's state is not NODE_FAIL"
merge_log=$(compgen -G "$work/results/merge-*.out" | head -n 1)
echo "-- the merge job's output"
cat "$merge_log"
grep -q "task $victim of job array $array (shard $((victim + 1))/3) ended NODE_FAIL on node node2" \
  "$merge_log" || fail "the merge job did not name the failed task"
grep -q "shard $((victim + 1))/3 (.*) is missing" "$merge_log" ||
  fail "the merge job did not name the missing shard"
rerun=$(sed -n 's/^  \(sbatch --array=.*\)/\1/p' "$merge_log")
[[ -n $rerun ]] || { fail "the merge job gave no rerun command"; exit 1; }

echo "== node2 back; the merge job's rerun command"
start_node node2
nodes_idle || { logs; fail "node2 did not come back"; }
rm "$merge_log"
started=$(date +%s)
# As printed, but its task's output beside the others' rather than in the source tree.
rerun_job=$(eval "${rerun/sbatch /sbatch --parsable --output=$work/task-%A_%a.out }")
jobs_done 300 || { squeue; logs; fail "the rerun and its merge did not end in 300 s"; }
echo "took $(($(date +%s) - started)) s; the rerun (task, state, node):"
second_run=$(tasks_of "$rerun_job")
echo "$second_run"
grep -q "cells already recorded" "$work/task-${rerun_job}_$victim.out" ||
  { cat "$work/task-${rerun_job}_$victim.out"; fail "the rerun of task $victim did not resume"; }

# Each shard's files name the node(s) its task ran on.
for task in 0 1 2; do
  ran_on=$(cat <(echo "$first_run") <(echo "$second_run") |
    awk -v t="$task" '$1 == t && $3 != "(null)" { print $3 }' | sort -u | paste -sd ' ')
  recorded=$(find "$work/results/shard-$task" -name '*.json' -exec grep -ho '"slurm_node": "[^"]*"' {} + |
    sed 's/.*: "\(.*\)"/\1/' | sort -u | paste -sd ' ')
  echo "shard $((task + 1))/3 (task $task): ran on $ran_on; its files record $recorded"
  [[ -n $recorded ]] || fail "shard $((task + 1))/3 records no slurm_node"
  for node in $recorded; do
    [[ " $ran_on " == *" $node "* ]] ||
      fail "shard $((task + 1))/3 records slurm_node $node, which did not run task $task"
  done
done

merge_log=$(compgen -G "$work/results/merge-*.out" | head -n 1)
if grep -q "^report written to" "$merge_log" 2>/dev/null; then
  grep -E "^merged|differ in slurm_node" "$merge_log"
  diff <(cells_in "$work/full") <(cells_in "$work/results/merged") >/dev/null ||
    fail "the merged cells differ from the unsharded run's"
  same_tables "$work/full/report" "$work/results/merged/report" ||
    fail "the merged tables differ from the unsharded run's"
else
  cat "$merge_log" 2>/dev/null
  logs
  fail "the merge job after the rerun did not write its report"
fi
[[ $failures == 0 ]] || { echo "$failures failures"; exit 1; }
echo "all passed: a 3-task job array on 2 nodes, a killed node's task named, rerun and resumed," \
  "and the merge equal to the unsharded run"
