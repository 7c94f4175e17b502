#!/usr/bin/env python3
"""The loops of a kernel's SASS and what each holds: instructions to count before a device call.

usage: python3 bench/device/sass_loops.py SASS_FILE [--kernel REGEX]
       python3 bench/device/sass_loops.py --build DIR --source FILE.cu [--kernel REGEX]
                                          [--nvdisasm PATH] [--arch sm_90]

A GPU kernel bound by its instruction count (the LZ77 warp design's parse: bench/NOTES.md) gets
faster only with fewer instructions in its hot loops, which the SASS shows without a GPU. With
--build, FILE.cu is compiled to a cubin with the build's own command for it (ninja's) and
disassembled by nvdisasm (not in the CUDA toolkit's nvcc-only installs: `pip download
nvidia-cuda-nvdisasm`, whose wheel holds bin/nvdisasm, then --nvdisasm or PATH). A SASS_FILE is
nvdisasm's or cuobjdump -sass's text (what the device recipe lz77-warp keeps).

Per kernel whose name matches --kernel: its instructions, then each loop (a branch back to an
address at or before it), nesting shown by indent, with its instructions and how many of them
are shared-memory loads and stores, global loads and stores, warp shuffles and votes (SHFL,
VOTE, REDUX, MATCH), barriers (BAR, WARPSYNC, BSYNC) and branches. Static counts: a loop's body
once, whatever its trip count or the paths taken through it.
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field

INSTRUCTION = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")
NVDISASM_FUNCTION = re.compile(r"^//-+ \.text\.(\S+) -+$")
CUOBJDUMP_FUNCTION = re.compile(r"^\s*Function : (\S+)")
LABEL = re.compile(r"^(\.L_x_\d+):")
TARGET = re.compile(r"`\((\.L_x_\d+)\)|\b(0x[0-9a-f]+)\b")
PREDICATE = re.compile(r"^@!?U?P[T\d]\s+")
CLASSES = {
    "LDS": ("LDS",),
    "STS": ("STS",),
    "LDG/STG": ("LDG", "STG"),
    "shfl/vote": ("SHFL", "VOTE", "REDUX", "MATCH"),
    "barrier": ("BAR", "WARPSYNC", "BSYNC"),
    "branch": ("BRA",),
}


@dataclass
class Kernel:
    name: str
    instructions: list = field(default_factory=list)  # (address, opcode, text)
    labels: dict = field(default_factory=dict)  # label -> address of the next instruction


def parse(text):
    """The kernels of nvdisasm's or cuobjdump's SASS text, in order."""
    kernels, pending = [], []
    for line in text.splitlines():
        start = NVDISASM_FUNCTION.match(line) or CUOBJDUMP_FUNCTION.match(line)
        if start:
            kernels.append(Kernel(start.group(1)))
            pending = []
            continue
        if not kernels:
            continue
        label = LABEL.match(line.strip())
        if label:
            pending.append(label.group(1))
            continue
        m = INSTRUCTION.search(line)
        if m:
            address, body = int(m.group(1), 16), PREDICATE.sub("", m.group(2))
            for name in pending:
                kernels[-1].labels[name] = address
            pending = []
            kernels[-1].instructions.append((address, body.split()[0], body))
    return kernels


def loops(kernel):
    """(first, last) addresses of each backward branch's loop, outermost first."""
    found = set()
    for address, opcode, text in kernel.instructions:
        if not opcode.startswith("BRA"):
            continue
        for label, literal in TARGET.findall(text):
            target = kernel.labels.get(label) if label else int(literal, 16)
            # A branch to itself is the trap after a kernel's last instruction, not a loop.
            if target is not None and target < address:
                found.add((target, address))
    return sorted(found, key=lambda span: (span[0], -span[1]))


def census(kernel, first, last):
    counts = {name: 0 for name in CLASSES}
    total = 0
    for address, opcode, _ in kernel.instructions:
        if first <= address <= last:
            total += 1
            for name, prefixes in CLASSES.items():
                if opcode.split(".")[0] in prefixes:
                    counts[name] += 1
    return total, counts


def demangled(name):
    if shutil.which("c++filt"):
        out = subprocess.run(["c++filt", name], capture_output=True, text=True).stdout.strip()
        if out:
            return out
    return name


def report(kernels, pattern):
    shown = 0
    for kernel in kernels:
        if pattern and not re.search(pattern, kernel.name) and not re.search(
                pattern, demangled(kernel.name)):
            continue
        shown += 1
        print(f"{demangled(kernel.name)}: {len(kernel.instructions)} instructions")
        spans = loops(kernel)
        if not spans:
            continue
        print(f"  {'loop (addresses)':<28} {'instructions':>12} " +
              " ".join(f"{name:>10}" for name in CLASSES))
        for first, last in spans:
            depth = sum(1 for a, b in spans if a <= first and last <= b and (a, b) != (first, last))
            total, counts = census(kernel, first, last)
            where = "  " * depth + f"{first:#06x}-{last:#06x}"
            print(f"  {where:<28} {total:>12} " +
                  " ".join(f"{counts[name]:>10}" for name in CLASSES))
    return shown


def disassemble(build, source, nvdisasm, arch):
    """nvdisasm's text of FILE.cu compiled as the build compiles it, to a cubin for `arch`."""
    targets = subprocess.run(["ninja", "-C", build, "-t", "targets", "all"], capture_output=True,
                             text=True, check=True).stdout
    # CMake names the object after the source: <target>.dir/<path below the target>/<file>.o.
    wanted = [t for t in (line.split(":")[0] for line in targets.splitlines())
              if t.endswith("/" + os.path.basename(source) + ".o")]
    if len(wanted) > 1:
        parent = os.path.basename(os.path.dirname(os.path.abspath(source)))
        wanted = [t for t in wanted if f"/{parent}/" in t]
    if len(wanted) != 1:
        sys.exit(f"{source}: {len(wanted)} objects of it among {build}'s ninja targets, not one")
    command = subprocess.run(["ninja", "-C", build, "-t", "commands", wanted[0]],
                             capture_output=True, text=True, check=True).stdout.splitlines()[-1]
    words = shlex.split(command)
    with tempfile.TemporaryDirectory() as tmp:
        cubin = os.path.join(tmp, "kernel.cubin")
        out, skip = [], False
        for w in words:
            if skip:
                skip = False
                continue
            if w in ("-o", "-MF", "-MT"):
                skip = True
                continue
            if w in ("-c", "-MD") or w.startswith("--generate-code") or w.startswith("-gencode"):
                continue
            out.append(w)
        out += ["-cubin", f"-arch={arch}", "-o", cubin]
        subprocess.run(out, cwd=build, check=True)
        return subprocess.run([nvdisasm, "-c", cubin], capture_output=True, text=True,
                              check=True).stdout


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("sass", nargs="?", help="nvdisasm's or cuobjdump -sass's text")
    p.add_argument("--build", help="a configured build folder (ninja)")
    p.add_argument("--source", help="with --build: the .cu file to compile and disassemble")
    p.add_argument("--kernel", help="a regex: the kernels shown (mangled or not)")
    p.add_argument("--nvdisasm", default=shutil.which("nvdisasm") or "nvdisasm")
    p.add_argument("--arch", default="sm_90")
    a = p.parse_args()
    if a.build and a.source:
        text = disassemble(a.build, a.source, a.nvdisasm, a.arch)
    elif a.sass:
        with open(a.sass) as f:
            text = f.read()
    else:
        p.error("give a SASS file, or --build and --source")
    if report(parse(text), a.kernel) == 0:
        sys.exit("no kernel matches" + (f" {a.kernel!r}" if a.kernel else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
