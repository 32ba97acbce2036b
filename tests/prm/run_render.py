#!/usr/bin/env python3
"""Run examples with an animation and render a frame of each headless; the
PNG must exist and show the drawing (enough non-background pixels).

usage: run_render.py HAMILTON SOURCE_DIR OUTPUT_DIR
"""
import os
import shutil
import subprocess
import sys

from vtkmodules.vtkIOImage import vtkPNGReader

CASES = [("prm/lumped/rrr_parallel_robot.prm", "1"), ("prm/coupled/flexible_link.prm", "1")]


def drawn_fraction(path):
    """Fraction of pixels that are not the white background."""
    reader = vtkPNGReader()
    reader.SetFileName(path)
    reader.Update()
    image = reader.GetOutput()
    scalars = image.GetPointData().GetScalars()
    n, components = scalars.GetNumberOfTuples(), scalars.GetNumberOfComponents()
    drawn = sum(1 for i in range(n)
                if any(scalars.GetComponent(i, c) < 200 for c in range(min(3, components))))
    return drawn / n


def main():
    hamilton, source, output = sys.argv[1:4]
    failures = []
    for example, time in CASES:
        directory = os.path.join(output, os.path.basename(example)[:-4])
        shutil.rmtree(directory, ignore_errors=True)
        subprocess.run([hamilton, os.path.join(source, example), "--output-dir", directory],
                       check=True, capture_output=True)
        run = subprocess.run(["xvfb-run", "-a", sys.executable,
                              os.path.join(source, "postprocess", "render_animation.py"), directory, time],
                             capture_output=True, text=True)
        print(run.stdout + run.stderr)
        png = os.path.join(directory, f"animation_{float(time):.4g}.png")
        if run.returncode != 0 or not os.path.exists(png):
            failures.append(f"render_animation.py on {example} exited {run.returncode} without {png}")
            continue
        fraction = drawn_fraction(png)
        print(f"{png}: {100 * fraction:.2f} % of the pixels drawn")
        if fraction < 1e-3:
            failures.append(f"{png} is blank ({fraction:.2g} of the pixels drawn)")
    if failures:
        sys.exit("FAILED: " + "; ".join(failures))


if __name__ == "__main__":
    main()
