#!/usr/bin/env python3
"""Writes a synthetic sharded sweep for timing gcbench-report --merge (bench/NOTES.md).

usage: synthetic_shards.py TEMPLATE.json OUT_DIR SHARDS REPETITIONS

TEMPLATE.json is one corpus file's gcbench results (e.g. a Silesia file of a main job); its
cells are copied onto the 12 Silesia files, REPETITIONS rows each, and split round robin into
SHARDS folders OUT_DIR/shard-K/silesia/<file>.json, each with the gcbench.plan a sharded
gcbench run writes.
"""
import copy
import json
import os
import sys

SILESIA = ["dickens", "mozilla", "mr", "nci", "ooffice", "osdb", "reymont", "samba", "sao",
           "webster", "xml", "x-ray"]


def main():
    template_path, out_dir, shards, repetitions = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    with open(template_path) as f:
        template = json.load(f)
    source_file = template["benchmarks"][0]["run_name"].split("/")[4]
    plan = []
    per_shard = [dict() for _ in range(shards)]  # file -> rows
    for name in SILESIA:
        for row in template["benchmarks"]:
            cell = row["run_name"].replace("/" + source_file + "/", "/" + name + "/", 1)
            shard = len(plan) % shards
            plan.append([cell.rsplit("/real_time", 1)[0].rsplit("/manual_time", 1)[0], shard + 1])
            for rep in range(repetitions):
                r = copy.deepcopy(row)
                r["name"] = r["run_name"] = cell
                r["repetitions"] = repetitions
                r["repetition_index"] = rep
                per_shard[shard].setdefault(name, []).append(r)
    for k, files in enumerate(per_shard, start=1):
        root = os.path.join(out_dir, "shard-%d" % k)
        os.makedirs(os.path.join(root, "silesia"), exist_ok=True)
        context = dict(template["context"], shard="%d/%d" % (k, shards))
        for name, rows in files.items():
            with open(os.path.join(root, "silesia", name + ".json"), "w") as f:
                json.dump({"context": context, "benchmarks": rows}, f, indent=2)
        with open(os.path.join(root, "gcbench.plan"), "w") as f:
            json.dump({"format": "gcbench shard plan 1", "shard": k, "shards": shards,
                       "cells": plan}, f)
    print("%d cells, %d rows in %d shards under %s" % (len(plan), len(plan) * repetitions, shards, out_dir))


if __name__ == "__main__":
    main()
