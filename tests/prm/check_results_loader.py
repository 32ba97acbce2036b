#!/usr/bin/env python3
"""The Python loader (postprocess/hamilton_results.py) on the outputs of three
examples, against values it does not compute itself:

* prm/rom/bimorph_rom_export.prm: rom.json as matrices, its frequencies
  against scipy.linalg.eigh(K, M) (a second eigensolver); state_space.json as a
  scipy.signal.StateSpace whose tip and voltage responses,
  C (i w I - A)^-1 B + D, match the full finite-element model's in
  rom_verification.csv (not the ROM) to the verification's accuracy (1e-4);
  every CSV has a sidecar describing each of its columns with a unit.
* prm/lumped/scotch_yoke_dc_motor.prm: units of lumped.csv from the 'Units'
  entry (alpha rad, torque N m), electrical coordinates by default (q C, its
  rate A), velocities (rad/s); the last row equals results.json's final state.
* prm/coupled/harvester_prescribed_motion.prm: the ROM's coordinates in
  kg^1/2 m, its electrode's charge in C, an output's unit from its name
  (power_W -> W).
Then the plot scripts' messages: --format with an unknown value, a directory
without results, and a figure written as PDF and SVG.

usage: check_results_loader.py HAMILTON SOURCE_DIR OUTPUT_DIR
"""
import os
import shutil
import subprocess
import sys

import numpy as np
import scipy.linalg
from scipy import signal

failures = []


def check(condition, what):
    print(("ok      " if condition else "FAILED  ") + what)
    if not condition:
        failures.append(what)


def run(hamilton, source, example, output):
    directory = os.path.join(output, os.path.basename(example)[:-4])
    shutil.rmtree(directory, ignore_errors=True)
    subprocess.run([hamilton, os.path.join(source, example), "--output-dir", directory], check=True,
                   capture_output=True)
    return directory


def main():
    hamilton, source, output = sys.argv[1:4]
    sys.path.insert(0, os.path.join(source, "postprocess"))
    import hamilton_results as hr

    # --- a beam's ROM export
    results = hr.Results(run(hamilton, source, "prm/rom/bimorph_rom_export.prm", output))
    rom = results.rom()
    omega = np.sqrt(scipy.linalg.eigh(rom.K, rom.M, eigvals_only=True))
    check(np.allclose(np.sort(omega) / (2 * np.pi), np.sort(rom.frequencies_hz), rtol=1e-9),
          "rom.json: eigh(K, M) gives the file's frequencies (rel 1e-9)")
    check(rom.n_normal_modes == 4 and rom.normal.sum() == 4 and len(rom.normal) == 8,
          "rom.json: 4 normal modes + 4 static corrections")
    ss = results.state_space()
    check(isinstance(ss, signal.StateSpace), "state_space() is a scipy.signal.StateSpace")
    verification = results.table("rom_verification")
    # below the ROM's validity limit (0.8 x its highest mode), every 5th row
    limit = results.json["reduced_model"]["verification"]["frf_upper_frequency_hz"]
    rows = np.flatnonzero(verification["frequency_hz"] <= limit)[::5]
    f = verification["frequency_hz"][rows]
    tip = ss.outputs.index("displacement at tip (m)")
    voltage = ss.outputs.index("V_harvester (V)")
    base = ss.inputs.index("base acceleration (m/s^2)")
    # H(i w) = C (i w I - A)^-1 B + D (scipy.signal.freqresp takes one input and
    # one output only, through an ill-conditioned polynomial form)
    n = ss.A.shape[0]
    H = np.array([ss.C @ scipy.linalg.solve(1j * w * np.eye(n) - ss.A, ss.B[:, base]) + ss.D[:, base]
                  for w in 2 * np.pi * f]).T
    for row, column in [(tip, "tip_w_full_m"), (voltage, "harvester_V_full_V")]:
        full = verification[column][rows]
        error = np.max(np.abs(np.abs(H[row]) - full) / full)
        check(error < 1e-4, f"state space |H| against the full model's {column}: largest relative difference "
                            f"{error:.2g} < 1e-4 over {f[0]:.4g} ... {f[-1]:.4g} Hz")
    for stem in results.tables():
        table = results.table(stem)
        check(os.path.exists(table.path + ".columns.json"), f"{stem}.csv has a sidecar")
        missing = [c for c in table.columns if not table.unit(c) or not table.meaning(c)]
        check(not missing, f"{stem}.csv: every column has a unit and a meaning (missing: {missing})")
    modes = results.table("modes")
    check(modes.unit("frequency_hz") == "Hz" and modes.label("frequency_hz", "f") == "f (Hz)",
          "modes.csv: frequency_hz in Hz, label 'f (Hz)'")
    check(np.allclose(modes["frequency_hz"], [m["frequency_hz"] for m in results.json["modes"]], rtol=1e-15),
          "modes.csv and results.json agree")
    check(verification.unit("tip_w_full_m") == "m" and verification.unit("tip_relative_difference") == "1",
          "rom_verification.csv: units m and 1")

    # --- a lumped system with a 'Units' entry
    results = hr.Results(run(hamilton, source, "prm/lumped/scotch_yoke_dc_motor.prm", output))
    lumped = results.table("lumped")
    expected = {"t_s": "s", "alpha": "rad", "alpha_dot": "rad/s", "q": "C", "q_dot": "A", "x": "m",
                "torque": "N m", "current": "A", "supplied_work_J": "J"}
    for name, unit in expected.items():
        check(lumped.unit(name) == unit, f"lumped.csv: {name} in {unit!r} (got {lumped.unit(name)!r})")
    final = results.json["lumped"]["final_state"]
    check(all(abs(lumped[k][-1] - v) <= 1e-11 * max(1.0, abs(v)) for k, v in final.items()),
          "lumped.csv's last row is results.json's final state")
    try:
        frame = lumped.to_pandas()
        check(frame.attrs["units"]["alpha"] == "rad", "to_pandas() keeps the units")
    except hr.ResultsError as e:
        check("python3-pandas" in str(e), "to_pandas() without pandas says which package to install")

    # --- a coupled run: a ROM inside a lumped system
    results = hr.Results(run(hamilton, source, "prm/coupled/harvester_prescribed_motion.prm", output))
    lumped = results.table("lumped")
    for name, unit in {"beam_eta1": "kg^1/2 m", "beam_eta1_dot": "(kg^1/2 m)/s", "beam_top": "C",
                       "beam_top_dot": "A", "x": "m", "power_W": "W", "beam_top_V": "V"}.items():
        check(lumped.unit(name) == unit, f"coupled lumped.csv: {name} in {unit!r} (got {lumped.unit(name)!r})")

    # --- the plot scripts' messages and formats
    plot = os.path.join(source, "postprocess", "plot_lumped.py")
    bad = subprocess.run([sys.executable, plot, results.directory, "--format", "jpg"], capture_output=True, text=True)
    check(bad.returncode == 1 and "--format 'jpg' is not a format" in bad.stderr and "png, pdf, svg" in bad.stderr,
          f"--format jpg refused: {bad.stderr.strip()}")
    empty = os.path.join(output, "empty")
    shutil.rmtree(empty, ignore_errors=True)
    os.makedirs(empty)
    for script in ["plot_all.py", "plot_beam.py", "plot_piezo.py", "plot_rom.py", "plot_lumped.py", "plot_study.py",
                   "render_animation.py"]:
        none = subprocess.run([sys.executable, os.path.join(source, "postprocess", script), empty],
                              capture_output=True, text=True)
        check(none.returncode == 1 and "holds no results of a Hamilton run" in none.stderr,
              f"{script} on an empty directory: {none.stderr.strip()[:120]}")
    for form in ["pdf", "svg"]:
        made = subprocess.run([sys.executable, plot, results.directory, "--format", form], capture_output=True,
                              text=True)
        name = os.path.join(results.directory, f"lumped_outputs.{form}")
        check(made.returncode == 0 and os.path.getsize(name) > 5000, f"lumped_outputs.{form} written")

    if failures:
        sys.exit(f"FAILED: {len(failures)} checks")
    print("all checks passed")


if __name__ == "__main__":
    main()
