#!/usr/bin/env python3
"""Fails, naming the include, where the source folders' #include lines break the layering:
a folder includes one of a higher layer, a folder of the same layer (codecs do not include
each other), or the folders' include graph has a loop.

usage: layers_test.py SOURCE_DIR [--mermaid]
  --mermaid  print the folders' include graph as a Mermaid flowchart instead (docs/architecture.md
             draws it): one box a folder (every codec's folder as codecs/*), the layers bottom to
             top, an include that runs up or across the layers dashed and labelled
"""
import fnmatch
import os
import re
import sys
from pathlib import Path

# Low to high: a folder may include its own files and those of lower layers only. Folders of
# one layer are independent of each other.
LAYERS = [
    ["include/gcbench"],  # the API every layer codes against
    ["src/core"],  # its implementation
    ["src/results", "src/cli", "src/cuda"],  # result files, command lines, the CUDA runtime
    ["corpora"],  # the inputs: corpora and synthetic data
    ["codecs/common", "codecs/entropy"],  # what codecs share: CRC-32, containers, the range coder
    ["codecs/*", "baselines/*"],  # the codecs, each in its own folder
    ["src/gpu"],  # the pipeline over any device codec
    ["registry"],  # the table of every codec
    ["reports"],  # the report tool, whose result reader the driver's exports share
    ["bench/*"],  # the driver; it and the report name no study
    ["studies"],  # the presets and their tables, declared as data over both engines
    ["programs/*"],  # gcbench's and gcbench-report's main(), which hand the studies to the engines
]
# Above every layer, and held only to the graph having no loop.
UNLAYERED = ["tests", "examples/*"]
TOP_FOLDERS = ["include", "src", "codecs", "baselines", "registry", "bench", "reports",
               "studies", "programs", "corpora", "tests", "examples"]
SOURCE_SUFFIXES = {".c", ".h", ".cpp", ".hpp", ".cu", ".cuh"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def folder_of(path):
    """The folder a repository path belongs to: codecs/rle for codecs/rle/detail/x.cuh."""
    parts = path.split("/")
    if parts[0] in ("tests", "registry", "reports", "studies", "corpora") or len(parts) < 3:
        return parts[0]
    return "/".join(parts[:2])


def layer_of(folder):
    for index, patterns in enumerate(LAYERS):
        if any(fnmatch.fnmatchcase(folder, p) for p in patterns):
            return index
    return None


def resolve(root, including, name):
    """The repository path an include names, or None for a header from outside the tree."""
    for base in (including.parent, root, root / "include"):
        candidate = (base / name).resolve()
        if candidate.is_file() and candidate.is_relative_to(root):
            return candidate.relative_to(root).as_posix()
    return None


def includes(root):
    """(file, line, included file) for every quoted include of a file in the tree."""
    for top in TOP_FOLDERS:
        for directory, _, files in os.walk(root / top):
            for file in sorted(files):
                path = Path(directory) / file
                if path.suffix not in SOURCE_SUFFIXES:
                    continue
                text = path.read_text(encoding="utf-8", errors="replace")
                for match in INCLUDE.finditer(text):
                    target = resolve(root, path, match.group(1))
                    if target is not None:
                        line = text.count("\n", 0, match.start()) + 1
                        yield path.relative_to(root).as_posix(), line, target


def find_loop(edges):
    """A list of folders that include each other in a circle, or None."""
    state = {}

    def visit(node, trail):
        state[node] = "open"
        trail.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == "open":
                return trail[trail.index(nxt):] + [nxt]
            if nxt not in state:
                loop = visit(nxt, trail)
                if loop:
                    return loop
        trail.pop()
        state[node] = "done"
        return None

    for node in sorted(edges):
        if node not in state:
            loop = visit(node, [])
            if loop:
                return loop
    return None


def collapsed(folder):
    """A folder as the drawing shows it: each codec's and baseline's folder as one box."""
    for group in ("codecs", "baselines", "programs", "examples"):
        if folder.startswith(group + "/") and folder not in ("codecs/common", "codecs/entropy"):
            return group + "/*"
    return folder


def mermaid(edges):
    """The include graph as a Mermaid flowchart, lowest layer at the bottom."""
    node = lambda f: "n_" + "".join(c if c.isalnum() else "_" for c in f)
    graph = {}
    for source, targets in edges.items():
        for dest in targets:
            a, b = collapsed(source), collapsed(dest)
            if a != b and not any(fnmatch.fnmatchcase(a, p) for p in UNLAYERED):
                graph.setdefault(a, set()).add(b)
    folders = sorted(set(graph) | {b for t in graph.values() for b in t})
    lines = ["flowchart BT"]
    for index, patterns in enumerate(LAYERS):
        members = [f for f in folders if layer_of(f) == index]
        if members:
            lines.append(f"  subgraph L{index} [layer {index}]")
            lines += [f'    {node(f)}["{f}"]' for f in members]
            lines.append("  end")
    for f in folders:
        if layer_of(f) is None:
            lines.append(f'  {node(f)}["{f} (no layer)"]')
    for source in sorted(graph):
        for dest in sorted(graph[source]):
            low, high = layer_of(dest), layer_of(source)
            up = low is not None and high is not None and low >= high
            arrow = "-.->|up|" if up else "-->"
            lines.append(f"  {node(source)} {arrow} {node(dest)}")
    return "\n".join(lines)


DRAWING_MARKER = "<!-- layers: python3 tests/layers_test.py . --mermaid -->"


def drawing_in_docs(root):
    """The Mermaid block under DRAWING_MARKER in docs/architecture.md, or None without one."""
    page = root / "docs" / "architecture.md"
    if not page.is_file():
        return None
    text = page.read_text(encoding="utf-8")
    if DRAWING_MARKER not in text:
        return None
    block = text.split(DRAWING_MARKER, 1)[1].split("```mermaid\n", 1)[1]
    return block.split("\n```", 1)[0]


def main():
    root = Path(sys.argv[1]).resolve()
    errors = []
    edges = {}
    count = 0
    for file, line, target in includes(root):
        count += 1
        source, dest = folder_of(file), folder_of(target)
        if source == dest:
            continue
        edges.setdefault(source, set()).add(dest)
        if any(fnmatch.fnmatchcase(source, p) for p in UNLAYERED):
            continue
        low, high = layer_of(dest), layer_of(source)
        if low is None or high is None:
            continue
        if low > high:
            errors.append(f"{file}:{line}: {source} includes {target} of a higher layer")
        elif low == high:
            errors.append(f"{file}:{line}: {source} includes {target} of the same layer")
    if sys.argv[2:] == ["--mermaid"]:
        print(mermaid(edges))
        return 0
    drawn = drawing_in_docs(root)
    if drawn is not None and drawn != mermaid(edges):
        errors.append("docs/architecture.md's drawing of the layers differs from the code: "
                      "paste `python3 tests/layers_test.py . --mermaid` under its marker")
    loop = find_loop(edges)
    if loop:
        errors.append("the folders include each other in a loop: " + " -> ".join(loop))
    if count == 0:
        errors.append(f"no includes found under {root}")
    for error in errors:
        print(error)
    print(f"{count} includes between {len(edges)} folders checked; {len(errors)} errors")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
