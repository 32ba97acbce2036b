#!/usr/bin/env python3
"""Check a claim that compares runs: of two example files, or of one file
with entries replaced (until 'hamilton --set' exists, the replaced file is
written into the output directory).

usage: compare_runs.py HAMILTON SOURCE_DIR CLAIM.json OUTPUT_DIR

CLAIM.json holds
  "claim":  the sentence checked (where it stands, e.g. an example's comment)
  "runs":   {"NAME": {"file": "prm/...prm", "set": {"Sub/section/Entry": "value"},
                      "mpi_ranks": 2}}   (optional: run under mpirun on that many ranks)
  "checks": [{"what": "...", "quantity": Q, "value": v, "abs_tol": t}, ...]
A quantity Q is one of
  {"run": R, "path": "lumped/a/0/b"}                 a value of results.json
  {"run": R, "expression": "sqrt(r('modes/0/x'))"}   a formula of such values
  {"run": R, "csv": "frf.csv", "row": 0, "column": "c"}
  {"relative_difference": [Q1, Q2]}                  (Q1 - Q2)/|Q2|
  {"largest_difference": {"runs": [R1, R2], "csv": "lumped.csv",
    "column": "c", "from_time": 0.1}}                max |c1 - c2| over the rows
                                                     with t_s >= from_time,
                                                     relative to the range of
                                                     c2 over the whole run
with "absolute": true taking |Q|. Each check passes if |Q - value| <= abs_tol:
the tolerance is the precision of the claim's figure.
A check may also hold "manual": {"page": "doc/lumped.md", "says": "charge 6.4e-11"}:
the page must contain the text `says`, and its last number must be |Q| at the
digits it gives (tests/check_manual.py's figure_agrees): the manual quotes what
the runs measure; a figure written as a bound ('< 1e-9') needs only |Q| below it
(integration and round-off errors, whose digits change with the machine).
"""
import csv
import json
import math
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from check_manual import NUMBER, figure_agrees  # noqa: E402


def replace_entries(text, changes, source):
    """The parameter file `text` with the entries of `changes` (path ->
    value) replaced; every path must name an entry that the file sets."""
    lines, stack, done = text.splitlines(), [], set()
    for k, line in enumerate(lines):
        stripped = line.split("#", 1)[0].strip()
        if stripped.startswith("subsection "):
            stack.append(stripped[len("subsection "):].strip())
        elif stripped == "end":
            stack.pop()
        else:
            m = re.match(r"set\s+(.+?)\s*=", stripped)
            if m:
                path = "/".join(stack + [m.group(1)])
                if path in changes:
                    indent = line[: len(line) - len(line.lstrip())]
                    lines[k] = f"{indent}set {m.group(1)} = {changes[path]}"
                    done.add(path)
    missing = set(changes) - done
    if missing:
        sys.exit(f"FAILED: {source} does not set {', '.join(sorted(missing))}")
    return "\n".join(lines) + "\n"


def lookup(data, path):
    for key in path.split("/"):
        data = data[int(key)] if isinstance(data, list) else data[key]
    return data


def read_csv(filename):
    with open(filename) as f:
        rows = list(csv.reader(f))
    return rows[0], [[float(v) for v in row] for row in rows[1:]]


class Runs:
    def __init__(self, hamilton, source_dir, output, runs):
        self.directories = {}
        for name, run in runs.items():
            base = os.path.join(source_dir, run["file"])
            directory = os.path.join(output, name)
            shutil.rmtree(directory, ignore_errors=True)
            prm = base
            if run.get("set"):
                os.makedirs(output, exist_ok=True)
                prm = os.path.join(output, name + ".prm")
                with open(base) as f:
                    text = replace_entries(f.read(), run["set"], base)
                with open(prm, "w") as f:
                    f.write(text)
            launcher = []
            if run.get("mpi_ranks"):
                launcher = ["mpirun", "--allow-run-as-root", "--oversubscribe", "-np", str(run["mpi_ranks"])]
            done = subprocess.run(launcher + [hamilton, prm, "--output-dir", directory], capture_output=True, text=True)
            if done.returncode != 0:
                sys.exit(f"FAILED: run {name} ({prm}) exited with {done.returncode}:\n{done.stderr}")
            with open(os.path.join(directory, "results.json")) as f:
                self.directories[name] = (directory, json.load(f))

    def quantity(self, q):
        if "relative_difference" in q:
            a, b = (self.quantity(x) for x in q["relative_difference"])
            value = (a - b) / abs(b)
        elif "largest_difference" in q:
            d = q["largest_difference"]
            (header_a, rows_a), (header_b, rows_b) = (
                read_csv(os.path.join(self.directories[r][0], d["csv"])) for r in d["runs"])
            # each run's own column order (a system given by its Hamiltonian has other columns)
            ta, ca = header_a.index("t_s"), header_a.index(d["column"])
            tb, cb = header_b.index("t_s"), header_b.index(d["column"])
            assert len(rows_a) == len(rows_b) and all(a[ta] == b[tb] for a, b in zip(rows_a, rows_b)), \
                "the two runs have different output times"
            column = [b[cb] for b in rows_b]
            scale = max(column) - min(column)
            value = max(abs(a[ca] - b[cb]) for a, b in zip(rows_a, rows_b) if a[ta] >= d["from_time"]) / scale
        else:
            directory, results = self.directories[q["run"]]
            if "path" in q:
                value = lookup(results, q["path"])
            elif "expression" in q:
                value = eval(q["expression"], {"sqrt": math.sqrt, "pi": math.pi,
                                               "r": lambda p: lookup(results, p)})
            else:
                header, rows = read_csv(os.path.join(directory, q["csv"]))
                value = rows[q["row"]][header.index(q["column"])]
        return abs(value) if q.get("absolute") else value


def main():
    hamilton, source_dir, claim_file, output = sys.argv[1:5]
    with open(claim_file) as f:
        claim = json.load(f)
    print(claim["claim"])
    runs = Runs(hamilton, source_dir, output, claim["runs"])
    failures = []
    for check in claim["checks"]:
        value = runs.quantity(check["quantity"])
        ok = abs(value - check["value"]) <= check["abs_tol"]
        print(f"{'ok  ' if ok else 'FAIL'} {check['what']}: {value:.3g} (claimed {check['value']:g} "
              f"+- {check['abs_tol']:g})")
        if not ok:
            failures.append(check["what"])
        if "manual" in check:
            page, says = check["manual"]["page"], check["manual"]["says"]
            with open(os.path.join(source_dir, page), encoding="utf-8") as f:
                text = " ".join(f.read().split())
            quoted = NUMBER.findall(says)[-1]
            # a bound ('< 1e-9'): its digits would change with the machine
            if re.search(r"<\s*" + re.escape(quoted) + r"(?![\d.eE])", says):
                quoted = "<" + quoted
            if says not in text:
                failures.append(f"{page} does not say '{says}' (any more)")
            elif not figure_agrees(quoted, abs(value)):
                failures.append(f"{page} says '{says}', the run gives {abs(value):.3g}")
            else:
                print(f"     {page} says '{says}': agrees")
    if failures:
        sys.exit("FAILED: " + "; ".join(failures))


if __name__ == "__main__":
    main()
