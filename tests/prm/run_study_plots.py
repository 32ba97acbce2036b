#!/usr/bin/python3
"""Run the studies of prm/studies/ (made small with --set) and postprocess/plot_study.py on
their output; every figure the script promises must be written as a non-empty PNG.

usage: run_study_plots.py HAMILTON SOURCE_DIR OUTPUT_DIR
"""
import os
import shutil
import subprocess
import sys

CASES = [
    ("unimorph_tip_mass_load_grid", [], [], ["study_lines.png", "study_map.png"]),
    ("bimorph_tip_mass_monte_carlo", ["Study/Number of samples=12"], [], ["study_histograms.png"]),
    ("bimorph_optimal_tip_mass_load", ["Study/Maximum evaluations=8"], [], ["study_history.png"]),
    ("motor_driven_run_up_map", ["Study/Parameters/u/Values=8.6, 9.3, 10", "Lumped system/Simulation/Final time=0.3"],
     ["--x", "lumped/summary/columns/disk_speed_rpm/mean"], ["study_lines.png"]),
    ("gyroscopic_campbell", [], [], ["campbell.png", "study_lines.png"]),
    ("spinning_link_campbell", ["Study/Parameters/Omega/Values=0, 150, 300"], [], ["campbell.png"]),
    ("rectifier_load_sweep", ["Study/Parameters/R/Values=10e3, 66e3", "Lumped system/Simulation/Final time=0.1",
                              "Study/Write point outputs=false"], [],
     ["study_lines.png"]),
]


def main():
    hamilton, source, output = sys.argv[1:4]
    failures = []
    for example, changes, options, figures in CASES:
        directory = os.path.join(output, example)
        shutil.rmtree(directory, ignore_errors=True)
        command = [hamilton, os.path.join(source, "prm", "studies", example + ".prm"), "--output-dir", directory]
        for change in changes:
            command += ["--set", change]
        subprocess.run(command, check=True, capture_output=True)
        run = subprocess.run([sys.executable, os.path.join(source, "postprocess", "plot_study.py"), directory] + options,
                             capture_output=True, text=True)
        print(run.stdout + run.stderr)
        if run.returncode != 0:
            failures.append(f"plot_study.py on {example} exited {run.returncode}")
        for name in figures:
            path = os.path.join(directory, name)
            if not os.path.exists(path) or os.path.getsize(path) < 1000:
                failures.append(f"{path} missing or empty")
    if failures:
        sys.exit("FAILED: " + "; ".join(failures))
    print(f"{sum(len(c[3]) for c in CASES)} figures written")


if __name__ == "__main__":
    main()
