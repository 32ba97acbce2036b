#!/usr/bin/env python3
"""A binary Gmsh file gives the same model as the ASCII one (issue 12).

usage: check_binary_mesh.py HAMILTON SOURCE_DIR OUTPUT_DIR

Converts meshes/c4_bimorph_2d.msh to binary MSH 4.1 with the gmsh program
(.ci/install-dependencies.sh installs it), runs prm/continuum/c4_bimorph_2d.prm
on each file and checks: the binary file is binary (its header says so), the
cell and unknown counts are equal, and every modal result (short- and
open-circuit frequencies, couplings, capacitance) is bit-identical: both files
hold the same nodes and cells, so any difference is a reading error.
"""
import json
import os
import shutil
import subprocess
import sys


def run(hamilton, prm, mesh, out):
    command = [hamilton, prm, "--output-dir", out]
    if mesh:
        command += ["--set", f"Continuum/Mesh={mesh}"]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"FAILED: {' '.join(command)} exited {done.returncode}\n{done.stdout}{done.stderr}")
    with open(os.path.join(out, "results.json")) as f:
        return json.load(f)["continuum"]


def main():
    hamilton, source, output = sys.argv[1:4]
    gmsh = shutil.which("gmsh")
    if gmsh is None:
        sys.exit("FAILED: the gmsh program is not installed (bash .ci/install-dependencies.sh installs it)")
    shutil.rmtree(output, ignore_errors=True)
    os.makedirs(output)
    binary = os.path.join(output, "c4_bimorph_2d_binary.msh")
    subprocess.run([gmsh, os.path.join(source, "meshes", "c4_bimorph_2d.msh"), "-bin", "-save", "-o", binary],
                   check=True, capture_output=True)
    with open(binary, "rb") as f:
        header = f.read(40).split(b"\n")[1].split()
    if header[:2] != [b"4.1", b"1"]:
        sys.exit(f"FAILED: gmsh wrote the header {header}, not binary MSH 4.1")
    prm = os.path.join(source, "prm", "continuum", "c4_bimorph_2d.prm")
    ascii_run = run(hamilton, prm, None, os.path.join(output, "ascii"))
    binary_run = run(hamilton, prm, binary, os.path.join(output, "binary"))
    failures = []
    for key in ("cells", "n_unknowns"):
        if ascii_run[key] != binary_run[key]:
            failures.append(f"{key}: ASCII {ascii_run[key]}, binary {binary_run[key]}")
    if ascii_run["modal"]["modes"] != binary_run["modal"]["modes"]:
        failures.append("the modes differ")
    if ascii_run["modal"]["open_circuit_frequencies_hz"] != binary_run["modal"]["open_circuit_frequencies_hz"]:
        failures.append("the open-circuit frequencies differ")
    if ascii_run["modal"].get("electrodes") != binary_run["modal"].get("electrodes"):
        failures.append("the electrodes' results differ")
    f1 = binary_run["modal"]["modes"][0]["frequency_hz"]
    print(f"binary MSH 4.1: {binary_run['cells']} cells, {binary_run['n_unknowns']} unknowns, f1 = {f1:.10g} Hz "
          f"({len(binary_run['modal']['modes'])} modes bit-identical to the ASCII file's)")
    if failures:
        sys.exit("FAILED: " + "; ".join(failures))


if __name__ == "__main__":
    main()
