#!/usr/bin/env python3
"""Near-ideal diodes behind a constraint at every tolerance (issue 14):
prm/lumped/rectifier_bridge_constrained_near_ideal.prm (a bridge of Shockley
diodes, I_s = 1e-14 A, n = 1, the piezo's displacement prescribed by a
holonomic constraint: index-2 multipliers) run at 'Simulation/Relative
tolerance' 1e-7, 1e-8, 1e-9 and 1e-10 (--set; the rest of the file as it
is) must finish and give V_DC and P within the tolerances of
tests/prm/lumped/rectifier_bridge_constrained_near_ideal.expected.json
(1e-5 and 2e-5) of the values there, which come from the SciPy Radau
integration of the same bridge (tests/reference/rectifier_shockley.py). Until
the knee test of the Newton iteration weighed the error of a diode's current
(doc/lumped.md, "Limits."), the run at 1e-8 stopped at t = 2.15604 s.

usage: check_near_ideal_tolerances.py HAMILTON EXAMPLE.prm EXPECTED.json OUTPUT_DIR
"""
import json
import os
import shutil
import subprocess
import sys

hamilton, example, expected, output = sys.argv[1:5]
checks = {c["path"]: c for c in json.load(open(expected))["checks"]}
compared = ["lumped/harmonic/columns/V_DC/mean", "lumped/harmonic/columns/power_W/mean"]


def lookup(data, path):
    for key in path.split("/"):
        data = data[key]
    return data


shutil.rmtree(output, ignore_errors=True)
failures = []
for rtol in ["1e-7", "1e-8", "1e-9", "1e-10"]:
    directory = os.path.join(output, "rtol_" + rtol)
    run = subprocess.run([hamilton, example, "--output-dir", directory, "--set",
                          "Lumped system/Simulation/Relative tolerance=" + rtol],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if run.returncode != 0:
        failures.append(f"rtol {rtol}: exit status {run.returncode}: {run.stdout[-600:]}")
        print(failures[-1])
        continue
    results = json.load(open(os.path.join(directory, "results.json")))
    line = [f"rtol {rtol}:"]
    for path in compared:
        value, reference, tolerance = lookup(results, path), checks[path]["value"], checks[path]["rel_tol"]
        error = value / reference - 1
        line.append(f"{path.split('/')[-2]} {value:.8g} ({error:+.2e}, allowed {tolerance:g})")
        if abs(error) > tolerance:
            failures.append(f"rtol {rtol}: {path} = {value:.8g}, reference {reference:.8g}")
    evaluations = results["lumped"]["evaluations"]
    line.append(f"{evaluations['residual_per_period']:.0f} residuals, "
                f"{evaluations['jacobian']} Jacobians")
    print(" ".join(line))
if failures:
    print("FAILED:\n  " + "\n  ".join(failures))
    sys.exit(1)
print("all tolerances within the reference")
