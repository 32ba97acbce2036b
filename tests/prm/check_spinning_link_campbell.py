#!/usr/bin/env python3
"""The Campbell diagram of prm/studies/spinning_link_campbell.prm against the beam solver.

usage: check_spinning_link_campbell.py HAMILTON EXAMPLE.prm OUTPUT_DIR

Runs the study (per hub speed Omega the linearized lumped system: the 8-mode
ROM of the non-rotating link on a root held at theta = Omega t). For each
Omega, runs the beam of the same file alone with the centrifugal prestress
N0(x) = rhoA Omega^2 (L^2 - x^2)/2 ('Beam/Prestress/Axial force', modal analysis
with the prestress): in the rotating frame in-plane bending has
omega^2 = omega_FE(N0)^2 - Omega^2. Modes 1 and 2 must agree within
1.5e-6 (Omega/100 rad/s)^4 + 1e-12: the non-rotating modes are a Ritz basis for
the rotating ones, and the error of the 8-mode basis grows like Omega^4
(measured on mode 1: 1.0e-6 at 100 rad/s, 1.05e-4 at 300 rad/s). The
frequencies must rise with Omega (stiffening wins for a cantilever).
"""
import csv
import json
import math
import os
import re
import shutil
import subprocess
import sys

hamilton, example, output = sys.argv[1:4]
shutil.rmtree(output, ignore_errors=True)
subprocess.run([hamilton, example, "--output-dir", os.path.join(output, "study")], check=True,
               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
rows = list(csv.DictReader(open(os.path.join(output, "study", "study.csv"))))

# the beam alone: the file without its lumped system and study, a modal analysis with the prestress
text = open(example).read()
beam = text[text.index("subsection Beam"):text.index("subsection Analysis")]
beam = beam.replace("  subsection Supports", "  subsection Prestress\n    set Axial force = 0\n  end\n  subsection Supports")
beam += ("subsection Analysis\n  set Analyses = modal\n  subsection Modal\n    set Number of modes = 2\n"
         "    set Include prestress = true\n  end\nend\n")
beam_file = os.path.join(output, "beam.prm")
with open(beam_file, "w") as f:
    f.write(beam)
rhoA = 7850 * 0.002 * 0.02
failures, previous = [], [0, 0]
for row in rows:
    W = float(row["Omega"])
    directory = os.path.join(output, f"beam_{W:g}")
    subprocess.run([hamilton, beam_file, "--output-dir", directory, "--set",
                    f"Beam/Prestress/Axial force={rhoA!r}*{W!r}^2/2*(0.3^2 - x^2)"], check=True,
                   stdout=subprocess.DEVNULL)
    modes = json.load(open(os.path.join(directory, "results.json")))["modes"]
    for k, column in enumerate(("lumped/linearization/eigenvalues/0/imag", "lumped/linearization/eigenvalues/2/imag")):
        lumped = abs(float(row[column]))
        reference = math.sqrt(modes[k]["angular_frequency_rad_s"] ** 2 - W**2)
        error = lumped / reference - 1
        print(f"Omega = {W:5.1f} rad/s, mode {k + 1}: linearized {lumped:.9g} rad/s, beam solver "
              f"sqrt(omega_FE^2 - Omega^2) = {reference:.9g} rad/s ({error:+.2e})")
        if abs(error) > 1.5e-6 * (W / 100) ** 4 + 1e-12:
            failures.append(f"Omega = {W}, mode {k + 1}: {error:+.2e}")
        if lumped <= previous[k]:
            failures.append(f"Omega = {W}, mode {k + 1}: the frequency does not rise")
        previous[k] = lumped
if failures:
    sys.exit("FAILED: " + "; ".join(failures))
print(f"{len(rows)} hub speeds checked")
