#!/usr/bin/env python3
"""Run one example parameter file and check its results.

usage: run_example.py HAMILTON EXAMPLE.prm EXPECTED.json OUTPUT_DIR

EXPECTED.json holds
  "checks":  [{"path": "modes/0/frequency_hz", "value": 18.567, "rel_tol": 1e-9,
               "source": "where the value comes from"}, ...]
             ("equals_path": another result instead of "value" compares two results,
              times "scale" if given; "equals_expression": a Python formula of
              results r("path"), sqrt and pi; "absolute": compare |value|;
              "rel_tol_two_ranks": the tolerance when run by the suite's 2-rank
              wrapper hamilton_np2, for checks that compare two solves)
  "files":   files that must exist in the output directory
  "csv_checks": [{"file": "sweep.csv", "row": 0, "column": "frequency_hz_mode_1",
                  "value": ..., "rel_tol": ...}, ...]
  "terminal_checks": [{"column": "power_W", "field": "peak", "value": 0.0148,
                       "abs_tol": 5e-5, "source": ...}, ...]: a value of the
             summary table a lumped or coupled run prints (fields: final, mean,
             amplitude, peak, at t (s)), as the user reads it
  "warnings": the number of warnings the run must report (default 0)
Every VTU file written is parsed and its point data checked for size.
"""
import csv
import json
import math
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET


def lookup(data, path):
    for key in path.split("/"):
        data = data[int(key)] if isinstance(data, list) else data[key]
    return data


def check_vtu(filename):
    root = ET.parse(filename).getroot()
    piece = root.find("UnstructuredGrid/Piece")
    n_points = int(piece.get("NumberOfPoints"))
    n_cells = int(piece.get("NumberOfCells"))
    assert n_points > 0 and n_cells > 0, f"{filename}: empty grid"
    for array in piece.find("PointData"):
        if array.get("format", "ascii") != "ascii":  # compressed binary (deal.II's DataOut)
            continue
        n = len(array.text.split())
        components = int(array.get("NumberOfComponents", "1"))
        assert n == n_points * components, f"{filename}: {array.get('Name')} has {n} values"


def check_animation(output, summary):
    """animation.pvd lists one readable PolyData file per frame, each with
    one polyline per part."""
    failures = []
    frames = list(ET.parse(os.path.join(output, summary["file"])).getroot().iter("DataSet"))
    if len(frames) != summary["frames"] or not frames:
        failures.append(f"animation.pvd lists {len(frames)} frames, results.json {summary['frames']}")
    for frame in frames[:: max(1, len(frames) // 10)]:
        piece = ET.parse(os.path.join(output, frame.get("file"))).getroot().find("PolyData/Piece")
        if piece is None or int(piece.get("NumberOfLines")) != len(summary["parts"]):
            failures.append(f"{frame.get('file')}: not {len(summary['parts'])} polylines")
    print(f"animation: {len(frames)} frames, parts {', '.join(summary['parts'])}")
    return failures


SUMMARY_FIELDS = ["final", "mean", "amplitude", "peak", "at t (s)"]


def terminal_summary(stdout):
    """The rows of the summary table of a lumped run's terminal output:
    column name -> {field: value, "unit": unit} (the unit may be empty or
    hold spaces, e.g. '(kg^1/2 m)/s': the last five words are the values)."""
    rows, inside = {}, False
    n = len(SUMMARY_FIELDS)
    for line in stdout.splitlines():
        words = line.split()
        if words[:2] == ["column", "unit"] and " ".join(words[2:]) == " ".join(SUMMARY_FIELDS):
            inside = True
        elif inside and len(words) >= 1 + n and line.startswith("    "):
            try:
                values = [float(w) for w in words[-n:]]
            except ValueError:
                inside = False
                continue
            rows[words[0]] = dict(zip(SUMMARY_FIELDS, values), unit=" ".join(words[1:-n]))
        else:
            inside = False
    return rows


def check_lumped_units(output):
    """lumped.csv.columns.json describes every column of lumped.csv (issue
    24: it listed 22 of the main example's 33): the same names in the same
    order, each with a "unit" entry; the time in s and every energy audit
    column (the totals, the stored energy by domain, the works per element:
    names ending in _J) in J. A unit may be empty only where the meaning says
    why (a coordinate or output whose unit the file does not give, a
    multiplier or constraint value in the unit of the user's expression)."""
    failures = []
    table = os.path.join(output, "lumped.csv")
    if not os.path.exists(table):
        return failures
    with open(table) as f:
        header = next(csv.reader(f))
    sidecar = table + ".columns.json"
    if not os.path.exists(sidecar):
        return [f"{sidecar} is missing"]
    with open(sidecar) as f:
        described = json.load(f)["columns"]
    names = [c["name"] for c in described]
    if names != header:
        missing = [c for c in header if c not in names]
        return [f"lumped.csv.columns.json lists {len(names)} of the {len(header)} columns of lumped.csv"
                f" (missing: {', '.join(missing) or 'none'}; or not in the CSV's order)"]
    for c in described:
        if "unit" not in c:
            failures.append(f"lumped.csv.columns.json: '{c['name']}' has no unit entry")
        elif c["name"].endswith("_J") and c["unit"] != "J":
            failures.append(f"lumped.csv.columns.json: '{c['name']}' has the unit {c['unit']!r}, not 'J'")
        elif c["unit"] == "" and not any(why in c.get("meaning", "") for why in
                                         ("no unit given", "Lagrange multiplier", "multiplier of",
                                          "value of constraint", "current law")):
            failures.append(f"lumped.csv.columns.json: '{c['name']}' has no unit and no reason")
    if header[0] != "t_s" or described[0]["unit"] != "s":
        failures.append("lumped.csv.columns.json: the time column is not t_s in s")
    print(f"lumped.csv.columns.json: {len(names)} columns, all described")
    return failures


def main():
    hamilton, example, expected_file, output = sys.argv[1:5]
    # the MPI wrapper of the suite (tests/CMakeLists.txt, hamilton_np2): a
    # check may allow for the run-to-run spread of a 2-rank run
    several_ranks = os.path.basename(hamilton) == "hamilton_np2"
    with open(expected_file) as f:
        expected = json.load(f)
    shutil.rmtree(output, ignore_errors=True)
    run = subprocess.run([hamilton, example, "--output-dir", output],
                         capture_output=True, text=True)
    print(run.stdout)
    if run.returncode != 0:
        print(run.stderr)
        sys.exit(f"hamilton exited with {run.returncode}")
    with open(os.path.join(output, "results.json")) as f:
        results = json.load(f)

    tables = {}
    for check in expected.get("csv_checks", []):
        if check["file"] not in tables:
            with open(os.path.join(output, check["file"])) as f:
                tables[check["file"]] = list(csv.DictReader(f))
        check["path"] = f"{check['file']}[{check['row']}].{check['column']}"
        check["found"] = float(tables[check["file"]][check["row"]][check["column"]])

    summary = terminal_summary(run.stdout)
    for check in expected.get("terminal_checks", []):
        check["path"] = f"terminal summary: {check['column']}, {check['field']}"
        if check["column"] not in summary:
            sys.exit(f"FAILED: the terminal summary has no row '{check['column']}'")
        check["found"] = summary[check["column"]][check["field"]]

    failures = []
    for column, unit in expected.get("terminal_units", {}).items():  # the unit column of the summary
        found = summary.get(column, {}).get("unit")
        print(f"terminal summary unit of {column}: {found!r} (expected {unit!r})")
        if found != unit:
            failures.append(f"terminal summary: the unit of '{column}' is {found!r}, not {unit!r}")
    for check in expected.get("checks", []) + expected.get("csv_checks", []) + expected.get("terminal_checks", []):
        value = check["found"] if "found" in check else lookup(results, check["path"])
        if "equals_expression" in check:  # a formula of other results, r("path")
            target = eval(check["equals_expression"],
                          {"r": lambda path: lookup(results, path), "sqrt": math.sqrt, "pi": math.pi})
        elif "equals_path" in check:
            target = check.get("scale", 1) * lookup(results, check["equals_path"])
        else:
            target = check["value"]
        if check.get("absolute"):
            value = abs(value)
        if "rel_tol" in check:
            error = abs(value / target - 1)
            tol = check["rel_tol"]
            if several_ranks and "rel_tol_two_ranks" in check:
                tol = check["rel_tol_two_ranks"]
            ok = error <= tol
        else:
            error = abs(value - target)
            ok = error <= check["abs_tol"]
            tol = check["abs_tol"]
        print(f"{'ok  ' if ok else 'FAIL'} {check['path']} = {value!r}, expected {target!r}"
              f" (error {error:.3g}, tolerance {tol:g}; {check.get('source', '')})")
        if not ok:
            failures.append(check["path"])
    for name in expected.get("files", []):
        if not os.path.exists(os.path.join(output, name)):
            failures.append(f"missing file {name}")
    for name in os.listdir(output):
        if name.endswith(".vtu"):
            check_vtu(os.path.join(output, name))
    failures += check_lumped_units(output)
    if "animation" in results.get("lumped", {}):
        failures += check_animation(output, results["lumped"]["animation"])
    n_warnings = len(results.get("warnings", []))
    if n_warnings != expected.get("warnings", 0):
        failures.append(f"{n_warnings} warnings: {results.get('warnings')}")
    if failures:
        sys.exit("FAILED: " + "; ".join(failures))
    n = sum(len(expected.get(k, [])) for k in ("checks", "csv_checks", "terminal_checks"))
    print(f"{n} checks passed")


if __name__ == "__main__":
    main()
