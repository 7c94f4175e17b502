#!/usr/bin/env python3
"""One device call: builds the tree once, then runs the named recipes' steps in order.

usage: python3 bench/device/run.py [--limit SECONDS] [--build DIR] [--no-build] [--no-nvcomp]
           [--set [RECIPE.]KEY=VALUE]... [--skip RECIPE:STEP]... [--recipes FILE]...
           [--dry-run] [--list] [RECIPE...]

Run from anywhere on the device machine, the repository's `.carry` carried (built here by
bench/device/make_carry.sh): `.carry/prefix` (headers and libraries the machine lacks),
`.carry/corpora` (the corpus mirror), `.carry/nvcomp` or `.carry/nvcomp.tar.xz` (nvCOMP, else a
carried `.deps/nvcomp`), `.carry/bin` (tpchgen-cli) and `.carry/head` (a snapshot of HEAD, for
the recipes that compare it with the tree).

The recipes are data, studies/device_recipes.json; `--list` prints them. A recipe names the
targets it needs, its knobs with their defaults (`set`, replaced by `--set KEY=VALUE` for every
recipe of the call that has KEY, or `--set RECIPE.KEY=VALUE` for one), and its steps. A step is
a bash command with placeholders, or a compute-sanitizer run declared as `sanitize` (a gtest
binary and filter, or a command, under each of its tools), with a timeout in seconds, the
regex (or the name of one of the file's `patterns`) of the lines the summary shows, and
optionally `min_time` (the least time it needs left to start; 30 s or its timeout if shorter),
`env` and `lane`. Consecutive steps with a lane run beside each other, one lane after another
within each (a sanitize step's tools each in a lane of their own); the next step without a lane
waits for them all.

Placeholders: {root} the repository, {build} the build folder, {gcbench}, {report}
(gcbench-report), {tests} (the build's tests folder), {out} (this recipe's files that come
back), {work} (this recipe's folder on the machine, kept while it stays warm: results a later
call resumes), {head_gcbench} (gcbench built from .carry/head, for a recipe with "head"), and
the recipe's knobs. Values are pasted into the command as written.

What comes back, under $OUT (default /tmp/out): build.log, RECIPE.log (each step's command,
output, exit status and seconds) and RECIPE.tar.gz (what the steps wrote under {out}); the
device tool returns at most 8 files of 16 MiB each, and the runner says when there are more.
The steps end by --limit seconds after the start (the build included), so that archiving and
the transfers fit the device tool's 600 s. Exit status: 0 when every step ran and passed,
1 otherwise, 2 for a usage error.
"""
import argparse
import fnmatch
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import textwrap
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RECIPES = ROOT / "studies" / "device_recipes.json"
WORK = Path("/tmp/gcbench-device")
PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
BUILT_IN = ("root", "build", "gcbench", "report", "tests", "out", "work")
HEAD_ONLY = ("head_gcbench",)
SANITIZER_TOOLS = ("memcheck", "racecheck", "initcheck", "synccheck")
STEP_KEYS = {"name", "command", "sanitize", "timeout", "min_time", "summary", "env", "lane"}
RECIPE_KEYS = {"name", "about", "targets", "head", "set", "steps"}
DEFAULT_MIN_TIME = 30
SUMMARY_LINES = 20
RETURNED_FILES, RETURNED_BYTES = 8, 16 << 20
TIMED_OUT = 124
SKIPPED, NO_TIME = "skipped", "no time"


def load(paths):
    """(recipes by name, patterns by name) of the recipe files, later files adding to earlier."""
    recipes, patterns = {}, {}
    for path in paths:
        data = json.loads(Path(path).read_text())
        patterns.update(data.get("patterns", {}))
        for recipe in data["recipes"]:
            recipes[recipe["name"]] = recipe
    return recipes, patterns


def problems(recipe, patterns):
    """What is wrong with a recipe: unknown keys, missing fields, unknown placeholders."""
    name = recipe.get("name", "?")
    found = [f"{name}: unknown key {k}" for k in sorted(set(recipe) - RECIPE_KEYS)]
    if not recipe.get("about"):
        found.append(f"{name}: no about")
    if not isinstance(recipe.get("targets"), list):
        found.append(f"{name}: no list of targets (empty for none)")
    knobs = recipe.get("set", {})
    known = set(BUILT_IN) | set(knobs) | (set(HEAD_ONLY) if recipe.get("head") else set())
    for key, value in knobs.items():
        if key in BUILT_IN + HEAD_ONLY:
            found.append(f"{name}: knob {key} would hide the built-in placeholder")
        elif not PLACEHOLDER.fullmatch("{" + key + "}") or not isinstance(value, str):
            found.append(f"{name}: knob {key} needs a lower-case name and a string")
        elif set(PLACEHOLDER.findall(value)) - set(BUILT_IN):
            found.append(f"{name}: knob {key}'s default names more than the built-in placeholders")
    if not recipe.get("steps"):
        found.append(f"{name}: no steps")
    for step in recipe.get("steps", []):
        where = f"{name}:{step.get('name', '?')}"
        found += [f"{where}: unknown key {k}" for k in sorted(set(step) - STEP_KEYS)]
        if not step.get("name"):
            found.append(f"{where}: no name")
        if not isinstance(step.get("timeout"), int) or step["timeout"] <= 0:
            found.append(f"{where}: no timeout in seconds")
        if ("command" in step) == ("sanitize" in step):
            found.append(f"{where}: needs a command or a sanitize, not both")
        texts = [step.get("command", "")] + list(step.get("env", {}).values())
        sanitize = step.get("sanitize", {})
        if sanitize:
            if not sanitize.get("tools") or set(sanitize["tools"]) - set(SANITIZER_TOOLS):
                found.append(f"{where}: sanitize tools are some of {', '.join(SANITIZER_TOOLS)}")
            if ("binary" in sanitize) == ("command" in sanitize):
                found.append(f"{where}: sanitize needs a binary or a command, not both")
            texts += [sanitize.get(k, "") for k in ("binary", "filter", "command")]
            texts += sanitize.get("options", [])
        for text in texts:
            for unknown in sorted(set(PLACEHOLDER.findall(text)) - known):
                found.append(f"{where}: unknown placeholder {{{unknown}}}")
        summary = step.get("summary")
        if summary is not None:
            try:
                re.compile(patterns.get(summary, summary))
            except re.error as error:
                found.append(f"{where}: summary is no regex ({error})")
    return found


def fill(text, values):
    return PLACEHOLDER.sub(lambda m: values[m.group(1)], text)


class Step:
    def __init__(self, recipe, name, command, timeout, min_time, summary, env, lane):
        self.recipe, self.name, self.command = recipe, name, command
        self.timeout, self.min_time, self.summary = timeout, min_time, summary
        self.env, self.lane = env, lane
        self.status, self.seconds, self.lines, self.hidden = None, 0.0, [], 0

    @property
    def label(self):
        return f"{self.recipe}:{self.name}"


def steps_of(recipe, values, patterns):
    """The recipe's steps as commands, its placeholders filled and its sanitize steps expanded."""
    steps = []
    for spec in recipe["steps"]:
        env = {k: fill(v, values) for k, v in spec.get("env", {}).items()}
        summary = spec.get("summary")
        sanitize = spec.get("sanitize")
        commands = [(spec["name"], spec.get("command"), spec.get("lane"))]
        if sanitize:
            target = sanitize.get("command") or "{} --gtest_filter={}".format(
                sanitize["binary"], shlex.quote(sanitize.get("filter", "*")))
            commands = [(f"{spec['name']}-{tool}",
                         " ".join(["compute-sanitizer", "--tool", tool, "--error-exitcode", "99",
                                   *sanitize.get("options", []), target]),
                         spec.get("lane") and f"{spec['lane']}/{tool}")
                        for tool in sanitize["tools"]]
            summary = summary or "sanitizer"
        regex = re.compile(patterns.get(summary, summary)) if summary else None
        min_time = spec.get("min_time", min(DEFAULT_MIN_TIME, spec["timeout"]))
        steps += [Step(recipe["name"], name, fill(command, values), spec["timeout"], min_time,
                       regex, env, lane) for name, command, lane in commands]
    return steps


def blocks(steps):
    """The steps as blocks run one after another, each a list of lanes run side by side."""
    out = []
    for step in steps:
        if step.lane and out and out[-1][0][0].lane:
            lane = next((l for l in out[-1] if l[0].lane == step.lane), None)
            if lane is None:
                out[-1].append([step])
            else:
                lane.append(step)
        else:
            out.append([[step]])
    return out


class Runner:
    def __init__(self, args, out, deadline):
        self.args, self.out, self.deadline = args, out, deadline
        self.lock = threading.Lock()
        self.env = dict(os.environ)
        self.env.update(GCBENCH_CORPUS_MIRROR=str(ROOT / ".carry/corpora"),
                        GCBENCH_CORPUS_CACHE="/tmp/gcbench-corpus-cache",
                        PATH=f"{ROOT / '.carry/bin'}:{os.environ.get('PATH', '')}")

    def left(self):
        return self.deadline - time.monotonic()

    def say(self, text):
        with self.lock:
            print(text, flush=True)

    def run(self, command, log, timeout, env=None):
        """Exit status of a bash command (124 when cut off), its output appended to log."""
        with open(log, "a") as sink:
            process = subprocess.Popen(["bash", "-o", "pipefail", "-c", command], cwd=ROOT,
                                       stdout=sink, stderr=subprocess.STDOUT,
                                       env={**self.env, **(env or {})}, start_new_session=True)
            try:
                return process.wait(timeout=max(timeout, 1))
            except subprocess.TimeoutExpired:
                # The whole process group: a step's children (ctest's tests) must end with it.
                for sig, grace in ((signal.SIGTERM, 10), (signal.SIGKILL, None)):
                    try:
                        os.killpg(process.pid, sig)
                        process.wait(timeout=grace)
                        break
                    except (ProcessLookupError, subprocess.TimeoutExpired):
                        continue
                process.wait()
                sink.write(f"\n(cut off after {timeout:.0f} s)\n")
                return TIMED_OUT

    def step(self, step, recipe_log, scratch):
        left = self.left()
        if any(fnmatch.fnmatchcase(step.label, p) for p in self.args.skip):
            step.status, step.lines = SKIPPED, ["left out by --skip"]
        elif left < step.min_time:
            step.status = NO_TIME
            step.lines = [f"{max(left, 0):.0f} s left of --limit, the step needs {step.min_time} s"]
        if step.status is not None:
            self.say(f"== {step.label}: {step.status} ({step.lines[0]})")
            with self.lock, open(recipe_log, "a") as sink:
                sink.write(f"== {step.name}: {step.status} ({step.lines[0]})\n\n")
            return
        self.say(f"== {step.label} ({time.strftime('%H:%M:%S')}, {left:.0f} s left)")
        log = scratch / f"{step.label.replace('/', '_')}.log"
        start = time.monotonic()
        step.status = self.run(step.command, log, min(step.timeout, left), step.env)
        step.seconds = time.monotonic() - start
        output = log.read_text(errors="replace") if log.exists() else ""
        if step.summary:
            shown = [l.rstrip() for l in output.splitlines() if l.strip() and step.summary.search(l)]
            step.lines, step.hidden = shown[:SUMMARY_LINES], max(len(shown) - SUMMARY_LINES, 0)
        with self.lock, open(recipe_log, "a") as sink:
            sink.write(f"== {step.name}\n$ {step.command}\n{output}"
                       f"-- exit status {step.status}, {step.seconds:.1f} s\n\n")
        self.say(f"-- {step.label}: exit status {step.status}, {step.seconds:.1f} s")

    def recipe(self, name, steps, out_dir, work_dir):
        out_dir.mkdir(parents=True, exist_ok=True)
        work_dir.mkdir(parents=True, exist_ok=True)
        recipe_log = self.out / f"{name}.log"
        recipe_log.write_text("")
        with tempfile.TemporaryDirectory() as scratch:
            for block in blocks(steps):
                threads = [threading.Thread(target=lambda lane=lane: [
                    self.step(s, recipe_log, Path(scratch)) for s in lane]) for lane in block]
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join()
        if any(out_dir.iterdir()):
            with tarfile.open(self.out / f"{name}.tar.gz", "w:gz") as archive:
                archive.add(out_dir, arcname=name)
        shutil.rmtree(out_dir)


def nvcomp_root(dry_run):
    """The carried nvCOMP (unpacking .carry/nvcomp.tar.xz first), or None."""
    packed, unpacked = ROOT / ".carry/nvcomp.tar.xz", ROOT / ".carry/nvcomp"
    if packed.is_file() and not unpacked.is_dir():
        if dry_run:
            return unpacked
        with tarfile.open(packed) as archive:
            safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
            archive.extractall(ROOT / ".carry", **safe)
    for candidate in (unpacked, ROOT / ".deps/nvcomp"):
        if (candidate / "include/nvcomp.h").is_file():
            return candidate
    return None


def build_commands(source, build, targets, nvcomp):
    """configure and build commands: a Release build against the carried prefix, nvcc told C++20
    explicitly (the device machine's CMake needs it)."""
    prefix = ROOT / ".carry/prefix"
    configure = ["cmake", "-S", str(source), "-B", str(build), "-G", "Ninja",
                 f"-DCMAKE_PREFIX_PATH={prefix}", f"-DOPENSSL_ROOT_DIR={prefix}",
                 "-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_CUDA20_STANDARD_COMPILE_OPTION=-std=c++20",
                 "-DCMAKE_CUDA20_EXTENSION_COMPILE_OPTION=-std=c++20",
                 f"-DGCBENCH_NVCOMP_ROOT={nvcomp or ''}"]
    return [shlex.join(configure),
            shlex.join(["cmake", "--build", str(build), "-j", str(os.cpu_count() or 16),
                        "--target", *targets])]


def build(runner, jobs, dry_run):
    """Runs the builds side by side; on a failure prints its errors and returns False."""
    if dry_run:
        for _, commands in jobs:
            print("\n".join(f"$ {c}" for c in commands))
        return True
    log = runner.out / "build.log"
    logs = [log.with_suffix(f".{i}") for i in range(len(jobs))]
    status = [None] * len(jobs)

    def one(i):
        status[i] = runner.run(" && ".join(jobs[i][1]), logs[i], runner.left())

    runner.say(f"== build ({time.strftime('%H:%M:%S')}): {', '.join(j[0] for j in jobs)}")
    start = time.monotonic()
    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(jobs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    with open(log, "w") as sink:
        for part in logs:
            sink.write(part.read_text(errors="replace"))
            part.unlink()
    text = log.read_text(errors="replace").splitlines()
    runner.say(f"-- build: {time.monotonic() - start:.0f} s; " +
               "; ".join(l for l in text if l.startswith("-- gcbench:")))
    if all(s == 0 for s in status):
        return True
    marks = [i for i, l in enumerate(text) if re.search(r"error|FAILED", l)]
    shown = sorted({j for i in marks for j in range(max(i - 2, 0), min(i + 13, len(text)))})
    print("\n".join(text[j] for j in shown[:120]) or "\n".join(text[-40:]))
    print(f"build failed (exit status {status}); the whole log is {log}")
    return False


def table(steps):
    width = max([len(s.recipe) for s in steps] + [6]), max([len(s.name) for s in steps] + [4])
    rows = [f"{'recipe':{width[0]}}  {'step':{width[1]}}  {'status':>8}  {'seconds':>7}"]
    for s in steps:
        rows.append(f"{s.recipe:{width[0]}}  {s.name:{width[1]}}  {str(s.status):>8}  "
                    f"{s.seconds:7.1f}")
        rows += [f"    {line}" for line in s.lines]
        if s.hidden:
            rows.append(f"    ({s.hidden} more such lines in {s.recipe}.log)")
    return "\n".join(rows)


def knob_values(recipes, settings):
    """Each recipe's knobs: its defaults, then --set KEY=VALUE and --set RECIPE.KEY=VALUE."""
    values = {r["name"]: dict(r.get("set", {})) for r in recipes}
    for setting in settings:
        key, sep, value = setting.partition("=")
        name, _, knob = key.rpartition(".")
        wanted = [r for r in values if name in ("", r) and knob in values[r]]
        if not sep or not wanted:
            print(f"run.py: --set {setting}: takes [RECIPE.]KEY=VALUE, KEY a knob of a recipe "
                  "named here (--list)", file=sys.stderr)
            raise SystemExit(2)
        for recipe in wanted:
            values[recipe][knob] = value
    return values


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("names", nargs="*", metavar="RECIPE")
    parser.add_argument("--limit", type=float, default=570,
                        help="seconds from the start by which every step ends (default 570)")
    parser.add_argument("--build", default="build-device", help="the build folder")
    parser.add_argument("--no-build", action="store_true", help="use the build folder as it is")
    parser.add_argument("--no-nvcomp", action="store_true",
                        help="build without the carried .carry/nvcomp")
    parser.add_argument("--set", action="append", default=[], metavar="[RECIPE.]KEY=VALUE")
    parser.add_argument("--skip", action="append", default=[], metavar="RECIPE:STEP",
                        help="leave out the steps this glob matches ('*' builds alone)")
    parser.add_argument("--recipes", action="append", type=Path, metavar="FILE", dest="files",
                        help=f"recipe files (default {RECIPES.relative_to(ROOT)})")
    parser.add_argument("--dry-run", action="store_true", help="print the commands, run nothing")
    parser.add_argument("--list", action="store_true", help="the recipes and what each is for")
    args = parser.parse_args()
    recipes, patterns = load(args.files or [RECIPES])
    if args.list:
        for recipe in recipes.values():
            print(recipe["name"], textwrap.fill(recipe["about"], 96, initial_indent="    ",
                                                subsequent_indent="    "), "", sep="\n")
        return 0
    unknown = [n for n in args.names if n not in recipes]
    if unknown or not args.names:
        parser.error(f"name recipes of: {', '.join(recipes)}" +
                     (f" (not {', '.join(unknown)})" if unknown else ""))
    chosen = [recipes[n] for n in dict.fromkeys(args.names)]
    wrong = [p for r in chosen for p in problems(r, patterns)]
    if wrong:
        raise SystemExit("run.py: " + "\n".join(wrong))
    knobs = knob_values(chosen, args.set)

    out = Path(os.environ.get("OUT", "/tmp/out"))
    build_dir = (ROOT / args.build).resolve()
    built_in = {"root": str(ROOT), "build": str(build_dir),
                "gcbench": str(build_dir / "bench/driver/gcbench"),
                "report": str(build_dir / "reports/gcbench-report"),
                "tests": str(build_dir / "tests"),
                "head_gcbench": f"{build_dir}-head/bench/driver/gcbench"}
    steps, dirs = [], {}
    for recipe in chosen:
        name = recipe["name"]
        dirs[name] = (out / name, WORK / name)
        values = {**built_in, "out": str(dirs[name][0]), "work": str(dirs[name][1])}
        values.update({k: fill(v, values) for k, v in knobs[name].items()})
        steps += steps_of(recipe, values, patterns)

    runner = Runner(args, out, time.monotonic() + args.limit)
    targets = sorted({t for r in chosen for t in r["targets"]})
    nvcomp = None if args.no_nvcomp or args.no_build else nvcomp_root(args.dry_run)
    jobs = []
    if targets:
        jobs.append(("tree", build_commands(ROOT, build_dir,
                                            ["all"] if "all" in targets else targets, nvcomp)))
    if any(r.get("head") for r in chosen):
        jobs.append((".carry/head", build_commands(ROOT / ".carry/head", f"{build_dir}-head",
                                                   ["gcbench"], nvcomp)))
    if args.dry_run:
        if not args.no_build:
            build(runner, jobs, True)
        for step in steps:
            lane = f", lane {step.lane}" if step.lane else ""
            env = "".join(f"{k}={shlex.quote(v)} " for k, v in step.env.items())
            print(f"== {step.label} (timeout {step.timeout} s{lane})\n$ {env}{step.command}")
        return 0
    out.mkdir(parents=True, exist_ok=True)
    if jobs and not args.no_build and not build(runner, jobs, False):
        return 1
    for recipe in chosen:
        name = recipe["name"]
        runner.recipe(name, [s for s in steps if s.recipe == name], *dirs[name])
    print("\n" + table(steps))
    returned = sorted(p for p in out.rglob("*") if p.is_file())
    large = [p.name for p in returned if p.stat().st_size > RETURNED_BYTES]
    if len(returned) > RETURNED_FILES or large:
        print(f"run.py: {len(returned)} files under {out}, {len(large)} over 16 MiB "
              f"({', '.join(large)}): the device tool returns {RETURNED_FILES} of up to 16 MiB")
    return 0 if all(s.status in (0, SKIPPED) for s in steps) else 1


if __name__ == "__main__":
    sys.exit(main())
