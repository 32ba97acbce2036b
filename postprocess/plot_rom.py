#!/usr/bin/env python3
"""Read a Hamilton state-space file back and draw its Bode plot; draw the ROM
verification against the full model.

usage: python3 postprocess/plot_rom.py OUTPUT_DIR [STATE_SPACE.json]

Writes next to the files, for those that exist:
  bode.png               |H| and phase of every output for every input of
                         state_space.json, H(i w) = C (i w I - A)^-1 B + D
  rom_verification.png   ROM and full-model FRFs and their relative difference
The state-space file is plain JSON: Octave and MATLAB read it with
  s = jsondecode(fileread('state_space.json')); A = s.A; B = s.B; ...
and Python with json.load. Uses numpy and matplotlib (Debian: python3-matplotlib).
"""
import json
import os
import sys

import numpy as np

from hamilton_tables import draw_all, plt, read


def load_state_space(path):
    """(A, B, C, D, inputs, outputs) of a 'hamilton-state-space' file."""
    with open(path) as f:
        s = json.load(f)
    if s.get("format") != "hamilton-state-space" or s.get("version") != 1:
        sys.exit(f"{path}: not a hamilton-state-space file of version 1")
    A, B, C, D = (np.array(s[k], dtype=float).reshape(len(s[r]), len(s[c]))
                  for k, r, c in [("A", "states", "states"), ("B", "states", "inputs"),
                                  ("C", "outputs", "states"), ("D", "outputs", "inputs")])
    return A, B, C, D, s["inputs"], s["outputs"]


def transfer(A, B, C, D, omega):
    """H(i omega) for each omega: array (len(omega), outputs, inputs)."""
    n = A.shape[0]
    return np.array([C @ np.linalg.solve(1j * w * np.eye(n) - A, B) + D for w in omega])


def bode(path):
    A, B, C, D, inputs, outputs = load_state_space(path)
    poles = np.abs(np.linalg.eigvals(A))
    poles = poles[poles > 0]
    f = np.logspace(np.log10(poles.min() / 2 / np.pi / 10), np.log10(poles.max() / 2 / np.pi * 2), 3000)
    H = transfer(A, B, C, D, 2 * np.pi * f)
    figures = []
    for j, name in enumerate(inputs):
        fig, (mag, phase) = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
        for i, out in enumerate(outputs):
            h = H[:, i, j]
            if np.abs(h).max() == 0:
                continue
            mag.loglog(f, np.abs(h), label=out)
            phase.semilogx(f, np.degrees(np.unwrap(np.angle(h))), label=out)
        mag.set_ylabel("|H| (output unit per input unit)")
        mag.set_title(f"Bode plot, input: {name}")
        mag.legend(fontsize=7)
        phase.set_xlabel("frequency (Hz)")
        phase.set_ylabel("phase (deg)")
        mag.grid(True, which="both", alpha=0.3)
        phase.grid(True, which="both", alpha=0.3)
        figures.append((fig, "bode.png" if j == 0 else f"bode_input_{j + 1}.png"))
    return figures


def verification(directory):
    data = read(os.path.join(directory, "rom_verification.csv"))
    f = data["frequency_hz"]
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    for key in data:
        for suffix, unit in [("_w_full_m", "m"), ("_V_full_V", "V")]:
            if key.endswith(suffix):
                stem = key[: -len(suffix)]
                top.loglog(f, data[key], label=f"{stem} full ({unit})")
                top.loglog(f, data[key.replace("_full_", "_rom_")], "--", label=f"{stem} ROM")
                bottom.loglog(f, [max(x, 1e-17) for x in data[stem + "_relative_difference"]], label=stem)
    top.set_ylabel("amplitude per m/s^2")
    top.legend(fontsize=7)
    bottom.set_ylabel("relative difference")
    bottom.set_xlabel("frequency (Hz)")
    for ax in (top, bottom):
        ax.grid(True, which="both", alpha=0.3)
    return [(fig, "rom_verification.png")]


def drawers(name="state_space.json"):
    return [(name, lambda d: bode(os.path.join(d, name))), ("rom_verification.csv", verification)]


DRAWERS = drawers()


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    directory = sys.argv[1]
    name = os.path.basename(sys.argv[2]) if len(sys.argv) > 2 else "state_space.json"
    made = draw_all(directory, drawers(name))
    print("\n".join(made) if made else f"nothing to draw in {directory}")


if __name__ == "__main__":
    main()
