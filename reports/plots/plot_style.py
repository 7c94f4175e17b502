"""One colour and marker per codec, the same in every plot of every report.

codec_style(name) depends on the name alone, never on which other codecs a plot holds: the
codecs gcbench knows have a fixed entry, any other name (a plugin's) one picked by the CRC-32
of its name from colours the fixed table does not use, so that it too is the same on every run
(Python's hash() is salted per process). Kept free of matplotlib so that its test runs without.
"""

import zlib

# Colours far apart in CIELAB from each other and from the black of the Pareto front and the
# device copy line; related codecs (lz4 and nvcomp-lz4, ...) still get clearly different ones.
CODEC_STYLES = {
    "fl": ("#1f77b4", "o"),
    "rle": ("#8c564b", "s"),
    "rle-cub": ("#bcbd22", "D"),
    "lz77": ("#9467bd", "^"),
    "gzip": ("#ff7f0e", "v"),
    "zlib": ("#7f7f7f", "<"),
    "libdeflate": ("#2ca02c", ">"),
    "lz4": ("#d62728", "p"),
    "zstd": ("#e377c2", "h"),
    "copy": ("#17becf", "*"),
    "nvcomp-cascaded": ("#393b79", "P"),
    "nvcomp-bitcomp": ("#637939", "X"),
    "nvcomp-lz4": ("#ff9896", "d"),
    "nvcomp-snappy": ("#e7ba52", "H"),
    "nvcomp-deflate": ("#00a087", "8"),
    "nvcomp-gdeflate": ("#7b4173", "o"),
    "nvcomp-zstd": ("#ad1457", "s"),
    "nvcomp-ans": ("#c5b0d5", "D"),
}

# For names outside the table: colours none of the table's entries use.
FALLBACK_COLORS = ["#b2df8a", "#4a148c", "#004d40", "#b15928", "#e5c494", "#a6761d",
                   "#a6cee3", "#fc8d62"]

# Markers in the order series of one codec take them (see series_marker).
MARKERS = ["o", "s", "D", "^", "v", "<", ">", "p", "h", "*", "P", "X", "d", "H", "8"]


def codec_style(codec):
    """(colour, marker) of a codec name, e.g. "fl" or "nvcomp-lz4"; a variant label such as
    "fl/frame_size:256 (warm)" is styled as its codec."""
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
