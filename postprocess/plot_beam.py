#!/usr/bin/env python3
"""Draw the figures of a Hamilton beam run from its CSV tables.

usage: python3 postprocess/plot_beam.py OUTPUT_DIR [--format png|pdf|svg]

Writes next to the tables, for those that exist:
  mode_shapes.png   w(x) of every mode (each scaled to its largest |w|), with frequencies
  static.png        deflection, slope and bending moment along x
  buckling.png      load factors
  sweep.png         first frequency over the sweep parameters
Labels and units come from the tables' sidecars (<table>.csv.columns.json).
Uses matplotlib (Debian: python3-matplotlib) without a display.
"""
import numpy as np

from hamilton_tables import main_for, plt, spans_decades


def mode_shapes(results):
    shapes, modes = results.table("mode_shapes"), results.table("modes")
    colours = plt.cm.viridis(np.linspace(0, 0.9, max(len(modes), 1)))
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for i, f in enumerate(modes["frequency_hz"]):
        w = shapes[f"w_mode_{i + 1}"]
        ax.plot(shapes["x_m"], w / (np.abs(w).max() or 1.0), color=colours[i], label=f"mode {i + 1}: {f:.4g} Hz")
    ax.set_xlabel(shapes.label("x_m", "x"))
    ax.set_ylabel("w / max|w|")
    ax.legend(ncol=2 if len(modes) > 4 else 1)
    ax.set_title("Mode shapes")
    return [(fig, "mode_shapes")]


def static(results):
    data = results.table("static")
    fig, axes = plt.subplots(3, 1, figsize=(7, 7), sharex=True)
    for ax, key, text in zip(axes, ["w_m", "slope_rad", "bending_moment_Nm"], ["w", "w'", "M"]):
        ax.plot(data["x_m"], data[key])
        ax.set_ylabel(data.label(key, text))
    axes[-1].set_xlabel(data.label("x_m", "x"))
    axes[0].set_title("Static response")
    return [(fig, "static")]


def buckling(results):
    data = results.table("buckling")
    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.bar(data["index"].astype(int), data["load_factor"])
    if spans_decades(data["load_factor"]):
        ax.set_yscale("log")
    ax.set_xlabel("buckling mode")
    ax.set_ylabel("load factor")
    ax.set_title("Critical load factors")
    return [(fig, "buckling")]


def sweep(results):
    data = results.table("sweep")
    parameters = [c for c in data.columns if not c.startswith("frequency_hz_mode_")]
    f1 = "frequency_hz_mode_1"
    fig, ax = plt.subplots(figsize=(7, 4.5))
    if len(parameters) == 1:
        x = data[parameters[0]]
        ax.plot(x, data[f1], ".-")
        if spans_decades(x):
            ax.set_xscale("log")
        ax.set_xlabel(data.label(parameters[0]))
        ax.set_ylabel(data.label(f1, "f1"))
    else:
        xs, ys = np.unique(data[parameters[0]]), np.unique(data[parameters[1]])
        grid = np.full((len(ys), len(xs)), np.nan)
        for x, y, f in zip(data[parameters[0]], data[parameters[1]], data[f1]):
            grid[np.searchsorted(ys, y), np.searchsorted(xs, x)] = f
        mesh = ax.pcolormesh(xs, ys, grid, shading="auto")
        fig.colorbar(mesh, ax=ax, label=data.label(f1, "f1"))
        ax.set_xlabel(data.label(parameters[0]))
        ax.set_ylabel(data.label(parameters[1]))
    ax.set_title("First natural frequency")
    return [(fig, "sweep")]


# (table, drawer): each drawer returns [(figure, file stem)]
DRAWERS = [("mode_shapes.csv", mode_shapes), ("static.csv", static), ("buckling.csv", buckling),
           ("sweep.csv", sweep)]

if __name__ == "__main__":
    main_for(__doc__, DRAWERS)
