#!/usr/bin/env python3
"""Draw a rectified harvester's run (prm/coupled/rectified_harvester.prm) and
compare its DC voltage with the standard closed form.

usage: python3 postprocess/plot_rectifier.py OUTPUT_DIR [--format png|pdf|svg]

Writes next to lumped.csv:
  rectifier.png        the electrode (piezo) voltage with +-V_DC over the last
                       periods, V_DC charging, the DC power against time
  energy_parts.png     the energy audit per element and domain against time
Prints the closed form V_DC = 2 w R (Q_M - 2 C_0 V_F)/(pi + 2 w R C_0)
(tests/reference/rectifier.py) with the induced charge amplitude
Q_M = chi^T eta measured over the harmonic analysis' periods, for the drops
V_F = 0 and V_F = the diode law's drop at the peak current w Q_M: the
measured V_DC lies between them when the DC side is smooth.
Uses matplotlib (Debian: python3-matplotlib) without a display.
"""
import json
import math
import os

from hamilton_tables import main_for, plt


def setup(results):
    return results.json["lumped"], results.table("lumped")


def window(lumped, data):
    """Row indices of the harmonic analysis' periods."""
    t, harmonic = data["t_s"], lumped.get("harmonic")
    if harmonic and not harmonic.get("found", True):  # automatic steady state without a period
        harmonic = None
    start = harmonic["from_s"] if harmonic else 0.8 * t[-1]
    return [k for k, v in enumerate(t) if v >= start], harmonic["frequency_hz"] if harmonic else None


def diode_drop(i, n_VT, Is):
    """The diode law of lumped/source/diode.cc (R_s = 0)."""
    x = i / Is
    s = math.sqrt(x * x + 1)
    return n_VT * (math.log(2 * (1 + (x + s) / 2) / 3) + 2 * math.log(1.5) * ((x - s) / 2 + 0.5))


def closed_form(directory, lumped, data, rows, f):
    """The closed form against the run (needs rom.json of a modal beam)."""
    path = os.path.join(directory, "rom.json")
    if not os.path.exists(path):
        return
    with open(path) as fr:
        electrode = json.load(fr)["electrodes"][0]
    C0, chi = electrode["capacitance_F"], electrode["coupling_N_per_V"]
    etas = sorted(k for k in data.columns if k.startswith("beam_eta") and not k.endswith("_dot"))
    induced = [sum(c * data[e][k] for c, e in zip(chi, etas)) for k in rows]
    QM = (max(induced) - min(induced)) / 2
    w = 2 * math.pi * f
    R = sum(data["power_W"][k] for k in rows) / sum(data["load_q_dot"][k] ** 2 for k in rows)
    V = sum(data["V_DC"][k] for k in rows) / len(rows)
    VF = diode_drop(w * QM, 0.025852, 1e-10)
    bound = [2 * w * R * (QM - 2 * C0 * d) / (math.pi + 2 * w * R * C0) for d in (0, VF)]
    print(f"induced charge amplitude Q_M = {QM:.6g} C, C_0 = {C0:.6g} F, R = {R:.6g} Ohm: closed form "
          f"V_DC = {bound[0]:.6g} V (ideal diodes), {bound[1]:.6g} V (drop {VF:.4g} V at the peak current "
          f"{w * QM:.4g} A); measured {V:.6g} V, effective drop "
          f"{(bound[0] - V) * (math.pi + 2 * w * R * C0) / (4 * w * R * C0):.4g} V")


def rectifier(results):
    lumped, data = setup(results)
    rows, f = window(lumped, data)
    if f:
        closed_form(results.directory, lumped, data, rows, f)
    t = data["t_s"]
    piezo = next(k for k in data.columns if k.endswith("_V") and k != "V_DC")
    fig, axes = plt.subplots(3, 1, figsize=(8, 8))
    last = rows[-int(len(rows) / 5):] if rows else range(len(t))
    axes[0].plot([t[k] * 1e3 for k in last], [data[piezo][k] for k in last], lw=0.9, label=piezo)
    for sign in (1, -1):
        axes[0].plot([t[k] * 1e3 for k in last], [sign * data["V_DC"][k] for k in last], "k--", lw=0.7,
                     label="$\\pm V_{DC}$" if sign > 0 else None)
    axes[0].set_xlabel("t (ms)")
    axes[0].set_ylabel("V")
    axes[0].legend(fontsize=8)
    axes[0].set_title("piezo voltage clipped at $\\pm(V_{DC} + 2 V_F)$")
    axes[1].plot(t, data["V_DC"], lw=0.8)
    axes[1].set_ylabel("$V_{DC}$ (V)")
    axes[1].set_title("DC voltage charging")
    axes[2].plot(t, [p * 1e6 for p in data["power_W"]], lw=0.6)
    axes[2].set_xlabel("t (s)")
    axes[2].set_ylabel("P ($\\mu$W)")
    axes[2].set_title("DC power $R\\,i^2$")
    for a in axes[1:]:
        a.set_xlabel("t (s)")
    return [(fig, "rectifier")]


def energy_parts(results):
    lumped, data = setup(results)
    parts = list(lumped["energy_audit"].get("parts", {}))
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for name in parts:
        ax.plot(data["t_s"], data[name], lw=0.9, label=name)
    ax.set_xlabel("t (s)")
    ax.set_ylabel("J")
    ax.set_title("energy audit per element and domain")
    ax.legend(fontsize=7)
    return [(fig, "energy_parts")]


DRAWERS = [("lumped.csv", rectifier), ("lumped.csv", energy_parts)]

if __name__ == "__main__":
    main_for(__doc__, DRAWERS)
