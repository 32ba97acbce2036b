#!/usr/bin/env python3
"""Run the examples of postprocess/hamilton_results.py's docstrings (doctest)
against the output of the main example, so that they cannot go stale.

The examples read "output/motor_driven_harvester", the directory that
`hamilton prm/coupled/motor_driven_harvester.prm` writes when run from the
repository's root; this script runs them in a scratch directory where that
path leads to the output the example's prm_ test left (a fixture).

usage: check_loader_doctest.py SOURCE_DIR MAIN_EXAMPLE_OUTPUT_DIR
"""
import doctest
import os
import sys
import tempfile


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    source, example_output = (os.path.abspath(a) for a in sys.argv[1:])
    if not os.path.isfile(os.path.join(example_output, "results.json")):
        sys.exit(f"{example_output} holds no results.json: run the test prm_coupled_motor_driven_harvester first")
    with tempfile.TemporaryDirectory() as scratch:
        os.makedirs(os.path.join(scratch, "output"))
        os.symlink(example_output, os.path.join(scratch, "output", "motor_driven_harvester"))
        # the examples' own sys.path.insert(0, "postprocess") needs the folder here too
        os.symlink(os.path.join(source, "postprocess"), os.path.join(scratch, "postprocess"))
        os.chdir(scratch)
        sys.path.insert(0, os.path.join(source, "postprocess"))
        import hamilton_results
        result = doctest.testmod(hamilton_results, verbose=False)
    print(f"{result.attempted} examples of hamilton_results.py run, {result.failed} failed")
    sys.exit(1 if result.failed or result.attempted == 0 else 0)


if __name__ == "__main__":
    main()
