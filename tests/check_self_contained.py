#!/usr/bin/env python3
"""The repository stands alone: no tracked file refers to a file outside it.

Usage: check_self_contained.py SOURCE_DIR

Fails (exit 1, each hit listed with its file and line) when a tracked file (git
ls-files; without git, every file outside build directories) names a path
outside the repository: the project's shared folder (relative or absolute), its
validation notes or source papers by their folder or file names, or the design
brief that lives there. The published cases' data and the papers are in
doc/validation-data.md; cite them from there (by case, or by authors and year).
"""
import os
import re
import subprocess
import sys

# built from pieces so that this file does not match itself
OUTSIDE = [
    (re.compile(r"\.\./" + "shared" + r"\b"), "a path into the shared folder outside the repository"),
    (re.compile("/work" + "/shared"), "an absolute path to the shared folder"),
    (re.compile(r"\bshared/(?:validation|seeds)\b"), "the shared validation notes or source papers"),
    (re.compile(r"\b00[0-9]_[0-9a-f]{16}\.txt\b"), "a source paper by its file name (cite authors and year)"),
    (re.compile(r"\b[Ss]eeds? 00[0-9]\b"), "a source paper by its number (cite authors and year)"),
    (re.compile(r"\bDESIGN" + r"\.md\b"), "the design brief, not in the repository (doc/layout.md has the design notes)"),
]


def tracked_files(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True, check=True).stdout
        return [f for f in out.decode().split("\0") if f]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for directory, subdirs, names in os.walk(root):
            subdirs[:] = [d for d in subdirs if not d.startswith(("build", "."))]
            files += [os.path.relpath(os.path.join(directory, n), root) for n in names]
        return files


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = sys.argv[1]
    failures, checked = [], 0
    for name in tracked_files(root):
        path = os.path.join(root, name)
        if not os.path.isfile(path):
            continue
        data = open(path, "rb").read()
        if b"\0" in data:          # binary (figures, meshes in binary form)
            continue
        checked += 1
        for number, line in enumerate(data.decode("utf-8", "replace").split("\n"), 1):
            for pattern, what in OUTSIDE:
                m = pattern.search(line)
                if m:
                    failures.append(f"{name}:{number}: '{m.group(0)}': {what}")
    for f in failures:
        print("FAIL", f)
    print(f"{checked} files checked, {len(failures)} reference(s) to files outside the repository")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
