#!/usr/bin/env python3
"""Draw the Bode plot of a Hamilton state-space file and the ROM verification
against the full model.

usage: python3 postprocess/plot_rom.py OUTPUT_DIR [STATE_SPACE.json] [--format png|pdf|svg]

Writes next to the files, for those that exist:
  bode.png               |H| and phase of every output for every input of
                         state_space.json, H(i w) = C (i w I - A)^-1 B + D;
                         the ROM's normal modes (solid lines) and its
                         static-correction coordinates (dotted: not modes, they
                         carry the static response of the modes left out) are
                         marked, and the band above the validity limit (0.8 x the
                         highest normal mode, where the verification stops) is
                         shaded
  rom_verification.png   ROM and full-model FRFs and their relative difference
The state-space file is plain JSON: Octave and MATLAB read it with
  s = jsondecode(fileread('state_space.json')); A = s.A; B = s.B; ...
and Python with hamilton_results.Results(dir).state_space() (a
scipy.signal.StateSpace). Uses numpy, scipy and matplotlib (Debian packages).
"""
import os

import numpy as np

from hamilton_tables import draw_all, open_results, parse_command_line, plt, with_unit
from hamilton_results import ResultsError


def transfer(system, omega):
    """H(i omega) for each omega: array (len(omega), outputs, inputs)."""
    A, B, C, D = system.A, system.B, system.C, system.D
    n = A.shape[0]
    return np.array([C @ np.linalg.solve(1j * w * np.eye(n) - A, B) + D for w in omega])


def split_unit(name):
    """'displacement at tip (m)' -> ('displacement at tip', 'm')."""
    if name.endswith(")") and " (" in name:
        text, unit = name[:-1].rsplit(" (", 1)
        return text, unit
    return name, ""


def rom_of(results):
    """The ROM the state space was built from (results.json names it), or None."""
    name = results.json.get("reduced_model", {}).get("file")
    try:
        return results.rom(name)
    except (ResultsError, OSError):
        return None


def bode(results, name):
    system = results.state_space(name)
    rom = rom_of(results)
    poles = np.abs(np.linalg.eigvals(system.A))
    poles = poles[poles > 0]
    f = np.logspace(np.log10(poles.min() / 2 / np.pi / 10), np.log10(poles.max() / 2 / np.pi * 2), 3000)
    H = transfer(system, 2 * np.pi * f)
    limit = None
    if rom is not None and rom.n_normal_modes > 0:
        limit = results.json.get("reduced_model", {}).get("verification", {}).get(
            "frf_upper_frequency_hz", 0.8 * rom.frequencies_hz[rom.n_normal_modes - 1])
    figures = []
    for j, input_name in enumerate(system.inputs):
        fig, (mag, phase) = plt.subplots(2, 1, figsize=(8, 6.5), sharex=True)
        for i, out in enumerate(system.outputs):
            h = H[:, i, j]
            if np.abs(h).max() == 0:
                continue
            text, unit = split_unit(out)
            in_text, in_unit = split_unit(input_name)
            label = with_unit(text, f"{unit} per {in_unit}" if unit and in_unit else "")
            mag.loglog(f, np.abs(h), label=label)
            phase.semilogx(f, np.degrees(np.unwrap(np.angle(h))), label=label)
        if rom is not None:
            for k, (fk, normal) in enumerate(zip(rom.frequencies_hz, rom.normal)):
                if f[0] <= fk <= f[-1]:
                    for ax in (mag, phase):
                        ax.axvline(fk, color="0.4" if normal else "C3", lw=0.8, ls="-" if normal else ":",
                                   label=None if ax is phase or k not in (0, rom.n_normal_modes) else
                                   ("normal mode" if normal else "static-correction coordinate (not a mode)"))
            if limit:
                for ax in (mag, phase):
                    ax.axvspan(limit, f[-1], color="0.85", zorder=0,
                               label=f"above the ROM's validity limit, {limit:.4g} Hz" if ax is mag else None)
        mag.set_ylabel("|H|")
        mag.set_title(f"Bode plot, input: {input_name}", fontsize=11)
        mag.legend(fontsize=8)
        phase.set_xlabel("frequency (Hz)")
        phase.set_ylabel("phase (deg)")
        for ax in (mag, phase):
            ax.grid(True, which="both", alpha=0.3)
            ax.set_xlim(f[0], f[-1])
        figures.append((fig, "bode" if j == 0 else f"bode_input_{j + 1}"))
    return figures


def verification(results):
    data = results.table("rom_verification")
    f = data["frequency_hz"]
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7.5, 6.5), sharex=True)
    for key in data.columns:
        for suffix in ("_w_full_m", "_V_full_V"):
            if key.endswith(suffix):
                stem = key[: -len(suffix)]
                line, = top.loglog(f, data[key], label=f"{stem}, full model ({data.unit(key)})")
                top.loglog(f, data[key.replace("_full_", "_rom_")], "--", color=line.get_color(), label=f"{stem}, ROM")
                bottom.loglog(f, np.maximum(data[stem + "_relative_difference"], 1e-17), label=stem)
    top.set_ylabel("amplitude per m/s² base acceleration")
    top.legend(fontsize=8)
    bottom.set_ylabel("relative difference")
    bottom.set_xlabel(data.label("frequency_hz", "frequency"))
    bottom.legend(fontsize=8)
    for ax in (top, bottom):
        ax.grid(True, which="both", alpha=0.3)
    return [(fig, "rom_verification")]


def drawers(name="state_space.json"):
    return [(name, lambda results: bode(results, name)), ("rom_verification.csv", verification)]


DRAWERS = drawers()


def main():
    directory, rest, form = parse_command_line(__doc__, extra=True)
    name = os.path.basename(rest[0]) if rest else "state_space.json"
    results = open_results(directory)
    made = draw_all(results, drawers(name), form)
    if not made:
        raise SystemExit(f"plot_rom.py: {directory} holds neither {name} nor rom_verification.csv")
    print("wrote " + ", ".join(made))


if __name__ == "__main__":
    main()
