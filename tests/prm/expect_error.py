#!/usr/bin/env python3
"""Run a bad parameter file: hamilton must exit with status 1, print the
message fragments listed in the file's '# EXPECT:' lines, and write nothing.

usage: expect_error.py HAMILTON BAD.prm OUTPUT_DIR
"""
import os
import shutil
import subprocess
import sys


def main():
    hamilton, bad, output = sys.argv[1:4]
    with open(bad) as f:
        expected = [line.split("# EXPECT:", 1)[1].strip() for line in f if "# EXPECT:" in line]
    assert expected, f"{bad} has no '# EXPECT:' line"
    shutil.rmtree(output, ignore_errors=True)
    run = subprocess.run([hamilton, bad, "--output-dir", output], capture_output=True, text=True)
    print(run.stderr)
    failures = []
    if run.returncode != 1:
        failures.append(f"exit status {run.returncode}, expected 1")
    for fragment in expected:
        if fragment not in run.stderr:
            failures.append(f"message lacks '{fragment}'")
    if os.path.exists(output):
        failures.append("an output directory was written")
    if failures:
        sys.exit("FAILED: " + "; ".join(failures))
    print(f"{len(expected)} message fragments found")


if __name__ == "__main__":
    main()
