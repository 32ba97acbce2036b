#!/usr/bin/env python3
"""Draw the figures of a Hamilton beam run from its CSV tables.

usage: python3 postprocess/plot_beam.py OUTPUT_DIR

Writes next to the tables, for those that exist:
  mode_shapes.png   w(x) of every mode (mass-normalized), with frequencies
  static.png        deflection, slope and bending moment along x
  buckling.png      load factors
  sweep.png         first frequency over the sweep parameters
Uses matplotlib (Debian: python3-matplotlib) without a display.
"""
import csv
import os
import sys

from hamilton_tables import draw_all, plt, read




def mode_shapes(directory):
    shapes = read(os.path.join(directory, "mode_shapes.csv"))
    modes = read(os.path.join(directory, "modes.csv"))
    fig, ax = plt.subplots(figsize=(7, 4))
    x = shapes["x_m"]
    for i, f in enumerate(modes["frequency_hz"]):
        w = shapes[f"w_mode_{i + 1}"]
        scale = max(abs(v) for v in w) or 1.0
        ax.plot(x, [v / scale for v in w], label=f"mode {i + 1}: {f:.6g} Hz")
    ax.set_xlabel("x (m)")
    ax.set_ylabel("w / max|w|")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title("Mode shapes")
    return fig, "mode_shapes.png"


def static(directory):
    data = read(os.path.join(directory, "static.csv"))
    fig, axes = plt.subplots(3, 1, figsize=(7, 7), sharex=True)
    for ax, key, label in zip(axes, ["w_m", "slope_rad", "bending_moment_Nm"],
                              ["w (m)", "w' (rad)", "M (N m)"]):
        ax.plot(data["x_m"], data[key])
        ax.set_ylabel(label)
        ax.grid(True, alpha=0.3)
    axes[-1].set_xlabel("x (m)")
    axes[0].set_title("Static response")
    return fig, "static.png"


def buckling(directory):
    data = read(os.path.join(directory, "buckling.csv"))
    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.bar([int(i) for i in data["index"]], data["load_factor"])
    ax.set_xlabel("buckling mode")
    ax.set_ylabel("load factor")
    ax.set_title("Critical load factors")
    return fig, "buckling.png"


def sweep(directory):
    with open(os.path.join(directory, "sweep.csv")) as f:
        reader = csv.reader(f)
        header = next(reader)
        rows = [[float(v) for v in r] for r in reader]
    n_parameters = sum(1 for h in header if not h.startswith("frequency_hz_mode_"))
    f1 = header.index("frequency_hz_mode_1")
    fig, ax = plt.subplots(figsize=(7, 4.5))
    if n_parameters == 1:
        ax.plot([r[0] for r in rows], [r[f1] for r in rows], ".-")
        ax.set_xlabel(header[0])
        ax.set_ylabel("f1 (Hz)")
    else:
        xs = sorted(set(r[0] for r in rows))
        ys = sorted(set(r[1] for r in rows))
        grid = [[0.0] * len(xs) for _ in ys]
        for r in rows:
            grid[ys.index(r[1])][xs.index(r[0])] = r[f1]
        mesh = ax.pcolormesh(xs, ys, grid, shading="auto")
        fig.colorbar(mesh, ax=ax, label="f1 (Hz)")
        ax.set_xlabel(header[0])
        ax.set_ylabel(header[1])
    ax.set_title("First natural frequency")
    return fig, "sweep.png"


# (table, drawer): each drawer returns [(figure, file name)]
DRAWERS = [(f"{name}.csv", (lambda d, draw=draw: [draw(d)]))
           for name, draw in [("mode_shapes", mode_shapes), ("static", static),
                              ("buckling", buckling), ("sweep", sweep)]]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    directory = sys.argv[1]
    made = draw_all(directory, DRAWERS)
    if not made:
        sys.exit(f"no Hamilton tables found in {directory}")
    print("wrote " + ", ".join(made))


if __name__ == "__main__":
    main()
