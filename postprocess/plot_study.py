#!/usr/bin/env python3
"""Draw the results of a Hamilton study (study.csv).

usage: python3 postprocess/plot_study.py OUTPUT_DIR [--format png|pdf|svg]

Writes next to the table:
  study.png                 each result quantity against the first parameter
                            (one panel per quantity; with a second parameter,
                            one curve per value, coloured by it with a colour
                            bar; log axes where the values span decades); a
                            Monte Carlo study: a histogram per quantity
  study_power_vs_load.png   the same figure, so named when the first parameter
                            is a load resistance (Ohm) and a quantity a power (W)
Labels and units come from study.csv.columns.json. Uses matplotlib.
"""
import numpy as np

from hamilton_tables import family_colours, main_for, plt, spans_decades


def study(results):
    data = results.table("study")
    described = results.json.get("columns", [])
    parameters = [c["name"] for c in described if "path" in c]
    quantities = [c["name"] for c in described if "path" not in c]
    if not parameters:  # an older study.json without the columns' kinds
        parameters, quantities = data.columns[1:2], data.columns[2:]
    short = {q: q.rsplit("/", 1)[-1] for q in quantities}
    n = max(len(quantities), 1)
    if results.json.get("design") == "monte carlo":
        fig, axes = plt.subplots(n, 1, figsize=(7, 2.6 * n + 0.8), squeeze=False)
        for ax, q in zip(axes[:, 0], quantities):
            values = data[q][np.isfinite(data[q])]
            ax.hist(values, bins=max(10, int(np.sqrt(len(values)))), color="C0", alpha=0.8)
            ax.set_xlabel(data.label(q, short[q]))
            ax.set_ylabel("points")
        axes[0, 0].set_title(f"Monte Carlo study, {len(data)} points")
        return [(fig, "study")]
    x = data[parameters[0]]
    fig, axes = plt.subplots(n, 1, figsize=(7.5, 2.8 * n + 0.8), sharex=True, squeeze=False)
    groups = [(None, np.ones(len(x), dtype=bool))]
    mappable = None
    if len(parameters) > 1:
        values = np.unique(data[parameters[1]])
        colours, mappable = family_colours(values)
        groups = [(c, data[parameters[1]] == v) for c, v in zip(colours, values)]
    for ax, q in zip(axes[:, 0], quantities):
        for colour, rows in groups:
            order = np.argsort(x[rows])
            ax.plot(x[rows][order], data[q][rows][order], "o-", color=colour or "C0", ms=4)
        if spans_decades(data[q]) and np.all(data[q][np.isfinite(data[q])] > 0):
            ax.set_yscale("log")
        ax.set_ylabel(data.label(q, short[q]), fontsize=9)
    if spans_decades(x, 1.0) and np.all(x > 0):
        axes[-1, 0].set_xscale("log")
    axes[-1, 0].set_xlabel(data.label(parameters[0]))
    if mappable is not None:
        fig.colorbar(mappable, ax=axes[:, 0].tolist(), label=data.label(parameters[1]))
    power_vs_load = data.unit(parameters[0]) == "Ohm" and any(data.unit(q) == "W" for q in quantities)
    axes[0, 0].set_title("Power against load" if power_vs_load else f"Study: {results.json.get('design', '')}")
    return [(fig, "study_power_vs_load" if power_vs_load else "study")]


DRAWERS = [("study.csv", study)]

if __name__ == "__main__":
    main_for(__doc__, DRAWERS)
