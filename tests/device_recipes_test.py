#!/usr/bin/env python3
"""The device runs' recipes hold together (ctest `device_recipes`, label cpu): every recipe of
studies/device_recipes.json parses with a name, an about, targets and steps, every step has a
timeout and a command or a sanitize, every placeholder is a built-in one or a knob of its recipe,
and bench/device/run.py prints each recipe's commands (--dry-run) and lists them all (--list).

usage: device_recipes_test.py SOURCE_DIR
"""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path


def load_runner(root):
    spec = importlib.util.spec_from_file_location("device_run", root / "bench/device/run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(root):
    runner = load_runner(root)
    data = json.loads((root / "studies/device_recipes.json").read_text())
    names = [r.get("name") for r in data["recipes"]]
    failures = [f"recipe {n} declared twice" for n in set(names) if names.count(n) > 1]
    patterns = data.get("patterns", {})
    for recipe in data["recipes"]:
        failures += runner.problems(recipe, patterns)
    # A mistake problems() must catch, so that its silence above means something.
    broken = {"name": "broken", "about": "x", "targets": ["gcbench"],
              "steps": [{"name": "s", "command": "{gcbench} {nowhere}"}]}
    if len(runner.problems(broken, patterns)) != 2:
        failures.append(f"problems() misses a broken recipe: {runner.problems(broken, patterns)}")

    run = [sys.executable, str(root / "bench/device/run.py")]
    with tempfile.TemporaryDirectory() as out:
        env = {**os.environ, "OUT": out}
        listed = subprocess.run(run + ["--list"], capture_output=True, text=True, env=env)
        if listed.returncode != 0 or any(f"{n}\n" not in listed.stdout for n in names):
            failures.append(f"--list: exit status {listed.returncode}: {listed.stderr.strip()}")
        for name in names:
            dry = subprocess.run(run + ["--dry-run", name], capture_output=True, text=True, env=env)
            if dry.returncode != 0 or "$ " not in dry.stdout:
                failures.append(f"--dry-run {name}: exit status {dry.returncode}: "
                                f"{dry.stderr.strip()}")
            elif runner.PLACEHOLDER.search(dry.stdout):
                failures.append(f"--dry-run {name}: a placeholder left unfilled")
        if os.listdir(out):
            failures.append(f"--dry-run wrote under $OUT: {os.listdir(out)}")

    print("\n".join(failures + [f"{len(names)} recipes checked, {len(failures)} problems"]))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()))
