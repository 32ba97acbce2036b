#!/usr/bin/env python3
"""Draw the figures of a Hamilton piezo run from its CSV tables.

usage: python3 postprocess/plot_piezo.py OUTPUT_DIR [--format png|pdf|svg]

Writes next to the tables, for those that exist:
  harvester_voltage.png, harvester_power.png   |V| and power against frequency,
                                               one curve per load resistance,
                                               coloured by it (colour bar)
  harvester_power_vs_load.png                  the largest power over the
                                               frequency window against the
                                               load, the optimal loads marked
  frf.png                                      output-point and electrode FRFs
  rl_shunt.png                                 tip receptance: short/open
                                               circuit, Hagood-von Flotow, optimum
Values are at the run's base acceleration (results.json, harvester/
base_acceleration_m_s2); power is peak |V|^2/R or the cycle average as the run
says (harvester/power). Uses matplotlib (Debian: python3-matplotlib).
"""
import numpy as np

from hamilton_tables import family_colours, main_for, plt, spans_decades


def excitation(results):
    """' at 9.81 m/s^2 base acceleration, peak power' from results.json."""
    h = results.json.get("harvester", {})
    text = []
    if "base_acceleration_m_s2" in h:
        text.append(f"{h['base_acceleration_m_s2']:.4g} m/s² base acceleration")
    if "power" in h:
        text.append(("peak |V|²/R" if h["power"] == "peak" else "cycle-average") + " power")
    return ", ".join(text)


def harvester_families(results):
    data = results.table("harvester_map")
    loads = np.unique(data["resistance_ohm"])
    colours, mappable = family_colours(loads)
    figures = []
    for key, text, stem in [("voltage_V", "|V|", "harvester_voltage"), ("power_W", "power", "harvester_power")]:
        fig, ax = plt.subplots(figsize=(7.5, 4.5))
        for R, colour in zip(loads, colours):
            rows = data["resistance_ohm"] == R
            ax.semilogy(data["frequency_hz"][rows], data[key][rows], color=colour, lw=1.2)
        fig.colorbar(mappable, ax=ax, label=data.label("resistance_ohm", "load resistance"))
        ax.set_xlabel(data.label("frequency_hz", "frequency"))
        ax.set_ylabel(data.label(key, text))
        ax.grid(True, which="both", alpha=0.3)
        ax.set_title(f"Harvester {text} at {excitation(results)}", fontsize=10)
        figures.append((fig, stem))
    return figures


def power_against_load(results):
    peaks = results.table("harvester_peaks")
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ax.loglog(peaks["resistance_ohm"], peaks["power_W"], "o-", label="largest power over the frequency window")
    if results.has("harvester_optimum.csv"):
        optimum = results.table("harvester_optimum")
        for f, R, P in zip(optimum["frequency_hz"], optimum["optimal_resistance_ohm"], optimum["power_W"]):
            ax.loglog([R], [P], "*", ms=12, label=f"optimal load at {f:.5g} Hz: {R:.4g} Ω, {P:.3g} W")
    ax.set_xlabel(peaks.label("resistance_ohm", "load resistance"))
    ax.set_ylabel(peaks.label("power_W", "power"))
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    ax.set_title(f"Harvested power against load, {excitation(results)}", fontsize=10)
    return [(fig, "harvester_power_vs_load")]


def frf(results):
    data = results.table("frf")
    f = data["frequency_hz"]
    columns = [c for c in data.columns if c.endswith(("_w_rel_m", "_V_V", "_power_W"))]
    fig, axes = plt.subplots(len(columns), 1, figsize=(7, 2.4 * len(columns) + 0.6), sharex=True, squeeze=False)
    for ax, c in zip(axes[:, 0], columns):
        values = data[c]
        (ax.semilogy if spans_decades(values[values > 0]) else ax.plot)(f, values)
        ax.set_ylabel(data.label(c, c.rsplit("_", 1)[0].replace("_w_rel", " |w_rel|").replace("_V", " |V|")
                                 .replace("_power", " power")))
        ax.grid(True, which="both", alpha=0.3)
    axes[-1, 0].set_xlabel(data.label("frequency_hz", "frequency"))
    axes[0, 0].set_title("Frequency response")
    return [(fig, "frf")]


def rl_shunt(results):
    data = results.table("rl_shunt")
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for key, label in [("short_circuit_m_N", "short circuit"), ("open_circuit_m_N", "open circuit"),
                       ("hvf_m_N", "RL, Hagood-von Flotow"), ("optimum_m_N", "RL, equal-peak optimum")]:
        ax.semilogy(data["frequency_hz"], data[key], label=label)
    ax.set_xlabel(data.label("frequency_hz", "frequency"))
    ax.set_ylabel(data.label("short_circuit_m_N", "tip receptance |w/F|"))
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    ax.set_title("RL shunt damping")
    return [(fig, "rl_shunt")]


DRAWERS = [("harvester_map.csv", harvester_families), ("harvester_peaks.csv", power_against_load),
           ("frf.csv", frf), ("rl_shunt.csv", rl_shunt)]

if __name__ == "__main__":
    main_for(__doc__, DRAWERS)
