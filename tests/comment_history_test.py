#!/usr/bin/env python3
"""Fails, listing file:line, where a comment in a tracked source file names a work session or a
date, or quotes a measured figure (those belong in bench/NOTES.md and commit messages), or cites
SPEC, a document the repository does not hold.

usage: comment_history_test.py SOURCE_DIR  (exits 77, skipped, where SOURCE_DIR is no git checkout)
"""
import io
import re
import subprocess
import sys
import tokenize
from pathlib import Path

# Every tracked source is checked but these: results and notes are records, not code.
# third_party/ is others' code, vendored unchanged.
SKIPPED_PREFIXES = ("evidence/", "notes/", "bench/NOTES.md", "third_party/")
# Tests state their fixtures' figures (the inputs and the values they assert), not measurements.
FIXTURE_PREFIXES = ("tests/",)

C_LIKE = {".c", ".h", ".cpp", ".hpp", ".cu", ".cuh"}
HASH_COMMENTED = {".cmake", ".sh", ".sbatch"}

MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
# A work session named by its number (perhaps on the next line) or by its place, or a date.
HISTORY = re.compile(
    r"\bsessions?\s*(?:#?\d+|$)|\bsession\d+"
    r"|\b(?:this|last|previous|next|later|earlier|that)\s+session\b"
    rf"|\b20\d\d-[01]\d-[0-3]\d\b|\b{MONTH}\s+(?:[0-3]?\d,\s*)?20\d\d\b", re.I)
# SPEC, a document the repository does not hold, by section: name the file or the thesis instead.
SPEC = re.compile(r"\bSPEC\s+(?:sections?\s+)?\d")
NUMBER = r"\d(?:[\d.,]*\d)?"
# A measured figure: a throughput, a percentage (not a "±" spread in an example of output), a
# speed-up, a timing below a second, or a timing said to be taken ("about" so many seconds). Sizes
# ("32 MiB chunks", "4 bytes"), counts and limits ("within 10 minutes") are constants and pass.
FIGURE = re.compile(
    rf"{NUMBER}\s*(?:[KMGT]i?B|[KMGT]?bytes?|[KMGT]?bit)/s\b"
    rf"|(?<![±\d.,]){NUMBER}\s*%"
    rf"|{NUMBER}\s*[x×]\s+(?:faster|slower|quicker|speed|as fast)"
    rf"|{NUMBER}\s*(?:ns|us|µs|ms)\b"
    rf"|(?:about|~|took|takes|lasted|lasts|ran in|runs in)\s*{NUMBER}\s*"
    r"(?:s|sec|seconds?|min|minutes?|h|hours?)\b", re.I)

FLAGGED = ("SPEC 1.4", "SPEC section 4", "session 42", "sessions 36 and", "this session",
           "(seen on 2026-11-23)", "November 2026", "1990 against 1495 GB/s", "15 MB/s",
           "2.4% slower", "3.2x faster", "took 12 us", "about 430 s on a fresh H100", "~0.2 s")
PASSED = ("32 MiB chunks", "4 bytes", "within 10 minutes", "0.2 s or 20 runs each", "12.3 ±2.1%",
          "GB/s counts output bytes", "a 4 KiB chunk", "issue 14", "SHA-256 of 5 MiB + 3 bytes",
          "session state", "sm_90", "256 x 16 bytes", "CUDA_SPEC 4")


def self_check():
    """The patterns flag history and pass constants: a guard against loosening them by mistake."""
    def flags(text):
        return HISTORY.search(text) or FIGURE.search(text) or SPEC.search(text)
    wrong = [t for t in FLAGGED if not flags(t)] + [t for t in PASSED if flags(t)]
    if wrong:
        raise SystemExit(f"comment_history_test.py: the patterns misjudge {wrong}")


def c_like_comments(text):
    """(line, text) of every comment line in C, C++ or CUDA source."""
    i, line, n = 0, 1, len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            yield line, text[i + 2:end]
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end
            for offset, part in enumerate(text[i + 2:end].split("\n")):
                yield line + offset, part
            line += text.count("\n", i, end)
            i = end + 2
        elif text.startswith('R"', i) and not (i and (text[i - 1].isalnum() or text[i - 1] == "_")):
            open_paren = text.find("(", i + 2)
            closing = ")" + text[i + 2:open_paren] + '"'
            end = text.find(closing, open_paren)
            end = n if end < 0 else end + len(closing)
            line += text.count("\n", i, end)
            i = end
        elif c == '"' or (c == "'" and not (i and text[i - 1].isalnum())):  # not 1'000
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        else:
            i += 1


def hash_comments(text):
    """(line, text) of every # comment in CMake or shell: a # that starts a word outside quotes."""
    for number, source in enumerate(text.split("\n"), 1):
        if number == 1 and source.startswith("#!"):
            continue
        quote = None
        for j, c in enumerate(source):
            if quote:
                if c == quote and (quote == "'" or source[j - 1] != "\\"):
                    quote = None
            elif c in "\"'":
                quote = c
            elif c == "#" and (j == 0 or source[j - 1] in " \t;(|&"):
                yield number, source[j + 1:]
                break


def python_comments(text):
    """(line, text) of every Python comment."""
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT and not (token.start[0] == 1
                                                    and token.string.startswith("#!")):
            yield token.start[0], token.string[1:]


def comments(path, text):
    """(line, text) of every comment line in `path`, or nothing for a file that is not code."""
    if path.suffix in C_LIKE:
        return c_like_comments(text)
    if path.suffix == ".py":
        return python_comments(text)
    if path.suffix in HASH_COMMENTED or path.name == "CMakeLists.txt" or text.startswith("#!/"):
        return hash_comments(text)
    return ()


def checked_files(root):
    listed = subprocess.run(["git", "-C", str(root), "ls-files", "-z"], capture_output=True,
                            check=True).stdout.decode().split("\0")
    return [name for name in listed if name and not name.startswith(SKIPPED_PREFIXES)]


def findings_in(name, text):
    path = Path(name)
    patterns = [("names a session or a date", HISTORY), ("names SPEC, not in the repository", SPEC)]
    if not name.startswith(FIXTURE_PREFIXES):
        patterns.append(("quotes a measured figure", FIGURE))
    for line, comment in comments(path, text):
        for kind, pattern in patterns:
            match = pattern.search(comment)
            if match:
                yield f"{name}:{line}: {kind} ({match.group(0).strip()!r}): {comment.strip()}"


def main(root):
    self_check()
    try:
        files = checked_files(root)
    except (OSError, subprocess.CalledProcessError) as error:
        print(f"skipped: {root} is not a git checkout ({error})")
        return 77
    findings = []
    for name in files:
        path = Path(root, name)
        if not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # binary: fuzz seeds
        findings += findings_in(name, text)
    print("\n".join(findings + [f"{len(files)} files checked, {len(findings)} comments with history"
                                " (measurements go to bench/NOTES.md and commit messages)"]))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
