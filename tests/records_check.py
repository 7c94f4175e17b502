#!/usr/bin/env python3
"""The committed records refer only to what is committed (ctest `records`, label cpu).

Usage: records_check.py REPO_ROOT

Two checks over the tree:

1. Links. Every relative link in a committed report under evidence (`*.md`: Markdown
   links and images `[text](target)`; `*.html`: `href=` and `src=`), and in README.md,
   docs/*.md, bench/NOTES.md and notes/*.md, names a file or folder that exists,
   relative to the page; a page's inline scripts are not read (report.html inlines Plotly,
   whose strings are no links). Links with a scheme (http:, https:, mailto:, data:) and in-page
   anchors (#...) are not files and are skipped; an anchor after a path is cut off.

2. Repository paths. README.md, docs/*.md, bench/NOTES.md, notes/*.md and the READMEs
   under evidence name files of the repository; each must exist. What counts as a path:
   a word that starts with one of the repository's top-level folders and a slash
   (`bench/device/run.py`, `codecs/fl/`), or is one of its top-level files
   (`CMakeLists.txt`), anywhere in the text, prose or code. Not a path, and skipped:
   - a word right after `:`, `/`, `.`, `~`, `$` or a word character: `REV:path` names a
     file in git history (`git show REV:path`), `/tmp/x/bench/...` a machine's folder,
     `build/bench/driver/gcbench` a build output;
   - a path that .gitignore covers (`corpora/cache/`): made by a run, not committed.
   Placeholders in angle brackets and `*` are wildcards: `evidence/<gpu>/` must match
   at least one path. A trailing `:LINE`, `:LINE:COL` or punctuation is cut off.

Prints every dead link and path with its file and line, and exits 1 when there is one.
"""

import fnmatch
import os
import re
import subprocess
import sys

LINK_MD = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
LINK_HTML = re.compile(r"""(?:href|src)\s*=\s*["']([^"']+)["']""", re.IGNORECASE)
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
SCRIPT_BODY = re.compile(r"(<script\b[^>]*>)(.*?)(</script>)", re.IGNORECASE | re.DOTALL)


def without_script_bodies(text):
    """A page with the code of its inline scripts blanked (a library's strings are no links),
    its lines kept where they were."""
    return SCRIPT_BODY.sub(lambda m: m.group(1) + "\n" * m.group(2).count("\n") + m.group(3), text)


def tracked_files(root):
    """The files git tracks (the committed tree), or every file when git cannot say."""
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"], check=True,
                             capture_output=True).stdout.decode()
        files = [f for f in out.split("\0") if f]
        if files:
            return files
    except (OSError, subprocess.CalledProcessError):
        pass
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if not d.startswith((".git", "build"))]
        for name in filenames:
            found.append(os.path.relpath(os.path.join(dirpath, name), root))
    return found


def ignored(root, paths):
    """The paths .gitignore covers (existing or not)."""
    if not paths:
        return set()
    try:
        out = subprocess.run(["git", "-C", root, "check-ignore", "--no-index", "--stdin"],
                             input="\n".join(paths).encode(), capture_output=True).stdout
        return set(out.decode().splitlines())
    except OSError:
        return set()


def line_of(text, pos):
    return text.count("\n", 0, pos) + 1


def check_links(root, files, exists):
    dead = []
    for f in files:
        page = (f.startswith("evidence/") and f.endswith((".md", ".html"))) or is_doc(f)
        if not page:
            continue
        text = open(os.path.join(root, f), encoding="utf-8", errors="replace").read()
        pattern = LINK_MD if f.endswith(".md") else LINK_HTML
        if f.endswith(".html"):
            text = without_script_bodies(text)
        for m in pattern.finditer(text):
            target = m.group(1)
            if target.startswith("#") or SCHEME.match(target):
                continue
            target = target.split("#", 1)[0].split("?", 1)[0]
            resolved = os.path.normpath(os.path.join(os.path.dirname(f), target))
            if not exists(resolved):
                dead.append(f"{f}:{line_of(text, m.start())}: link to {target}: no such file")
    return dead


def path_pattern(top_dirs, top_files):
    dirs = "|".join(re.escape(d) for d in sorted(top_dirs, key=len, reverse=True))
    names = "|".join(re.escape(n) for n in sorted(top_files, key=len, reverse=True))
    word = r"[A-Za-z0-9_.+<>*@-]"
    return re.compile(r"(?<![\w:/.~$<-])((?:(?:%s)/(?:%s|/)*)|(?:%s)(?!%s))" %
                      (dirs, word, names, word))


def clean(token):
    token = re.sub(r"(?::\d+)+$", "", token)  # file.cpp:342, file.cpp:12:3
    token = token.rstrip(".,;:)")
    return token


HISTORY = re.compile(r"(?<![\w/.-])([0-9a-f]{7,40}):((?:bench|src|codecs|baselines|registry|reports|tests|include|docs|scripts|corpora|examples|cmake)/[A-Za-z0-9_.+*/-]*)")


def check_history(root, docs):
    """REV:path names: each must exist at REV, where this clone has REV."""
    dead, count = [], 0
    for f in docs:
        text = open(os.path.join(root, f), encoding="utf-8", errors="replace").read()
        for m in HISTORY.finditer(text):
            rev, path = m.group(1), clean(m.group(2)).rstrip("/")
            count += 1
            def git(*args):
                return subprocess.run(["git", "-C", root, *args], capture_output=True).returncode
            if git("cat-file", "-e", rev + "^{commit}") != 0:
                continue  # not in this clone (shallow): history cannot be checked here
            if "*" in path:
                parent = os.path.dirname(path)
                out = subprocess.run(["git", "-C", root, "ls-tree", "--name-only", rev, parent + "/"],
                                     capture_output=True, text=True).stdout.split()
                if not any(fnmatch.fnmatchcase(o, path) for o in out):
                    dead.append(f"{f}:{line_of(text, m.start())}: {rev}:{path}: matches nothing at {rev}")
            elif git("cat-file", "-e", f"{rev}:{path}") != 0:
                dead.append(f"{f}:{line_of(text, m.start())}: {rev}:{path}: not in {rev}")
    return dead, count


def is_doc(f):
    """README.md, docs/*.md, bench/NOTES.md, notes/*.md: the hand-written pages."""
    return (f in ("README.md", "bench/NOTES.md")
            or (f.startswith(("docs/", "notes/")) and f.endswith(".md")))


def check_paths(root, files, exists, matches_glob):
    docs = [f for f in files
            if is_doc(f) or (f.startswith("evidence/") and os.path.basename(f) == "README.md")]
    top_dirs = {f.split("/", 1)[0] for f in files if "/" in f}
    top_files = {f for f in files if "/" not in f and "." in f and not f.startswith(".")}
    top_dirs |= {".ci"} & {f.split("/", 1)[0] for f in files}
    pattern = path_pattern(top_dirs, top_files)
    named = []  # (doc, line, path)
    for f in docs:
        text = open(os.path.join(root, f), encoding="utf-8", errors="replace").read()
        for m in pattern.finditer(text):
            token = clean(m.group(1))
            if token:
                named.append((f, line_of(text, m.start()), token))
    skip = ignored(root, sorted({p for _, _, p in named if "<" not in p and "*" not in p}))
    dead = []
    for f, line, token in named:
        if token in skip or token.rstrip("/") in skip:
            continue
        if "<" in token or "*" in token:
            glob = re.sub(r"<[^>]*>", "*", token)
            if not matches_glob(glob.rstrip("/")):
                dead.append(f"{f}:{line}: {token}: matches no file")
        elif not exists(token.rstrip("/")):
            dead.append(f"{f}:{line}: {token}: no such file or folder")
    history_dead, history_count = check_history(root, docs)
    return dead + history_dead, len(named) + history_count


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    root = sys.argv[1]
    files = tracked_files(root)
    known = set(files)
    for f in files:
        parts = f.split("/")
        for i in range(1, len(parts)):
            known.add("/".join(parts[:i]))

    def exists(path):
        return path in known or path == "."

    def matches_glob(glob):
        return any(fnmatch.fnmatchcase(k, glob) for k in known)

    dead_links = check_links(root, files, exists)
    dead_paths, count = check_paths(root, files, exists, matches_glob)
    for line in dead_links + dead_paths:
        print(line)
    pages = sum(1 for f in files
                if (f.startswith("evidence/") and f.endswith((".md", ".html"))) or is_doc(f))
    print(f"records: the links of {pages} pages, {count} repository paths named in the docs; "
          f"{len(dead_links)} dead links, {len(dead_paths)} dead paths")
    return 1 if dead_links or dead_paths else 0


if __name__ == "__main__":
    sys.exit(main())
