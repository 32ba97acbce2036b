#!/usr/bin/env python3
"""The schema of a run's results.json: the paths of its numbers, keys and
list indices joined by '/', a list index written '#'. Under 'lumped/' the
keys below the second level are the system's own names (coordinates, CSV
columns), so a pattern 'lumped/<section>/*' stands for every path below.
`hamilton --validate` checks a study's quantities against it
(source/analyses/results_schema.inc, included by results_schema.cc).

usage: results_schema.py write OUTPUT_ROOT SCHEMA.inc   # from the examples' outputs
       results_schema.py check OUTPUT_ROOT SCHEMA.inc   # every number of every results.json matches

OUTPUT_ROOT holds one output directory per example (the prm_ tests' prm-output/).
"""
import glob
import json
import os
import re
import sys


def leaves(node, prefix=""):
    """The paths of the numbers (and booleans) of a results document, indices as '#'."""
    if isinstance(node, bool) or isinstance(node, (int, float)):
        yield prefix
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from leaves(value, f"{prefix}/{key}" if prefix else key)
    elif isinstance(node, list):
        for value in node:
            yield from leaves(value, f"{prefix}/#" if prefix else "#")


def pattern(path):
    parts = path.split("/")
    if parts[0] == "lumped" and len(parts) > 2:
        return "/".join(parts[:2]) + "/*"
    return path


def documents(root):
    for name in sorted(glob.glob(os.path.join(root, "*", "results.json"))):
        with open(name) as f:
            document = json.load(f)
        if document.get("format") == "hamilton-results":
            yield name, document


def matches(path, patterns):
    parts = path.split("/")
    for p in patterns:
        q = p.split("/")
        if q[-1] == "*" and len(parts) > len(q) - 1 and q[:-1] == parts[: len(q) - 1]:
            return True
        if q == parts:
            return True
    return False


def main():
    mode, root, schema = sys.argv[1:4]
    if mode == "write":
        found = sorted({pattern(p) for _, d in documents(root) for p in leaves(d)})
        with open(schema, "w") as f:
            f.write("// The numeric paths of a run's results.json ('#' a list index, '*' every path below),\n"
                    "// written by tests/prm/results_schema.py from the outputs of the examples in prm/;\n"
                    "// the test results_schema_complete checks that they hold every number of every\n"
                    "// example's results.json.\n")
            for p in found:
                f.write(f'"{p}",\n')
        print(f"{len(found)} patterns written to {schema}")
        return
    with open(schema) as f:
        patterns = re.findall(r'^"([^"]*)",$', f.read(), re.M)
    missing = {}
    n = 0
    for name, document in documents(root):
        n += 1
        for path in leaves(document):
            if not matches(path, patterns):
                missing.setdefault(path, name)
    if n == 0:
        sys.exit(f"no results.json under {root}")
    for path, name in sorted(missing.items()):
        print(f"{name}: '{path}' is not in the schema")
    if missing:
        sys.exit(f"FAILED: {len(missing)} paths missing from {schema}; regenerate it: "
                 f"results_schema.py write {root} {schema}")
    print(f"{n} results.json: every number's path is in the schema ({len(patterns)} patterns)")


if __name__ == "__main__":
    main()
