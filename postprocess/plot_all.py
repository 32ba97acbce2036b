#!/usr/bin/env python3
"""Make every figure of a Hamilton run: one command per example.

usage: python3 postprocess/plot_all.py OUTPUT_DIR [ANIMATION_TIME ...] [--format png|pdf|svg]

Calls the drawers of plot_beam.py, plot_piezo.py, plot_rom.py, plot_lumped.py
and plot_study.py for the files the run wrote (matplotlib, Debian's
python3-matplotlib), and, if the run wrote animation.pvd, draws its frames at
the given times (default: the last frame) with render_animation.py (VTK's
reader from Debian's python3-vtk9).
"""
import os
import sys

import plot_beam
import plot_lumped
import plot_piezo
import plot_rom
import plot_study
from hamilton_tables import ResultsError, draw_all, open_results, parse_command_line


def main():
    directory, times, form = parse_command_line(__doc__, extra=True)
    results = open_results(directory)
    try:
        made = draw_all(results, plot_beam.DRAWERS + plot_piezo.DRAWERS + plot_rom.DRAWERS + plot_lumped.DRAWERS +
                        plot_study.DRAWERS, form)
    except ResultsError as e:
        sys.exit(f"plot_all.py: {e}")
    if results.has("animation.pvd"):
        import render_animation
        sys.argv = [sys.argv[0], directory, *times, "--format", form]
        render_animation.main()
    if not made and not results.has("animation.pvd"):
        sys.exit(f"plot_all.py: nothing to draw in {directory}: none of the tables the scripts draw; its tables: "
                 f"{', '.join(results.tables()) or 'none'}")
    if made:
        print("wrote " + ", ".join(made))


if __name__ == "__main__":
    main()
