#!/usr/bin/env python3
"""Draw the time histories of a lumped (or coupled) Hamilton run from lumped.csv.

usage: python3 postprocess/plot_lumped.py OUTPUT_DIR

Writes next to the table:
  lumped_coordinates.png   every coordinate and velocity against time
  lumped_outputs.png       the named outputs of the run (one panel each; an
                           output named '...power...' also with its moving
                           average over 1/50 of the run)
  energy_audit.png         supplied, source and dissipated work, stored energy
                           change and the balance residual
Uses matplotlib (Debian: python3-matplotlib) without a display.
"""
import json
import os
import sys

from hamilton_tables import draw_all, plt, read

AUDIT = ["stored_energy_change_J", "supplied_work_J", "source_work_J", "dissipated_energy_J", "audit_residual_J"]


def columns(directory):
    """(coordinates, outputs) of the run, from results.json."""
    with open(os.path.join(directory, "results.json")) as f:
        lumped = json.load(f)["lumped"]
    names = [c["name"] for c in lumped["coordinates"]]
    data = read(os.path.join(directory, "lumped.csv"))
    parts = lumped.get("energy_audit", {}).get("parts", {})  # the audit per element and domain
    known = {"t_s", *AUDIT, *parts, *names, *[n + "_dot" for n in names]}
    outputs = [k for k in data if k not in known and not k.startswith(("lambda_", "constraint_"))]
    return data, names, outputs


def coordinates(directory):
    data, names, _ = columns(directory)
    fig, axes = plt.subplots(len(names), 2, figsize=(9, 1.8 * len(names) + 1), sharex=True, squeeze=False)
    for row, name in enumerate(names):
        for col, key in enumerate([name, name + "_dot"]):
            axes[row][col].plot(data["t_s"], data[key], lw=0.8)
            axes[row][col].set_ylabel(key, fontsize=8)
    for ax in axes[-1]:
        ax.set_xlabel("t (s)")
    return [(fig, "lumped_coordinates.png")]


def outputs(directory):
    data, _, names = columns(directory)
    if not names:
        return []
    fig, axes = plt.subplots(len(names), 1, figsize=(8, 1.9 * len(names) + 1), sharex=True, squeeze=False)
    for ax, name in zip(axes[:, 0], names):
        ax.plot(data["t_s"], data[name], lw=0.8)
        ax.set_ylabel(name, fontsize=8)
        if "power" in name.lower():  # a harvested power: also its moving average
            t, p = data["t_s"], data[name]
            window = max(1, len(t) // 50)
            mean = [sum(p[max(0, i - window + 1):i + 1]) / len(p[max(0, i - window + 1):i + 1])
                    for i in range(len(p))]
            ax.plot(t, mean, color="C3", lw=1.2, label=f"moving average over {t[window] - t[0]:.3g} s")
            ax.legend(fontsize=7)
    axes[-1][0].set_xlabel("t (s)")
    return [(fig, "lumped_outputs.png")]


def audit(directory):
    data = read(os.path.join(directory, "lumped.csv"))
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 6), sharex=True)
    for key in AUDIT[:-1]:
        top.plot(data["t_s"], data[key], label=key.replace("_J", ""))
    top.set_ylabel("energy (J)")
    top.legend(fontsize=8)
    bottom.plot(data["t_s"], data["audit_residual_J"], color="k", lw=0.8)
    bottom.set_ylabel("balance residual (J)")
    bottom.set_xlabel("t (s)")
    top.set_title("energy audit: stored change = supplied + source - dissipated")
    return [(fig, "energy_audit.png")]


DRAWERS = [("lumped.csv", coordinates), ("lumped.csv", outputs), ("lumped.csv", audit)]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    directory = sys.argv[1]
    made = draw_all(directory, DRAWERS)
    print("\n".join(made) if made else f"nothing to draw in {directory}")


if __name__ == "__main__":
    main()
