#!/usr/bin/env python3
"""Draw every figure of an example's output with postprocess/plot_all.py and
check that each is a figure with data in it: a PNG whose coloured pixels (data
lines, colour maps; axes and text are black or grey) are at least 0.05 % of
the image. A run whose tables none of the scripts draw passes with a note.

usage: check_figures.py SOURCE_DIR OUTPUT_DIR   (the output of the example's prm_ test)
"""
import os
import subprocess
import sys

import matplotlib.image


def coloured_fraction(path):
    rgb = matplotlib.image.imread(path)[:, :, :3]
    return float(((rgb.max(axis=2) - rgb.min(axis=2)) > 0.15).mean())


def main():
    source, output = sys.argv[1:3]
    run = subprocess.run([sys.executable, os.path.join(source, "postprocess", "plot_all.py"), output],
                         capture_output=True, text=True)
    print(run.stdout + run.stderr)
    if run.returncode != 0:
        if "nothing to draw" in run.stderr:
            print(f"no figures: the scripts draw none of the tables of {output}")
            return
        sys.exit(f"FAILED: plot_all.py exited {run.returncode}")
    figures = [name for line in run.stdout.splitlines() if line.startswith("wrote ")
               for name in line[len("wrote "):].split(", ")]
    failures = []
    for path in figures:
        fraction = coloured_fraction(path)
        print(f"{os.path.basename(path)}: {100 * fraction:.2f} % coloured pixels")
        if fraction < 5e-4:
            failures.append(f"{path} is blank ({fraction:.2g} of the pixels coloured)")
    if not figures:
        failures.append("plot_all.py succeeded but reported no figure")
    if failures:
        sys.exit("FAILED: " + "; ".join(failures))
    print(f"{len(figures)} figures drawn, none blank")


if __name__ == "__main__":
    main()
