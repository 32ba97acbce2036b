#!/usr/bin/env python3
"""A study over lumped parameters compiles its equations once, and its rows equal single runs.

usage: check_study_runtime_parameters.py HAMILTON SOURCE_DIR OUTPUT_DIR

A study that varies entries of 'Lumped system' passes the lumped parameters
to the compiled code at run time (lumped/source/simulation.cc,
set_runtime_parameters), so all its points share one run of the C compiler:
results.json's n_compilations must be 1. Each row is then compared with a run
of the same file without the study ('--set Study/Design=none') and the point's
values given by --set (a single run substitutes the values before code
generation, so the rounding differs):

* prm/studies/gyroscopic_campbell.prm (5 points over W, eigenvalues of the
  linearization): equal to 1e-12 relative (round-off of one evaluation of the
  Jacobian and an eigensolve); the closed form sqrt(wn^2 + W^2) -/+ W to 1e-9
  is checked by the Campbell test of that example.
* tests/prm/study_runtime_parameters.prm (scotch yoke with DC motor, 3 x 2
  grid over mc and over l, on which bm = l/1000 depends; 0.2 s integrated with
  IDAS at relative tolerance 1e-11): the final state equal to 1e-7 relative
  (x to 1e-9 m). The different rounding of the residual changes IDAS's step
  sequence, so the two runs differ by their integration error; measured
  0.12 of these tolerances at most.
"""
import csv
import json
import os
import shutil
import subprocess
import sys

hamilton, source, output = sys.argv[1:4]
shutil.rmtree(output, ignore_errors=True)
cases = [  # file, parameter paths, relative tolerance, absolute tolerance per quantity
    ("prm/studies/gyroscopic_campbell.prm", {"Omega": "Lumped system/Parameters/W"}, 1e-12, {}),
    ("tests/prm/study_runtime_parameters.prm",
     {"cart_mass": "Lumped system/Parameters/mc", "inductance": "Lumped system/Parameters/l"}, 1e-7,
     {"lumped/final_state/x": 1e-9}),
]


def at(results, path):
    for key in path.split("/"):
        results = results[int(key)] if isinstance(results, list) else results[key]
    return float(results)


failures = []
for example, parameters, relative, absolute in cases:
    name = os.path.splitext(os.path.basename(example))[0]
    study = os.path.join(output, name, "study")
    subprocess.run([hamilton, os.path.join(source, example), "--output-dir", study], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    summary = json.load(open(os.path.join(study, "results.json")))
    if summary["n_compilations"] != 1:
        failures.append(f"{name}: the study compiled its lumped equations {summary['n_compilations']} times, "
                        "expected once")
    rows = list(csv.DictReader(open(os.path.join(study, "study.csv"))))
    quantities = [c for c in rows[0] if c != "point" and c not in parameters]
    largest = 0.0
    for row in rows:
        single = os.path.join(output, name, "point" + row["point"])
        command = [hamilton, os.path.join(source, example), "--output-dir", single, "--set", "Study/Design=none"]
        for column, path in parameters.items():
            command += ["--set", f"{path}={row[column]}"]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        results = json.load(open(os.path.join(single, "results.json")))
        for q in quantities:
            a, b = float(row[q]), at(results, q)
            bound = max(relative * abs(b), absolute.get(q, 0.0), 1e-300)
            largest = max(largest, abs(a - b) / bound)
            if abs(a - b) > bound:
                failures.append(f"{name} point {row['point']} {q}: study {a!r}, single run {b!r}, "
                                f"difference {abs(a - b):.3g} > {bound:.3g}")
    print(f"{name}: {len(rows)} points, {summary['n_compilations']} compilation(s), largest difference "
          f"{largest:.3g} of the tolerance")
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
