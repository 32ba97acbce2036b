#!/usr/bin/env python3
"""Draw the time histories of a lumped (or coupled) Hamilton run from lumped.csv.

usage: python3 postprocess/plot_lumped.py OUTPUT_DIR [--format png|pdf|svg]

Writes next to the table:
  lumped_coordinates.png   every coordinate and velocity against time
  lumped_outputs.png       the named outputs of the run (one panel each; an
                           output named '...power...' also with its moving mean
                           over 1/50 of the run and its mean over the summary's
                           window, the steady state)
  energy_audit.png         supplied, source and dissipated work, stored energy
                           change and the balance residual
Labels and units come from lumped.csv.columns.json (coordinates: their
component's unit or 'Lumped system/Units'). Uses matplotlib without a display.
"""
import numpy as np

from hamilton_tables import main_for, plt

AUDIT = ["stored_energy_change_J", "supplied_work_J", "source_work_J", "dissipated_energy_J", "audit_residual_J"]


def columns(results):
    """(table, coordinates, outputs) of the run, from results.json."""
    lumped = results.json["lumped"]
    names = [c["name"] for c in lumped["coordinates"]]
    data = results.table("lumped")
    parts = lumped.get("energy_audit", {}).get("parts", {})  # the audit per element and domain
    known = {"t_s", *AUDIT, *parts, *names, *[n + "_dot" for n in names]}
    outputs = [k for k in data.columns if k not in known and not k.startswith(("lambda_", "constraint_"))]
    return data, names, outputs


def coordinates(results):
    data, names, _ = columns(results)
    fig, axes = plt.subplots(len(names), 2, figsize=(10, 1.7 * len(names) + 1.2), sharex=True, squeeze=False)
    for row, name in enumerate(names):
        for col, key in enumerate([name, name + "_dot"]):
            axes[row][col].plot(data["t_s"], data[key], lw=1.0)
            axes[row][col].set_ylabel(data.label(key), fontsize=9)
    for ax in axes[-1]:
        ax.set_xlabel(data.label("t_s", "t"))
    axes[0][0].set_title("coordinates")
    axes[0][1].set_title("velocities")
    fig.align_ylabels()
    return [(fig, "lumped_coordinates")]


def moving_mean(values, window):
    """Mean over the last `window` rows at each row (fewer at the start)."""
    c = np.cumsum(np.insert(values, 0, 0.0))
    n = np.arange(1, len(values) + 1)
    lower = np.maximum(n - window, 0)
    return (c[n] - c[lower]) / (n - lower)


def outputs(results):
    data, _, names = columns(results)
    if not names:
        return []
    summary = results.json["lumped"].get("summary", {})
    t = data["t_s"]
    fig, axes = plt.subplots(len(names), 1, figsize=(8, 1.9 * len(names) + 1.2), sharex=True, squeeze=False)
    for ax, name in zip(axes[:, 0], names):
        ax.plot(t, data[name], lw=0.8, label=name)
        ax.set_ylabel(data.label(name), fontsize=9)
        if "power" in name.lower():  # a harvested power: its moving mean and steady-state mean
            window = max(1, len(t) // 50)
            ax.plot(t, moving_mean(data[name], window), color="C3", lw=1.4,
                    label=f"moving mean over {t[window] - t[0]:.3g} s")
            steady = summary.get("columns", {}).get(name)
            if steady is not None:
                ax.hlines(steady["mean"], summary["from_s"], summary["to_s"], color="k", lw=1.6,
                          label=f"mean over {summary['from_s']:.3g} ... {summary['to_s']:.3g} s: "
                                f"{steady['mean']:.4g} {data.unit(name)}")
            ax.legend(fontsize=8, loc="upper left")
    axes[-1][0].set_xlabel(data.label("t_s", "t"))
    fig.align_ylabels()
    return [(fig, "lumped_outputs")]


def audit(results):
    data = results.table("lumped")
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 6), sharex=True)
    for key in AUDIT[:-1]:
        top.plot(data["t_s"], data[key], label=key.replace("_J", "").replace("_", " "))
    top.set_ylabel("energy (J)")
    top.legend(fontsize=8)
    bottom.plot(data["t_s"], data["audit_residual_J"], color="k", lw=0.8)
    bottom.set_ylabel(data.label("audit_residual_J", "balance residual"))
    bottom.set_xlabel(data.label("t_s", "t"))
    top.set_title("Energy audit: stored change = supplied + source - dissipated", fontsize=11)
    return [(fig, "energy_audit")]


DRAWERS = [("lumped.csv", coordinates), ("lumped.csv", outputs), ("lumped.csv", audit)]

if __name__ == "__main__":
    main_for(__doc__, DRAWERS)
