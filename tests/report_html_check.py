#!/usr/bin/env python3
"""Opens a gcbench report.html in headless Chromium, as a reader would, and checks it.

usage: report_html_check.py REPORT_HTML [--headline-codecs CODEC[,CODEC...]]

Fails (exit status 1), saying why, on: a message in the browser's console (the page logs
nothing, so any message is an error: an uncaught exception, a resource that did not load, a
console.error), an error the page's own handler caught (its data-page-errors attribute), a
chart that Plotly did not draw, a script, stylesheet, image or frame from elsewhere (the page is
self-contained), or a link or image that does not resolve: a relative one to a missing file, a
#fragment to no element, any address with a scheme. Writes a screenshot of the page's top,
report.png, beside it and prints its path. Exit status 77 (skipped) when no Chromium is
installed: $GCBENCH_CHROMIUM, else the first of chromium-headless-shell, chromium on PATH.
With --headline-codecs, also fails unless every headline table, as the browser shows it, has a
row of each codec named with a figure in it.
"""

import html.parser
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse

CHARTS = ("chart-ratio", "chart-link")
WINDOW = "1400,2000"


class Dom(html.parser.HTMLParser):
    """The element ids, the addresses the page loads or links to, and the charts' classes."""

    def __init__(self):
        super().__init__()
        self.ids = set()
        self.loads = []  # (tag, address) of what the page loads: scripts, images, frames...
        self.links = []  # a href
        self.classes = {}  # id -> class, for the charts
        self.page_errors = None
        self.headlines = {}  # headline table id -> its rows, each a list of its cells' text
        self._headline = None  # the headline table being read
        self._cell = None  # the text of the cell being read

    def handle_endtag(self, tag):
        if tag == "table":
            self._headline = None
        elif tag in ("td", "th") and self._cell is not None:
            if self._headline is not None and self.headlines[self._headline]:
                self.headlines[self._headline][-1].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
            self.classes[a["id"]] = a.get("class") or ""
        if tag == "html":
            self.page_errors = a.get("data-page-errors")
        if tag == "table" and (a.get("id") or "").startswith("headline-"):
            self._headline = a["id"]
            self.headlines[self._headline] = []
        if self._headline is not None and tag == "tr":
            self.headlines[self._headline].append([])
        if tag in ("td", "th"):
            self._cell = []
        for key in ("src", "srcset", "data", "poster"):
            if a.get(key):
                self.loads.append((tag, a[key]))
        if tag == "link" and a.get("href"):
            self.loads.append((tag, a["href"]))
        if tag == "a" and a.get("href") is not None:
            self.links.append(a["href"])


def chromium():
    for name in (os.environ.get("GCBENCH_CHROMIUM"), "chromium-headless-shell", "chromium"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def run_browser(browser, profile, url, *flags):
    """Chromium's stdout (the DOM with --dump-dom) and its console lines (logged to stderr at
    INFO, as CONSOLE)."""
    cmd = [
        browser,
        "--headless",
        "--no-sandbox",  # CI runs as root
        "--disable-gpu",
        "--no-first-run",
        "--hide-scrollbars",
        f"--user-data-dir={profile}",
        f"--window-size={WINDOW}",
        "--enable-logging=stderr",
        "--v=0",
        "--virtual-time-budget=10000",
        *flags,
        url,
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    console = [line for line in done.stderr.splitlines() if ":CONSOLE" in line]
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or [""])[-1]
        console.append(f"chromium exited with status {done.returncode}: {last}")
    return done.stdout, console


def resolves(address, page, dom):
    """Why `address` does not resolve from the page, or None when it does."""
    parsed = urllib.parse.urlsplit(address)
    if parsed.scheme or parsed.netloc:
        return "an address outside the page's folder"
    if not parsed.path:
        return None if not parsed.fragment or parsed.fragment in dom.ids else "no such element"
    target = page.parent / urllib.parse.unquote(parsed.path)
    return None if target.exists() else f"no file {target}"


def headline_problems(dom, codecs):
    """What the headline tables lack of `codecs`: a row of each, with a figure in it."""
    if not dom.headlines:
        return ["no headline table"]
    problems = []
    for table, rows in sorted(dom.headlines.items()):
        for codec in codecs:
            row = next((r for r in rows if r and r[0] == codec), None)
            if row is None:
                problems.append(f"{table}: no row of {codec}")
            elif not any(any(ch.isdigit() for ch in text) for text in row[2:]):
                problems.append(f"{table}: {codec}'s row has no figure: {row}")
    return problems


def main(argv):
    codecs = []
    if len(argv) == 4 and argv[2] == "--headline-codecs":
        codecs = [c for c in argv[3].split(",") if c]
        argv = argv[:2]
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    page = pathlib.Path(argv[1]).resolve()
    if not page.is_file():
        print(f"report_html_check: no {page} (gcbench-report writes it where python3 imports "
              "plotly: Debian python3-plotly)", file=sys.stderr)
        return 1
    browser = chromium()
    if browser is None:
        print("report_html_check: skipped: no Chromium (Debian: chromium-headless-shell)")
        return 77
    start = time.monotonic()
    problems = []
    shot = page.with_suffix(".png")
    shot.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory() as profile:
        dom_text, console = run_browser(
            browser, profile, page.as_uri(), "--dump-dom", f"--screenshot={shot}"
        )
    problems += [f"console: {line}" for line in console]
    dom = Dom()
    dom.feed(dom_text)
    if not dom_text.strip():
        problems.append("Chromium returned no DOM")
    if dom.page_errors:
        problems.append(f"errors caught by the page: {dom.page_errors}")
    # report.html draws the charts; compare.html has none.
    for chart in CHARTS if page.name == "report.html" else ():
        if "js-plotly-plot" not in dom.classes.get(chart, ""):
            problems.append(f"chart #{chart} not drawn by Plotly")
    for tag, address in dom.loads:
        if not address.startswith("data:"):
            problems.append(f"<{tag}> loads {address}: not self-contained")
    for link in dom.links:
        why = resolves(link, page, dom)
        if why:
            problems.append(f"link {link}: {why}")
    if not shot.exists():
        problems.append(f"no screenshot written to {shot}")
    if codecs:
        problems += headline_problems(dom, codecs)
    for p in problems:
        print(f"report_html_check: {p}", file=sys.stderr)
    print(
        f"report_html_check: {page}: {len(dom.links)} links, {len(dom.ids)} elements with an id, "
        f"{len(problems)} problem(s), {time.monotonic() - start:.1f} s; screenshot {shot}"
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
