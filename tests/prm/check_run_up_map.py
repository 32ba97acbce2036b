#!/usr/bin/python3
"""The run-up map of prm/studies/motor_driven_run_up_map.prm against the beam's steady state.

usage: check_run_up_map.py HAMILTON EXAMPLE.prm OUTPUT_DIR

Runs the study (constant motor voltages; per point the mean disk speed and the
mean harvested power over the last 20 % of a 2.5 s run). At a steady speed
Omega the scotch yoke moves the cart by e cos(Omega t), a base acceleration of
amplitude e Omega^2 (e = 0.1 mm) at Omega, so each point's mean power is the
beam's steady-state |V|^2/(2R) at the point's measured mean speed, computed here
without Hamilton (tests/reference/tip_mass_harvester.py):
  * with the ROM's truncation (the 2 lowest exact short-circuit modes of the
    uniform cantilever, no static correction, Rayleigh zeta_r): every point
    within 1.5 % (the mean is over 0.5 s, not whole periods, and the speed
    ripples: measured up to 0.84 %);
  * the exact boundary-value problem (every mode) is printed for comparison:
    the 2-mode ROM is up to 3.3 % off it away from the resonance.
The largest power lies at the point whose speed is nearest the frequency of
the largest power for R = 100 kOhm (48.662 Hz, the same reference), and the
largest value exceeds each end of the sweep 50 times (the resonance shows).
"""
import csv
import math
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reference"))
import tip_mass_harvester as ref  # noqa: E402

hamilton, example, output = sys.argv[1:4]
shutil.rmtree(output, ignore_errors=True)
subprocess.run([hamilton, example, "--output-dir", output], check=True, stdout=subprocess.DEVNULL)
rows = list(csv.DictReader(open(os.path.join(output, "study.csv"))))
beam, e, R = ref.unimorph_1c(), 1e-4, 1e5
failures, powers, speeds = [], [], []
for row in rows:
    W = float(row["lumped/summary/columns/disk_speed_rpm/mean"]) * math.pi / 30
    P = float(row["lumped/summary/columns/power_W/mean"])
    f, a = W / (2 * math.pi), e * W**2
    rom = abs(ref.modal_voltage(beam, 2, R, f, a, *ref.UNIMORPH_DAMPING)) ** 2 / (2 * R)
    exact = ref.power(beam, 0, R, f, a, *ref.UNIMORPH_DAMPING, average=True)
    error = P / rom - 1
    print(f"u = {float(row['u']):5.2f} V: {f:8.4f} Hz, mean power {P:.6e} W, 2-mode steady state {rom:.6e} W "
          f"({error:+.2e}), exact beam {exact:.6e} W ({P / exact - 1:+.2e})")
    if abs(error) > 0.015:
        failures.append(f"u = {row['u']} V: {error:+.2e} off the 2-mode steady state")
    powers.append(P)
    speeds.append(f)
f_peak = ref.peak_over_frequency(beam, 0, R, 1.0, 45, 52, *ref.UNIMORPH_DAMPING)[1]
largest = max(range(len(powers)), key=lambda i: powers[i])
nearest = min(range(len(speeds)), key=lambda i: abs(speeds[i] - f_peak))
print(f"largest mean power at {speeds[largest]:.4f} Hz; the largest power of R = 100 kOhm at {f_peak:.4f} Hz")
if largest != nearest:
    failures.append(f"the largest power is at {speeds[largest]:.4f} Hz, not at the point nearest {f_peak:.4f} Hz")
if not (powers[largest] > 50 * powers[0] and powers[largest] > 50 * powers[-1]):
    failures.append("no resonance peak: the largest power is not 50 times the ends' powers")
if failures:
    sys.exit("FAILED: " + "; ".join(failures))
print(f"{len(rows)} points checked")
