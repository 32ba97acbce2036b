#!/usr/bin/env python3
"""Determinism: run an example twice (two processes, so two different
address-space layouts) and compare every output file byte for byte.

usage: run_twice.py HAMILTON EXAMPLE.prm OUTPUT_DIR

Only what is measured in seconds of wall time may differ: results.json's
timing entries (keys ending in '_seconds' or named in TIMINGS) are removed
before the comparison. Everything else (CSV rows, results, equations, ROM
files, VTU and PVD files, animation frames) must be identical: the .pvd
records carry no date (hamilton::write_pvd drops deal.II's dated comment).
"""
import filecmp
import json
import os
import shutil
import subprocess
import sys

# wall-clock measurements in results.json: the only values allowed to differ
TIMINGS = {"timings_s", "derive_s", "source_s", "compile_s", "integrate_s", "interpreted_s", "writing_s", "wall_s",
           "seconds", "run_s", "solve_s"}


def strip_timings(value):
    if isinstance(value, dict):
        return {k: strip_timings(v) for k, v in value.items()
                if k not in TIMINGS and not k.endswith("_seconds")}
    if isinstance(value, list):
        return [strip_timings(v) for v in value]
    return value


def same(a, b, name):
    if name.endswith("results.json"):
        with open(a) as fa, open(b) as fb:
            return strip_timings(json.load(fa)) == strip_timings(json.load(fb))
    return filecmp.cmp(a, b, shallow=False)


def files(root):
    found = []
    for directory, _, names in os.walk(root):
        found += [os.path.relpath(os.path.join(directory, n), root) for n in names]
    return sorted(found)


def main():
    hamilton, example, output = sys.argv[1:4]
    runs = [os.path.join(output, "run1"), os.path.join(output, "run2")]
    for run in runs:
        shutil.rmtree(run, ignore_errors=True)
        result = subprocess.run([hamilton, example, "--output-dir", run], capture_output=True, text=True)
        if result.returncode != 0:
            print(result.stdout, result.stderr)
            sys.exit(f"{example}: exit status {result.returncode}")
    first, second = files(runs[0]), files(runs[1])
    if first != second:
        sys.exit(f"the two runs wrote different files: {sorted(set(first) ^ set(second))}")
    differ = [name for name in first if not same(os.path.join(runs[0], name), os.path.join(runs[1], name), name)]
    if differ:
        sys.exit(f"{example}: files differ between two runs: {', '.join(differ)}")
    print(f"{example}: {len(first)} files identical in two runs")


if __name__ == "__main__":
    main()
