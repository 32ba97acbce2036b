"""Shared helpers of the postprocess scripts: read Hamilton's CSV tables and
save matplotlib figures next to them."""
import csv
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402,F401  (re-exported for the scripts)


def read(path):
    """A CSV table with a header line as {column: [floats]}."""
    with open(path) as f:
        rows = list(csv.DictReader(f))
    return {key: [float(r[key]) for r in rows] for key in rows[0]} if rows else {}


def draw_all(directory, drawers):
    """Call each drawer whose table exists; it returns [(figure, file name)].
    Saves the figures in `directory` and returns the names written."""
    made = []
    for table, draw in drawers:
        if os.path.exists(os.path.join(directory, table)):
            for fig, name in draw(directory):
                fig.tight_layout()
                fig.savefig(os.path.join(directory, name), dpi=120)
                plt.close(fig)
                made.append(os.path.join(directory, name))
    return made
