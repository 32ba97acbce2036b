#!/usr/bin/env python3
"""A coupled study solves its beam (exports its ROM) once per distinct beam, and its rows equal single runs.

usage: check_study_beam_reuse.py HAMILTON SOURCE_DIR OUTPUT_DIR

benchmarks/coupled_study.prm (a piezoelectric beam, its 2-mode ROM exported
and driven through a scotch yoke by a DC motor) as a study:

* over the motor voltage ('Lumped system/Time functions/u/Value' = 6, 9, 12 V):
  nothing outside 'Lumped system' changes, so the beam is solved once
  (results.json n_beam_solves = 1) and the lumped equations compiled once
  (n_compilations = 1; a time function is not part of the code);
* over the substrate thickness ('Beam/Layers/metal/Thickness' = 0.5, 0.6,
  0.5 mm): the beam is solved at every point (n_beam_solves = 3: only the last
  point's beam is kept, and point 2 differs from point 1).

Every row must equal, bit for bit, a run of the file without the study
('--set Study/Design=none') with the point's value given by --set: a beam
taken from the point before is the beam a fresh run solves.
"""
import csv
import json
import os
import shutil
import subprocess
import sys

hamilton, source, output = sys.argv[1:4]
shutil.rmtree(output, ignore_errors=True)
example = os.path.join(source, "benchmarks", "coupled_study.prm")
cases = [  # name, path, values, expected beam solves, expected compilations
    ("voltage", "Lumped system/Time functions/u/Value", "6, 9, 12", 1, 1),
    ("thickness", "Beam/Layers/metal/Thickness", "0.5e-3, 0.6e-3, 0.5e-3", 3, None),
]
compared = ["lumped/summary/columns/disk_speed_rpm/mean", "lumped/summary/columns/power_W/mean"]


def at(results, path):
    for key in path.split("/"):
        results = results[int(key)] if isinstance(results, list) else results[key]
    return float(results)


failures = []
for name, path, values, beam_solves, compilations in cases:
    study = os.path.join(output, name)
    subprocess.run([hamilton, example, "--output-dir", study, "--set", f"Study/Parameters/u/Path={path}",
                    "--set", f"Study/Parameters/u/Values={values}"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    summary = json.load(open(os.path.join(study, "results.json")))
    if summary["n_beam_solves"] != beam_solves:
        failures.append(f"{name}: the beam was solved {summary['n_beam_solves']} times, expected {beam_solves}")
    if compilations is not None and summary["n_compilations"] != compilations:
        failures.append(f"{name}: the lumped equations were compiled {summary['n_compilations']} times, "
                        f"expected {compilations}")
    rows = list(csv.DictReader(open(os.path.join(study, "study.csv"))))
    for row in rows:
        single = os.path.join(output, f"{name}_point{row['point']}")
        subprocess.run([hamilton, example, "--output-dir", single, "--set", "Study/Design=none",
                        "--set", f"{path}={row['u']}"], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        results = json.load(open(os.path.join(single, "results.json")))
        for q in compared:
            if float(row[q]) != at(results, q):
                failures.append(f"{name} point {row['point']} {q}: study {row[q]}, single run {at(results, q)!r}")
    print(f"{name}: {len(rows)} points, beam solved {summary['n_beam_solves']} time(s), lumped equations "
          f"compiled {summary['n_compilations']} time(s)")
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
