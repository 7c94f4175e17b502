#!/usr/bin/env python3
"""Two Nsight Compute profiles of the same kernels side by side: what changed besides the time.

usage: python3 bench/device/ncu_compare.py BASE.csv NEW.csv [--all]

Each CSV is `ncu -i PROFILE.ncu-rep --page details --csv` (the recipe profile-versions writes
them; lines before its header, such as the driver's own output, are skipped). Per kernel name
and metric, the mean over the profiled launches of each side; the table shows the figures that
say why a version is faster or slower (time, instructions, issue rate, occupancy, registers,
and the warp stall reasons, each as cycles a warp waits per issued instruction), `--all` every
metric both sides have. Kernels are matched by name without their parameters; one that only
one side has is named below the table.
"""
import argparse
import csv
import re
import sys
from collections import defaultdict

HEADLINE = re.compile(
    r"^(Duration|Executed Instructions|Issued Instructions|Warp Cycles Per Issued Instruction|"
    r"Issue Slots Busy|No Eligible|Eligible Warps Per Scheduler|Achieved Occupancy|"
    r"Theoretical Occupancy|Registers Per Thread|Executed Ipc Active|Compute \(SM\) Throughput|"
    r"DRAM Throughput|L1/TEX Cache Throughput)$"
    r"|^smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio$"
)
STALL = re.compile(r"^smsp__average_warps_issue_stalled_(.*)_per_issue_active\.ratio$")


def read(path):
    """{(kernel, metric, unit): mean value} and {kernel: launches} of one details CSV."""
    with open(path, newline="") as f:
        lines = f.readlines()
    start = next((i for i, line in enumerate(lines) if line.startswith('"ID",')), None)
    if start is None:
        raise SystemExit(f"{path}: no ncu details header (\"ID\",...)")
    sums, counts, launches = defaultdict(float), defaultdict(int), defaultdict(set)
    for row in csv.DictReader(lines[start:]):
        value = (row.get("Metric Value") or "").replace(",", "")
        try:
            number = float(value)
        except ValueError:
            continue  # a rule's text, or a metric ncu could not read
        # The name without its parameters: a version that changes a kernel's arguments still
        # meets its baseline.
        kernel = row["Kernel Name"].split("(")[0].strip()
        key = (kernel, row["Metric Name"], row["Metric Unit"])
        sums[key] += number
        counts[key] += 1
        launches[kernel].add(row["ID"])
    means = {key: sums[key] / counts[key] for key in sums}
    return means, {kernel: len(ids) for kernel, ids in launches.items()}


def short_metric(name):
    stall = STALL.match(name)
    return f"stall: {stall.group(1)}" if stall else name


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("base")
    parser.add_argument("new")
    parser.add_argument("--all", action="store_true", help="every metric both sides have")
    args = parser.parse_args()
    base, base_launches = read(args.base)
    new, new_launches = read(args.new)
    print(f"BASE: {args.base}\nNEW: {args.new}\n")
    print("| kernel | metric | unit | BASE | NEW | NEW/BASE |")
    print("|---|---|---|---:|---:|---:|")
    for key in sorted(set(base) & set(new)):
        kernel, metric, unit = key
        if not args.all and not HEADLINE.match(metric):
            continue
        b, n = base[key], new[key]
        ratio = f"{n / b:.2f}x" if b else "-"
        print(f"| {kernel} | {short_metric(metric)} | {unit} | {b:.4g} | {n:.4g} | {ratio} |")
    for kernel in sorted(set(base_launches) | set(new_launches)):
        b, n = base_launches.get(kernel, 0), new_launches.get(kernel, 0)
        if b == 0 or n == 0:
            print(f"\n{kernel}: profiled only in {'NEW' if b == 0 else 'BASE'}")
        elif b != n:
            print(f"\n{kernel}: {b} launches in BASE, {n} in NEW (means compared)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
