#!/usr/bin/env python3
"""The ParaView metadata of a beam's mode files, read back with VTK's own XML
reader (Debian's python3-vtk9): each mode_<k>.vtu holds, in its FieldData, the
mode's frequency (also as TIME, the mode number as CYCLE), its open-circuit
frequency and k_eff, and the names of the layers, and modes_by_frequency.pvd
lists the files with the frequency as time; all against results.json.

usage: check_mode_metadata.py HAMILTON SOURCE_DIR OUTPUT_DIR
"""
import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

from vtkmodules.vtkIOXML import vtkXMLUnstructuredGridReader

failures = []


def check(condition, what):
    print(("ok      " if condition else "FAILED  ") + what)
    if not condition:
        failures.append(what)


def close(a, b, rel=1e-12):
    return abs(a - b) <= rel * abs(b)


def read_mode_file(path):
    """The grid of a VTU file, its field data, and the first value of a field-data array by name (nan if absent)."""
    reader = vtkXMLUnstructuredGridReader()
    reader.SetFileName(path)
    reader.Update()
    grid = reader.GetOutput()
    field = grid.GetFieldData()
    return grid, field, lambda name: field.GetArray(name).GetValue(0) if field.GetArray(name) else float("nan")


def check_continuum(hamilton, source, output):
    """A continuum's mode files (prm/continuum/c4_bimorph_2d.prm) carry the same
    metadata in double precision, the regions' names, and fields named per
    square root of a kilogram (mass-normalized), not in m and V."""
    shutil.rmtree(output, ignore_errors=True)
    subprocess.run([hamilton, os.path.join(source, "prm/continuum/c4_bimorph_2d.prm"), "--output-dir", output],
                   check=True, capture_output=True)
    with open(os.path.join(output, "results.json")) as f:
        continuum = json.load(f)["continuum"]
    for mode in continuum["modal"]["modes"]:
        k = mode["index"]
        grid, field, value = read_mode_file(os.path.join(output, f"continuum_mode_{k}.vtu"))
        for name, key in (("frequency_hz", "frequency_hz"), ("frequency_open_circuit_hz", "frequency_open_circuit_hz"),
                          ("k_eff", "coupling_k_eff")):
            # written with 17 digits: the same double
            check(value(name) == mode[key], f"continuum mode {k}: {name} {value(name)} = results.json {mode[key]}")
        check(value("mode") == k, f"continuum mode {k}: mode index")
        names = field.GetAbstractArray("region_names")
        listed = [names.GetValue(i) for i in range(names.GetNumberOfValues())] if names else []
        # the order of 'Continuum/Regions/Names' in c4_bimorph_2d.prm
        check(listed == ["pzt_lower", "shim", "pzt_upper"], f"continuum mode {k}: region_names {listed}")
        point_arrays = [grid.GetPointData().GetArrayName(i) for i in range(grid.GetPointData().GetNumberOfArrays())]
        check("displacement_m_per_sqrt_kg" in point_arrays and "potential_V_per_sqrt_kg" in point_arrays
              and "displacement_m" not in point_arrays, f"continuum mode {k}: mass-normalized field names {point_arrays[:3]}")


def main():
    hamilton, source, output = sys.argv[1:4]
    shutil.rmtree(output, ignore_errors=True)
    subprocess.run([hamilton, os.path.join(source, "prm/piezo/bimorph_harvester.prm"), "--output-dir", output],
                   check=True, capture_output=True)
    with open(os.path.join(output, "results.json")) as f:
        modes = json.load(f)["modes"]
    for mode in modes:
        grid, field, value = read_mode_file(os.path.join(output, f"mode_{mode['index']}.vtu"))
        k = mode["index"]
        check(close(value("frequency_hz"), mode["frequency_hz"]),
              f"mode {k}: frequency_hz {value('frequency_hz')} = results.json {mode['frequency_hz']}")
        check(close(value("TIME"), mode["frequency_hz"]) and value("CYCLE") == k, f"mode {k}: TIME, CYCLE")
        check(close(value("frequency_open_circuit_hz"), mode["frequency_open_circuit_hz"]),
              f"mode {k}: frequency_open_circuit_hz {value('frequency_open_circuit_hz')}")
        check(close(value("k_eff"), mode["coupling_k_eff"]), f"mode {k}: k_eff {value('k_eff')}")
        names = field.GetAbstractArray("layer_names")
        listed = [names.GetValue(i) for i in range(names.GetNumberOfValues())] if names else []
        check(listed == ["beam/pzt_lower", "beam/substrate", "beam/pzt_upper"], f"mode {k}: layer_names {listed}")
        layer_id = grid.GetCellData().GetArray("layer_id")
        layer_name = grid.GetCellData().GetAbstractArray("layer_name")
        check(layer_id is not None and layer_name is not None and
              all(layer_name.GetValue(c) == listed[int(layer_id.GetValue(c))] for c in range(grid.GetNumberOfCells())),
              f"mode {k}: every cell's layer_name is layer_names[layer_id]")
    root = ElementTree.parse(os.path.join(output, "modes_by_frequency.pvd")).getroot()
    listed = [(float(d.get("timestep")), d.get("file")) for d in root.iter("DataSet")]
    check(len(listed) == len(modes) and all(close(t, m["frequency_hz"], 1e-5) and f == f"mode_{m['index']}.vtu"
                                            for (t, f), m in zip(listed, modes)),
          f"modes_by_frequency.pvd: times {[t for t, _ in listed]} are the frequencies")
    check_continuum(hamilton, source, output + "-continuum")
    if failures:
        sys.exit(f"FAILED: {len(failures)} checks")
    print("all checks passed")


if __name__ == "__main__":
    main()
