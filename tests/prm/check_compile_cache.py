#!/usr/bin/env python3
"""Compiled lumped equations are kept on disk across runs (issue 28, part 3).

usage: check_compile_cache.py HAMILTON EXAMPLE.prm WORK_DIR

Runs the example three times with a fresh XDG_CACHE_HOME and a 'cc' on PATH that logs each
call before running the real compiler: the first run compiles (one call), the second compiles
nothing (the library of the same C source is loaded from $XDG_CACHE_HOME/hamilton) and
writes the same lumped.csv, a third with --no-cache compiles again. Then two runs at once
on an empty cache (the write-to-temporary-then-rename race): both succeed with the same rows.
"""
import os
import shutil
import stat
import subprocess
import sys

hamilton, example, work = sys.argv[1:4]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(os.path.join(work, "bin"))
log = os.path.join(work, "cc.log")
wrapper = os.path.join(work, "bin", "cc")
with open(wrapper, "w") as f:
    f.write('#!/bin/sh\necho "$@" >> "%s"\nexec /usr/bin/cc "$@"\n' % log)
os.chmod(wrapper, os.stat(wrapper).st_mode | stat.S_IXUSR)
env = dict(os.environ, PATH=os.path.join(work, "bin") + ":" + os.environ["PATH"],
           XDG_CACHE_HOME=os.path.join(work, "cache"))
env.pop("HAMILTON_NO_CACHE", None)


def calls():
    return len(open(log).read().splitlines()) if os.path.exists(log) else 0


def run(name, *options, background=False):
    command = [hamilton, example, "--output-dir", os.path.join(work, name), *options]
    if background:
        return subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)


def rows(name):
    return open(os.path.join(work, name, "lumped.csv")).read()


failures = []
run("first")
if calls() != 1:
    failures.append("first run: %d compiler calls, expected 1" % calls())
run("second")
if calls() != 1:
    failures.append("second run: the compiler was called again (%d calls in all), expected the cached library"
                    % calls())
if rows("first") != rows("second"):
    failures.append("the cached library gave other rows than the compiled one")
cached = os.listdir(os.path.join(work, "cache", "hamilton"))
if sorted(os.path.splitext(f)[1] for f in cached) != [".c", ".so"]:
    failures.append("cache directory holds %s, expected one .so and its .c" % cached)
run("fresh", "--no-cache")
if calls() != 2:
    failures.append("--no-cache: %d compiler calls in all, expected 2" % calls())

# two runs racing on an empty cache
shutil.rmtree(os.path.join(work, "cache"))
racing = [run("race%d" % k, background=True) for k in range(2)]
for k, p in enumerate(racing):
    _, err = p.communicate()
    if p.returncode != 0:
        failures.append("racing run %d failed (%d): %s" % (k, p.returncode, err.decode()[-300:]))
if not failures and not (rows("race0") == rows("race1") == rows("first")):
    failures.append("the racing runs' rows differ")
leftovers = [f for f in os.listdir(os.path.join(work, "cache", "hamilton")) if f.startswith(".tmp")]
if leftovers:
    failures.append("temporary files left in the cache: %s" % leftovers)

for f in failures:
    print("FAIL " + f)
print("compiler calls: %d (first run, second run cached, --no-cache, two racing runs)" % calls())
sys.exit(1 if failures else 0)
