#!/usr/bin/env python3
"""Make every figure of a Hamilton run: one command per example.

usage: python3 postprocess/plot_all.py OUTPUT_DIR [ANIMATION_TIME ...]

Calls the drawers of plot_beam.py, plot_piezo.py, plot_rom.py and
plot_lumped.py for the tables the run wrote (matplotlib, Debian's
python3-matplotlib), and, if the run wrote animation.pvd, renders its frames
at the given times (default: the last frame) with render_animation.py, under
xvfb-run when there is no display (Debian's python3-vtk9, xvfb).
"""
import os
import shutil
import subprocess
import sys

import plot_beam
import plot_lumped
import plot_piezo
import plot_rom
from hamilton_tables import draw_all


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    directory = sys.argv[1]
    made = draw_all(directory, plot_beam.DRAWERS + plot_piezo.DRAWERS + plot_rom.DRAWERS + plot_lumped.DRAWERS)
    if os.path.exists(os.path.join(directory, "animation.pvd")):
        render = [sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "render_animation.py"),
                  directory, *sys.argv[2:]]
        if not os.environ.get("DISPLAY") and shutil.which("xvfb-run"):
            render = ["xvfb-run", "-a"] + render
        run = subprocess.run(render, capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit(f"rendering the animation failed:\n{run.stdout}{run.stderr}")
        made += [line.split(" ", 1)[1] for line in run.stdout.splitlines() if line.startswith("wrote ")]
    if not made:
        sys.exit(f"no Hamilton tables found in {directory}")
    print("wrote " + ", ".join(made))


if __name__ == "__main__":
    main()
