#!/usr/bin/env python3
"""Run a bad parameter file: hamilton must exit with status 1, print the
message fragments listed in the file's '# EXPECT:' lines, and write nothing,
except the files listed in '# EXPECT-FILE:' lines (a lumped run stopped
during the integration keeps its CSV): each must exist and, if CSV, have
rows as long as its header. '# EXPECT-NOT:' fragments must appear in neither
the standard output nor the error output (e.g. the summary of a solve that
the bad input must prevent). '# ARGS:' lines add command-line arguments
(e.g. --set), split by blanks except inside single quotes; @BAD_INPUT_DIR@
stands for the directory of the bad file (e.g. an earlier output in data/).

usage: expect_error.py HAMILTON BAD.prm OUTPUT_DIR
"""
import os
import shlex
import shutil
import subprocess
import sys


def main():
    hamilton, bad, output = sys.argv[1:4]
    with open(bad) as f:
        lines = f.readlines()
    expected = [line.split("# EXPECT:", 1)[1].strip() for line in lines if "# EXPECT:" in line]
    absent = [line.split("# EXPECT-NOT:", 1)[1].strip() for line in lines if "# EXPECT-NOT:" in line]
    kept = [line.split("# EXPECT-FILE:", 1)[1].strip() for line in lines if "# EXPECT-FILE:" in line]
    args = [a.replace("@BAD_INPUT_DIR@", os.path.dirname(os.path.abspath(bad)))
            for line in lines if "# ARGS:" in line for a in shlex.split(line.split("# ARGS:", 1)[1])]
    assert expected, f"{bad} has no '# EXPECT:' line"
    shutil.rmtree(output, ignore_errors=True)
    run = subprocess.run([hamilton, bad, "--output-dir", output] + args, capture_output=True, text=True)
    print(run.stderr)
    failures = []
    if run.returncode != 1:
        failures.append(f"exit status {run.returncode}, expected 1")
    for fragment in expected:
        if fragment not in run.stderr:
            failures.append(f"message lacks '{fragment}'")
    for fragment in absent:
        if fragment in run.stdout or fragment in run.stderr:
            failures.append(f"the output holds '{fragment}'")
    if not kept and os.path.exists(output):
        failures.append("an output directory was written")
    for name in kept:
        path = os.path.join(output, name)
        if not os.path.exists(path):
            failures.append(f"{name} was not kept")
        elif name.endswith(".csv"):
            with open(path) as table:
                rows = [row.split(",") for row in table.read().splitlines()]
            if len(rows) < 2 or any(len(r) != len(rows[0]) for r in rows):
                failures.append(f"{name} is not a valid table")
            else:
                print(f"{name}: {len(rows) - 1} rows kept")
    if kept and os.path.exists(os.path.join(output, "results.json")):
        failures.append("results.json was written for a failed run")
    if failures:
        sys.exit("FAILED: " + "; ".join(failures))
    print(f"{len(expected)} message fragments found")


if __name__ == "__main__":
    main()
