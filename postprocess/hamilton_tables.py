"""Shared helpers of the plot scripts: the command line (OUTPUT_DIR, --format),
one figure style, colour maps for families of curves, log axes where the data
span decades, and saving the figures next to the run's files. Every table is
read through hamilton_results (one reader for all scripts)."""
import os
import sys

import matplotlib
import numpy as np

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (re-exported for the scripts)
from matplotlib.colors import LogNorm, Normalize  # noqa: E402

from hamilton_results import Results, ResultsError, with_unit  # noqa: E402,F401

FORMATS = ("png", "pdf", "svg")

plt.rcParams.update({
    "font.size": 11, "axes.labelsize": 11, "axes.titlesize": 12, "legend.fontsize": 9,
    "xtick.labelsize": 10, "ytick.labelsize": 10, "lines.linewidth": 1.4, "axes.grid": True,
    "grid.alpha": 0.3, "figure.dpi": 100, "savefig.dpi": 200, "savefig.bbox": "tight",
})


def parse_command_line(doc, extra=False):
    """(directory, other arguments, format) from sys.argv: OUTPUT_DIR [ARGS]
    [--format png|pdf|svg]. A wrong call exits with the usage or a message."""
    args = sys.argv[1:]
    form = "png"
    if "--format" in args:
        k = args.index("--format")
        if k + 1 >= len(args):
            sys.exit(f"{os.path.basename(sys.argv[0])}: --format needs a value: one of {', '.join(FORMATS)}.")
        form = args[k + 1]
        if form not in FORMATS:
            sys.exit(f"{os.path.basename(sys.argv[0])}: --format '{form}' is not a format the figures can be "
                     f"written in; allowed: {', '.join(FORMATS)} (e.g. --format pdf).")
        del args[k:k + 2]
    if not args or (len(args) > 1 and not extra):
        sys.exit(doc)
    return args[0], args[1:], form


def open_results(directory):
    """The run's Results, or exit with the loader's message."""
    try:
        return Results(directory)
    except ResultsError as e:
        sys.exit(f"{os.path.basename(sys.argv[0])}: {e}")


def spans_decades(values, decades=2.0):
    """Whether positive `values` span more than `decades` decades (log axis)."""
    v = np.abs(np.asarray(values, dtype=float))
    v = v[np.isfinite(v) & (v > 0)]
    return len(v) > 1 and np.log10(v.max() / v.min()) > decades


def family_colours(values, cmap="viridis"):
    """(colour of each value, ScalarMappable for a colour bar): a log scale if
    the values span decades (load resistances), linear otherwise."""
    values = np.asarray(values, dtype=float)
    norm = LogNorm(values.min(), values.max()) if spans_decades(values, 1.0) and values.min() > 0 else \
        Normalize(values.min(), values.max() if values.max() > values.min() else values.min() + 1)
    mappable = plt.cm.ScalarMappable(norm=norm, cmap=cmap)
    return [mappable.to_rgba(v) for v in values], mappable


def draw_all(results, drawers, form="png"):
    """Call each drawer whose file exists; it returns [(figure, file stem)].
    Saves the figures in the run's directory as <stem>.<form>; returns the
    names written."""
    made = []
    for table, draw in drawers:
        if results.has(table):
            for fig, stem in draw(results):
                name = results.file(f"{os.path.splitext(stem)[0]}.{form}")
                fig.savefig(name)
                plt.close(fig)
                made.append(name)
    return made


def main_for(doc, drawers):
    """The main() of a plot script: its drawers on OUTPUT_DIR, or a message."""
    directory, _, form = parse_command_line(doc)
    results = open_results(directory)
    try:
        made = draw_all(results, drawers, form)
    except ResultsError as e:
        sys.exit(f"{os.path.basename(sys.argv[0])}: {e}")
    if not made:
        sys.exit(f"{os.path.basename(sys.argv[0])}: {directory} holds none of the tables this script draws "
                 f"({', '.join(sorted(set(t for t, _ in drawers)))}); its tables: "
                 f"{', '.join(results.tables()) or 'none'}. Try plot_all.py.")
    print("wrote " + ", ".join(made))
