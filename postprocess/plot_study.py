#!/usr/bin/env python3
"""Draw the table of a Hamilton study (study.csv and results.json of its output directory).

usage: python3 postprocess/plot_study.py OUTPUT_DIR [--x COLUMN] [--format png|pdf|svg]

Writes next to the table, depending on the design (png, or the --format):
  study_lines.png       grid or zip: every quantity against the parameter (one
                        panel each); with two or more parameters, one line per
                        value of the first parameter, coloured by it. --x COLUMN
                        puts another column on the horizontal axis (e.g. a
                        measured speed: the run-up map of a motor-driven harvester)
  study_map.png         grid of two parameters: a heat map of every quantity
                        (logarithmic axes for a geometric list of values)
  study_histograms.png  monte carlo: a histogram of every quantity with the
                        mean, mean +- standard deviation and the 5/95 %
                        percentiles of results.json
  study_history.png     optimize: the objective of every evaluation, the best
                        so far, and the parameters, against the evaluation
  campbell.png          quantities that are eigenvalues of a linearized lumped
                        system (.../eigenvalues/N/imag and /real): |Im|/2pi in Hz
                        and Re against the parameter (a Campbell diagram with
                        its stability panel)
Uses numpy and matplotlib (Debian: python3-matplotlib) without a display.
"""
import csv
import json
import math
import os
import sys

import matplotlib
import numpy as np

from hamilton_tables import draw_all, open_results, parse_command_line, plt


def read(directory):
    """The results.json of the study, the parameter names, the quantity names and the columns (name -> array)."""
    with open(os.path.join(directory, "results.json")) as f:
        results = json.load(f)
    if results.get("format") != "hamilton-study":
        sys.exit(f"{directory}/results.json is not the output of a study (format '{results.get('format')}')")
    with open(os.path.join(directory, "study.csv")) as f:
        rows = list(csv.reader(f))
    header, rows = rows[0], rows[1:]
    data = {name: np.array([float(r[i]) for r in rows]) for i, name in enumerate(header)}
    parameters = [c["name"] for c in results["columns"] if "path" in c]
    quantities = [c["name"] for c in results["columns"] if "path" not in c]
    return results, parameters, quantities, data


def label(results, name):
    """A short axis label: the last parts of a quantity's path and its unit, or a parameter's name and path."""
    for c in results["columns"]:
        if c["name"] == name:
            if "path" in c:
                return f"{name} ({c['path'].split('/')[-1]})"
            parts, kept = name.split("/"), []
            while parts and (len(kept) < 2 or kept[0].isdigit()) and len(name) > 30:  # the last two names
                kept.insert(0, parts.pop())
            short = "/".join(kept) if kept else name
            return f"{short} ({c['unit']})" if c.get("unit") else short
    return name


def geometric(values):
    """Whether the distinct positive values are spaced geometrically (plot on a log axis)."""
    v = np.unique(values)
    return len(v) > 2 and np.all(v > 0) and np.allclose(np.diff(np.log(v)), np.log(v[1] / v[0]), rtol=1e-6)


def panels(n, width=5.0, height=3.4):
    cols = min(n, 3)
    rows = math.ceil(n / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(width * cols, height * rows), squeeze=False)
    for ax in axes.flat[n:]:
        ax.set_visible(False)
    return fig, list(axes.flat[:n])


def lines(directory, results, parameters, quantities, data, x=None):
    x = x or parameters[-1]
    shown = [q for q in quantities if q != x]
    fig, axes = panels(len(shown))
    groups = [(None, np.ones(len(data[x]), bool))]
    if len(parameters) > 1 and x == parameters[-1]:
        first = parameters[0]
        values = np.unique(data[first])
        colours = plt.cm.viridis(np.linspace(0, 0.9, len(values)))
        groups = [(f"{first} = {v:g}", data[first] == v, c) for v, c in zip(values, colours)]
    for ax, q in zip(axes, shown):
        if len(groups) > 1 and all(np.ptp(data[q][g[1]]) <= 1e-12 * np.abs(data[q][g[1]]).max() for g in groups):
            # a quantity of the first parameter alone (e.g. an optimum per design): against it
            first = parameters[0]
            order = np.argsort(data[first])
            ax.plot(data[first][order], data[q][order], "o-", ms=3, lw=1, color="k")
            ax.set_xlabel(label(results, first))
            ax.set_ylabel(label(results, q), fontsize=8)
            ax.grid(alpha=0.3)
            continue
        for group in groups:
            name, mask = group[0], group[1]
            order = np.argsort(data[x][mask])
            kwargs = {"color": group[2]} if len(group) > 2 else {}
            ax.plot(data[x][mask][order], data[q][mask][order], "o-", ms=3, lw=1, label=name, **kwargs)
        ax.set_xlabel(label(results, x))
        ax.set_ylabel(label(results, q), fontsize=8)
        if geometric(data[x]):
            ax.set_xscale("log")
        if np.all(data[q][np.isfinite(data[q])] > 0) and np.nanmax(data[q]) > 20 * np.nanmin(data[q]):
            ax.set_yscale("log")
        ax.grid(alpha=0.3)
    for ax in axes:
        if ax.get_legend_handles_labels()[1]:
            ax.legend(fontsize=7)
            break
    fig.suptitle(f"{results['input']}: {results['design']} study, {results['n_points']} points")
    fig.tight_layout()
    return fig


def heat_map(directory, results, parameters, quantities, data):
    a, b = parameters[0], parameters[1]
    va, vb = np.unique(data[a]), np.unique(data[b])
    fig, axes = panels(len(quantities))
    for ax, q in zip(axes, quantities):
        grid = np.full((len(va), len(vb)), np.nan)
        for i, j, v in zip(np.searchsorted(va, data[a]), np.searchsorted(vb, data[b]), data[q]):
            grid[i, j] = v
        positive = np.all(grid[np.isfinite(grid)] > 0) and np.nanmax(grid) > 20 * np.nanmin(grid)
        norm = matplotlib.colors.LogNorm() if positive else None
        # cells centred on the values (index coordinates, labelled with the values)
        mesh = ax.pcolormesh(np.arange(len(vb) + 1) - 0.5, np.arange(len(va) + 1) - 0.5, grid, norm=norm,
                             cmap="viridis", shading="flat")
        fig.colorbar(mesh, ax=ax).set_label(label(results, q), fontsize=8)
        ax.set_xticks(range(len(vb)), [f"{v:.3g}" for v in vb], fontsize=7)
        ax.set_yticks(range(len(va)), [f"{v:.3g}" for v in va], fontsize=7)
        ax.set_xlabel(label(results, b))
        ax.set_ylabel(label(results, a))
    fig.suptitle(f"{results['input']}: grid {len(va)} x {len(vb)}")
    fig.tight_layout()
    return fig


def histograms(directory, results, quantities, data):
    stats = {s["name"]: s for s in results.get("statistics", [])}
    fig, axes = panels(len(quantities))
    for ax, q in zip(axes, quantities):
        values = data[q][np.isfinite(data[q])]
        ax.hist(values, bins=max(5, int(round(math.sqrt(len(values))))), color="tab:blue", alpha=0.7)
        s = stats.get(q)
        if s and s.get("count", 0) > 0:
            ax.axvline(s["mean"], color="k", lw=1.5, label=f"mean {s['mean']:.5g}")
            for sign in (-1, 1):
                ax.axvline(s["mean"] + sign * s["standard_deviation"], color="k", ls="--", lw=1,
                           label=f"std {s['standard_deviation']:.3g}" if sign > 0 else None)
            for p in ("percentile_5", "percentile_95"):
                ax.axvline(s[p], color="tab:red", ls=":", lw=1, label="5 / 95 %" if p == "percentile_5" else None)
            ax.legend(fontsize=7)
        ax.set_xlabel(label(results, q), fontsize=8)
        ax.set_ylabel("samples")
    fig.suptitle(f"{results['input']}: monte carlo, {results['n_points']} samples, seed {results.get('seed')}")
    fig.tight_layout()
    return fig


def history(directory, results, parameters, data):
    optimum = results["optimum"]
    objective = data[optimum["objective"]]
    n = np.arange(1, len(objective) + 1)
    best = np.maximum.accumulate(objective) if optimum["goal"] == "maximize" else np.minimum.accumulate(objective)
    fig, axes = plt.subplots(1 + len(parameters), 1, figsize=(7, 2.4 * (1 + len(parameters)) + 0.6), sharex=True)
    axes[0].plot(n, objective, "o", ms=3, label="evaluation")
    axes[0].plot(n, best, "-", color="tab:red", label="best so far")
    axes[0].plot([optimum["point"]], [optimum["value"]], "*", ms=12, color="tab:red",
                 label=f"optimum {optimum['value']:.6g}")
    axes[0].set_ylabel(label(results, optimum["objective"]), fontsize=8)
    axes[0].legend(fontsize=7)
    for ax, p, value in zip(axes[1:], parameters, optimum["parameters"]):
        ax.plot(n, data[p], "o-", ms=3, lw=0.8)
        ax.axhline(value, color="tab:red", lw=0.8, ls="--", label=f"optimum {value:.6g}")
        ax.set_ylabel(label(results, p), fontsize=8)
        if geometric(data[p]) or (np.all(data[p] > 0) and data[p].max() > 20 * data[p].min()):
            ax.set_yscale("log")
        ax.legend(fontsize=7)
    axes[-1].set_xlabel("evaluation")
    for ax in axes:
        ax.grid(alpha=0.3)
    fig.suptitle(f"{results['input']}: {optimum['goal']} with {optimum['algorithm']}, {optimum['evaluations']} "
                 f"evaluations ({optimum['stop']})", fontsize=9)
    fig.tight_layout()
    return fig


def campbell(directory, results, parameters, quantities, data, x=None):
    x = x or parameters[0]
    imag = [q for q in quantities if q.endswith("/imag") and "eigenvalues" in q]
    real = [q for q in quantities if q.endswith("/real") and "eigenvalues" in q]
    order = np.argsort(data[x])
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7, 6.5), sharex=True, height_ratios=[2, 1])
    for q in imag:
        f = np.abs(data[q][order]) / (2 * math.pi)
        if np.any(f > 0):
            top.plot(data[x][order], f, "o-", ms=3, lw=1, label=q.split("/")[-2])
    for q in real:
        bottom.plot(data[x][order], data[q][order], "o-", ms=3, lw=1)
    bottom.axhline(0, color="k", lw=0.8)
    top.set_ylabel("|Im(s)|/2pi (Hz)")
    bottom.set_ylabel("Re(s) (1/s)")
    bottom.set_xlabel(label(results, x))
    top.set_title(f"{results['input']}: Campbell diagram (eigenvalues of the linearized system)", fontsize=9)
    top.legend(fontsize=7, title="eigenvalue", title_fontsize=7)
    for ax in (top, bottom):
        ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def figures(directory, x=None):
    """[(figure, file stem)] of the study in `directory`, by its design."""
    results, parameters, quantities, data = read(directory)
    if x is not None and x not in data:
        sys.exit(f"--x '{x}': study.csv has the columns {', '.join(data)}")
    if results["design"] == "optimize":
        return [(history(directory, results, parameters, data), "study_history")]
    if results["design"] == "monte carlo":
        return [(histograms(directory, results, quantities, data), "study_histograms")]
    made = []
    if any(q.endswith("/imag") and "eigenvalues" in q for q in quantities):
        made.append((campbell(directory, results, parameters, quantities, data, x), "campbell"))
    made.append((lines(directory, results, parameters, quantities, data, x), "study_lines"))
    if results["design"] == "grid" and len(parameters) == 2:
        made.append((heat_map(directory, results, parameters, quantities, data), "study_map"))
    return made


# for plot_all.py: a study's output holds study.csv
DRAWERS = [("study.csv", lambda results: figures(results.directory))]


def main():
    directory, args, form = parse_command_line(__doc__, extra=True)
    x = None
    if args[:1] == ["--x"]:
        if len(args) < 2:
            sys.exit("--x needs a column of study.csv")
        x = args[1]
        args = args[2:]
    if args:
        sys.exit(__doc__)
    made = draw_all(open_results(directory), [("study.csv", lambda results: figures(directory, x))], form)
    print("wrote " + ", ".join(made))


if __name__ == "__main__":
    main()
