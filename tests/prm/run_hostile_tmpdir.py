#!/usr/bin/env python3
"""The C compiler is started without a shell: a TMPDIR whose name holds a
quote and a command substitution must work and must not run the command.

usage: run_hostile_tmpdir.py HAMILTON EXAMPLE.prm OUTPUT_DIR
"""
import os
import shutil
import subprocess
import sys


def main():
    hamilton, example, output = (os.path.abspath(a) for a in sys.argv[1:4])
    shutil.rmtree(output, ignore_errors=True)
    tmpdir = os.path.join(output, "a'$(touch PWNED)'b")
    os.makedirs(tmpdir)
    env = dict(os.environ, TMPDIR=tmpdir)
    run = subprocess.run([hamilton, example, "--output-dir", os.path.join(output, "results")],
                         cwd=output, env=env, capture_output=True, text=True)
    print(run.stdout[-2000:], run.stderr[-2000:])
    pwned = [os.path.join(d, f) for d, _, names in os.walk(output) for f in names if f == "PWNED"]
    if pwned:
        sys.exit(f"the command in TMPDIR ran: {pwned}")
    if run.returncode != 0:
        sys.exit(f"exit status {run.returncode} with TMPDIR = {tmpdir!r}")
    left = [name for name in os.listdir(tmpdir) if name.startswith("hamilton-")]
    if left:
        sys.exit(f"temporary directories left behind: {left}")
    print("TMPDIR with a quote and $(...): compiled, nothing injected, nothing left behind")


if __name__ == "__main__":
    main()
