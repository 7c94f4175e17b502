#!/usr/bin/env python3
"""The plots' colour map (reports/plots/plot_style.py) is one function of the codec's name: the
same codec has the same colour and marker whatever else a plot holds, the codecs gcbench knows
have colours far apart, and any other name (a plugin's) gets one that is the same on every run.

usage: plot_style_test.py SOURCE_DIR
"""
import itertools
import math
import os
import subprocess
import sys
import unittest

SOURCE_DIR = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
PLOTS_DIR = os.path.join(SOURCE_DIR, "reports", "plots")
sys.path.insert(0, PLOTS_DIR)
import plot_style  # noqa: E402
from plot_style import codec_color, codec_style, series_marker  # noqa: E402

# The studies' table (studies/codec_styles.json), read by plot_style from the source tree here.
KNOWN = sorted(plot_style.CODEC_STYLES)
assert {"fl", "rle", "lz77", "gzip", "zlib"} <= set(KNOWN), KNOWN


def lab(color):
    """CIELAB (D65) of "#rrggbb", for the distance between two colours as the eye sees it."""
    def linear(c):
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(int(color[i:i + 2], 16) / 255) for i in (1, 3, 5))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t):
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def styles_in_fresh_process(names, seed):
    """codec_style of `names` as another Python process with another hash() salt gives it."""
    code = ("import sys; sys.path.insert(0, sys.argv[1]); from plot_style import codec_style; "
            "print(repr([codec_style(n) for n in sys.argv[2:]]))")
    out = subprocess.run([sys.executable, "-c", code, PLOTS_DIR, *names], check=True,
                         capture_output=True, text=True,
                         env={**os.environ, "PYTHONHASHSEED": str(seed)}).stdout
    return eval(out)  # the repr of a list of tuples of strings


class PlotStyle(unittest.TestCase):
    def test_a_codec_keeps_its_style_whatever_else_the_plot_holds(self):
        alone = {c: codec_style(c) for c in KNOWN + ["deltapack"]}
        # Asked in another order, among other names, again: the same answers.
        for c in reversed(KNOWN + ["deltapack", "zz-other", "aa-other"]):
            if c in alone:
                self.assertEqual(codec_style(c), alone[c], c)
        self.assertEqual(codec_color("gzip"), "#ff7f0e")  # fixed, not a position in a palette

    def test_the_known_codecs_have_distinct_colours_far_apart(self):
        for name in KNOWN:
            self.assertIn(name, plot_style.CODEC_STYLES)
        colours = [codec_color(c) for c in KNOWN]
        self.assertEqual(len(set(colours)), len(colours))
        # Apart enough to tell at a glance (CIELAB distance), and from the black of the lines.
        for a, b in itertools.combinations(KNOWN + ["black"], 2):
            ca = "#000000" if a == "black" else codec_color(a)
            cb = "#000000" if b == "black" else codec_color(b)
            self.assertGreater(math.dist(lab(ca), lab(cb)), 20, f"{a} vs {b}")

    def test_a_variant_label_is_styled_as_its_codec(self):
        self.assertEqual(codec_style("fl/frame_size:256 (warm)"), codec_style("fl"))
        self.assertEqual(codec_style("nvcomp-lz4 (warm)"), codec_style("nvcomp-lz4"))

    def test_unknown_names_are_stable_across_runs_and_apart_from_the_table(self):
        names = ["deltapack", "my-plugin", "nvcomp-foo", "x"]
        here = [codec_style(n) for n in names]
        for seed in (1, 2):
            self.assertEqual(styles_in_fresh_process(names, seed), here)
        # Pinned: the CRC-32 of the name picks it, the same in every version of Python.
        self.assertEqual(codec_style("deltapack"), ("#a6761d", ">"))
        table = {c for c, _ in plot_style.CODEC_STYLES.values()}
        for name, (colour, marker) in zip(names, here):
            self.assertNotIn(colour, table, name)
            self.assertIn(marker, plot_style.MARKERS, name)

    def test_series_of_one_codec_take_distinct_markers_its_own_first(self):
        for codec in KNOWN + ["deltapack"]:
            self.assertEqual(series_marker(codec, 0), codec_style(codec)[1])
            markers = [series_marker(codec, i) for i in range(len(plot_style.MARKERS))]
            self.assertEqual(len(set(markers)), len(markers), codec)


if __name__ == "__main__":
    unittest.main()
