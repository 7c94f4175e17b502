"""One colour and marker per codec, the same in every plot of every report.

codec_style(name) depends on the name alone, never on which other codecs a plot holds: the
codecs the studies list (studies/codec_styles.json) have a fixed entry, any other name (a
plugin's) one picked by the CRC-32 of its name from colours the fixed table does not use, so
that it too is the same on every run (Python's hash() is salted per process). Kept free of matplotlib so that its test runs without.
"""

import json
import os
import zlib

# Each codec's (colour, marker): a table the studies own (studies/codec_styles.json, copied beside
# this script in a build), so that the report names no codec.
def _load_styles():
    here = os.path.dirname(os.path.abspath(__file__))
    for path in (os.path.join(here, STYLES_FILE),
                 os.path.join(here, "..", "..", "studies", STYLES_FILE)):
        if os.path.exists(path):
            with open(path) as f:
                return {name: tuple(style) for name, style in json.load(f)["codecs"].items()}
    return {}


STYLES_FILE = "codec_styles.json"
CODEC_STYLES = _load_styles()

# For names outside the table: colours none of the table's entries use.
FALLBACK_COLORS = ["#b2df8a", "#4a148c", "#004d40", "#b15928", "#e5c494", "#a6761d",
                   "#a6cee3", "#fc8d62"]

# Markers in the order series of one codec take them (see series_marker).
MARKERS = ["o", "s", "D", "^", "v", "<", ">", "p", "h", "*", "P", "X", "d", "H", "8"]


def codec_style(codec):
    """(colour, marker) of a codec's name; a variant label (the name, then "/axis:value"
    parts or a space and a note) is styled as its codec."""
    name = codec.split("/")[0].split(" ")[0]
    if name in CODEC_STYLES:
        return CODEC_STYLES[name]
    key = zlib.crc32(name.encode("utf-8"))
    return FALLBACK_COLORS[key % len(FALLBACK_COLORS)], MARKERS[(key >> 8) % len(MARKERS)]


def codec_color(codec):
    return codec_style(codec)[0]


def series_marker(codec, index):
    """The marker of a codec's index-th series in one plot: its own first, then the next ones."""
    first = MARKERS.index(codec_style(codec)[1])
    return MARKERS[(first + index) % len(MARKERS)]
