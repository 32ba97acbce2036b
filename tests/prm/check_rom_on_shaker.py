#!/usr/bin/env python3
"""A continuum ROM in a lumped system against the ROM's own frequency response.

usage: check_rom_on_shaker.py HAMILTON EXAMPLE.prm OUTPUT_DIR

Runs prm/continuum/bimorph_3d_on_shaker.prm (the continuum writes rom.json, the
lumped system shakes it at 1 g, 500 Hz, with 470 Ohm on the top electrode),
fits a 500 Hz sine to the last 5 periods of the electrode voltage in
lumped.csv, and compares its amplitude with the steady state computed here
independently from rom.json (numpy, complex modal equations):
  (K - W^2 M + i W D) eta - chi V = -p A,   (i W C + 1/R) V + i W chi^T eta = 0
with D = diag(2 zeta omega) and A = 9.81 m/s^2. Tolerance 2e-5 (measured 4.9e-6):
the transient left after 0.4 s at zeta = 0.0088 is about 9e-6.
"""
import csv
import json
import os
import shutil
import subprocess
import sys

import numpy as np

hamilton, example, output = sys.argv[1:4]
shutil.rmtree(output, ignore_errors=True)
subprocess.run([hamilton, example, "--output-dir", output], check=True, stdout=subprocess.DEVNULL)

rom = json.load(open(os.path.join(output, "rom.json")))
f, A, R = 500.0, 9.81, 470.0
W = 2 * np.pi * f
omega = np.array(rom["angular_frequencies_rad_s"])
zeta = np.array(rom["damping_ratios"])
M = np.array(rom["mass_matrix"])
K = np.array(rom["stiffness_matrix"])
p = np.array(rom["participation_base_translation"])
(electrode,) = rom["electrodes"]
chi = np.array(electrode["coupling_N_per_V"])
C = electrode["capacitance_F"]
n = len(omega)
system = np.zeros((n + 1, n + 1), dtype=complex)
system[:n, :n] = K - W**2 * M + 1j * W * np.diag(2 * zeta * omega)
system[:n, n] = -chi
system[n, :n] = 1j * W * chi
system[n, n] = 1j * W * C + 1 / R
rhs = np.zeros(n + 1, dtype=complex)
rhs[:n] = -p * A
expected = abs(np.linalg.solve(system, rhs)[n])

rows = list(csv.DictReader(open(os.path.join(output, "lumped.csv"))))
column = next(c for c in rows[0] if c.startswith("beam_top_V"))
t = np.array([float(r["t_s"]) for r in rows])
v = np.array([float(r[column]) for r in rows])
window = t >= t[-1] - 5 / f
basis = np.column_stack([np.sin(W * t[window]), np.cos(W * t[window]), np.ones(window.sum())])
coefficients = np.linalg.lstsq(basis, v[window], rcond=None)[0]
measured = np.hypot(coefficients[0], coefficients[1])
error = measured / expected - 1
print(f"voltage amplitude: time integration {measured:.9g} V, ROM frequency response {expected:.9g} V, "
      f"relative difference {error:.2e} (tolerance 2e-5)")
sys.exit(0 if abs(error) < 2e-5 else 1)
