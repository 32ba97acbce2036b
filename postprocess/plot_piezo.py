#!/usr/bin/env python3
"""Draw the figures of a Hamilton piezo run from its CSV tables.

usage: python3 postprocess/plot_piezo.py OUTPUT_DIR

Writes next to the tables, for those that exist:
  harvester_voltage.png, harvester_power.png   |V| and power vs frequency, one
                                               curve per load resistance
  frf.png                                      output-point and electrode FRFs
  rl_shunt.png                                 tip receptance: short/open
                                               circuit, Hagood-von Flotow, optimum
Uses matplotlib (Debian: python3-matplotlib) without a display.
"""
import csv
import os
import sys
from collections import defaultdict

from hamilton_tables import draw_all, plt, read




def harvester_families(directory):
    data = read(os.path.join(directory, "harvester_map.csv"))
    curves = defaultdict(lambda: ([], [], []))
    for R, f, V, P in zip(data["resistance_ohm"], data["frequency_hz"], data["voltage_V"], data["power_W"]):
        curves[R][0].append(f)
        curves[R][1].append(V)
        curves[R][2].append(P)
    if len(curves) > 12:  # a map: show a dozen curves spread over the range
        keys = sorted(curves)
        curves = {k: curves[k] for k in keys[:: max(1, len(keys) // 12)]}
    figures = []
    for index, label, name in [(1, "|V| (V)", "harvester_voltage.png"),
                               (2, "power (W)", "harvester_power.png")]:
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for R in sorted(curves):
            ax.semilogy(curves[R][0], curves[R][index], label=f"R = {R:.3g} Ohm")
        ax.set_xlabel("frequency (Hz)")
        ax.set_ylabel(label)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
        ax.set_title("Harvester: " + label.split(" ")[0] + " per base acceleration")
        figures.append((fig, name))
    return figures


def frf(directory):
    data = read(os.path.join(directory, "frf.csv"))
    f = data["frequency_hz"]
    columns = [c for c in data if c.endswith("_w_rel_m") or c.endswith("_V_V") or c.endswith("_power_W")]
    fig, axes = plt.subplots(len(columns), 1, figsize=(7, 2.6 * len(columns)), sharex=True, squeeze=False)
    for ax, c in zip(axes[:, 0], columns):
        ax.semilogy(f, data[c])
        ax.set_ylabel(c)
        ax.grid(True, which="both", alpha=0.3)
    axes[-1, 0].set_xlabel("frequency (Hz)")
    axes[0, 0].set_title("Frequency response")
    return [(fig, "frf.png")]


def rl_shunt(directory):
    data = read(os.path.join(directory, "rl_shunt.csv"))
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for key, label in [("short_circuit_m_N", "short circuit"), ("open_circuit_m_N", "open circuit"),
                       ("hvf_m_N", "RL, Hagood-von Flotow"), ("optimum_m_N", "RL, equal-peak optimum")]:
        ax.semilogy(data["frequency_hz"], data[key], label=label)
    ax.set_xlabel("frequency (Hz)")
    ax.set_ylabel("|w/F| (m/N)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    ax.set_title("RL shunt damping")
    return [(fig, "rl_shunt.png")]


DRAWERS = [("harvester_map.csv", harvester_families), ("frf.csv", frf), ("rl_shunt.csv", rl_shunt)]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    directory = sys.argv[1]
    made = draw_all(directory, DRAWERS)
    if not made:
        sys.exit(f"no Hamilton piezo tables found in {directory}")
    print("wrote " + ", ".join(made))


if __name__ == "__main__":
    main()
