#!/usr/bin/env python3
"""Run examples and the postprocess scripts on their output; every figure the
scripts promise must be written as a non-empty PNG.

usage: run_plots.py HAMILTON SOURCE_DIR OUTPUT_DIR
"""
import os
import shutil
import subprocess
import sys

CASES = [
    ("prm/beam/prestressed_pinned_beam.prm", "plot_beam.py", ["mode_shapes.png", "static.png"]),
    ("prm/beam/tip_mass_sweep.prm", "plot_beam.py", ["sweep.png"]),
    ("prm/beam/buckling.prm", "plot_beam.py", ["buckling.png"]),
    ("prm/piezo/bimorph_harvester.prm", "plot_piezo.py",
     ["harvester_voltage.png", "harvester_power.png", "harvester_power_vs_load.png", "frf.png"]),
    ("prm/piezo/rl_shunt.prm", "plot_piezo.py", ["rl_shunt.png", "frf.png"]),
    ("prm/coupled/shunted_cantilever.prm", "plot_all.py",
     ["frf.png", "bode.png", "lumped_coordinates.png", "lumped_outputs.png", "energy_audit.png"]),
    ("prm/coupled/rectified_harvester.prm", "plot_rectifier.py", ["rectifier.png", "energy_parts.png"]),
]


def main():
    hamilton, source, output = sys.argv[1:4]
    failures = []
    for example, script, figures in CASES:
        directory = os.path.join(output, os.path.basename(example)[:-4])
        shutil.rmtree(directory, ignore_errors=True)
        subprocess.run([hamilton, os.path.join(source, example), "--output-dir", directory],
                       check=True, capture_output=True)
        run = subprocess.run([sys.executable, os.path.join(source, "postprocess", script), directory],
                             capture_output=True, text=True)
        print(run.stdout + run.stderr)
        if run.returncode != 0:
            failures.append(f"{script} on {example} exited {run.returncode}")
        for name in figures:
            path = os.path.join(directory, name)
            if not os.path.exists(path) or os.path.getsize(path) < 1000:
                failures.append(f"{path} missing or empty")
    if failures:
        sys.exit("FAILED: " + "; ".join(failures))
    print(f"{sum(len(c[2]) for c in CASES)} figures written")


if __name__ == "__main__":
    main()
