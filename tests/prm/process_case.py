#!/usr/bin/env python3
"""What a run does with its surroundings (issue 24): the temporary directory
(TMPDIR missing or full), an interrupt while the C compiler runs, a FIFO as
the mesh, an output directory of another owner or read-only, a study killed
by SIGKILL and resumed. One case per ctest entry; each states the exit
status, fragments of the message and what exists afterwards. Exit status 77
(ctest: skipped) when the machine cannot set up the case (no user
namespaces for a small tmpfs, not root for a directory of another owner).

usage: process_case.py CASE HAMILTON SOURCE_DIR WORK_DIR
"""
import glob
import os
import shutil
import signal
import stat
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_case import expect, failed_with, failures, run  # noqa: E402

SKIP = 77


def tree(directory):
    """Every file under `directory` with its bytes: to check that nothing changed."""
    files = {}
    for root, _, names in os.walk(directory):
        for name in names:
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                files[os.path.relpath(path, directory)] = f.read()
    return files


def wait_for(condition, seconds, what):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    failures.append(f"timed out waiting for {what}")
    return False


def main():
    case, hamilton, source, work = sys.argv[1:5]
    hamilton = os.path.abspath(hamilton)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    beam = os.path.join(source, "prm/beam/cantilever_modes.prm")
    lumped = os.path.join(source, "prm/lumped/rlc_network.prm")
    out = os.path.join(work, "out")

    if case == "mesh_fifo":
        # a FIFO as the continuum's mesh was "no such file" (and opening it
        # would block): say what it is and what is expected, open nothing
        fifo = os.path.join(work, "mesh.msh")
        os.mkfifo(fifo)
        with open(os.path.join(source, "tests/bad_input/continuum_mesh_missing.prm")) as f:
            text = f.read().replace("../../meshes/no_such.msh", fifo)
        prm = os.path.join(work, "fifo_mesh.prm")
        with open(prm, "w") as f:
            f.write(text)
        for args in (["--validate", prm], [prm, "--output-dir", out]):
            r = run(hamilton, args, work)
            failed_with(r, 1, "In subsection 'Continuum': 'Mesh'", f"'{fifo}' is a FIFO (named pipe)",
                        "Give a Gmsh .msh file, a regular file")
        expect(not os.path.exists(out), "an output directory was written")
    elif case == "tmpdir_missing":
        # a TMPDIR that does not exist was "Internal error: temp_directory_path"
        # (exit 2): a lumped run (its compiled equations), a study (its
        # points' scratch) and --validate of a coupled file name TMPDIR
        missing = os.path.join(work, "no_such_tmp")
        env = dict(os.environ, TMPDIR=missing)
        grid = os.path.join(source, "prm/studies/bimorph_load_frequency_grid.prm")
        coupled = os.path.join(source, "prm/coupled/spinning_link.prm")
        for args in ([lumped, "--output-dir", out], [grid, "--output-dir", out], ["--validate", coupled]):
            r = run(hamilton, args, work, env=env)
            failed_with(r, 1, f"TMPDIR = '{missing}', does not exist", "Set TMPDIR to an existing directory")
        expect(not os.path.exists(out), "an output directory was written")
    elif case == "tmpdir_full":
        # a full TMPDIR showed as the linker's "ld returned 1 exit status": a
        # tmpfs of 16 kB (in a user namespace) holds the C source, not the
        # compiler's files
        small = os.path.join(work, "small_tmp")
        os.makedirs(small)
        script = (f"mount -t tmpfs -o size=16k tmpfs '{small}' || exit {SKIP}; "
                  f"exec env TMPDIR='{small}' '{hamilton}' '{lumped}' --output-dir '{out}'")
        try:
            r = subprocess.run(["unshare", "-rm", "sh", "-c", script], cwd=work, capture_output=True, text=True,
                               timeout=600)
        except FileNotFoundError:
            print("unshare not found: skipped")
            sys.exit(SKIP)
        print(f"$ TMPDIR=<16 kB tmpfs> hamilton {lumped}\nexit {r.returncode}\n{r.stderr}")
        if r.returncode == SKIP or "unshare:" in r.stderr:
            print("no user namespace for a small tmpfs: skipped")
            sys.exit(SKIP)
        failed_with(r, 1, "(TMPDIR) is full", "Free space there, set TMPDIR to a directory on a disk with room")
        expect("ld returned" not in r.stderr, "the message is the linker's")
        expect(not os.path.exists(out), "an output directory was written")
    elif case == "sigint_compiler":
        # Ctrl-C reaches the whole foreground process group, the C compiler
        # too: the run ends as interrupted (130), not with the compiler's
        # failure (1). A 'cc' first on PATH counts its calls and waits in the
        # n-th (the first here), so that the interrupt comes while it runs: a
        # lumped run, a lumped study, a coupled run and a coupled study
        wrapper_dir = os.path.join(work, "bin")
        os.makedirs(wrapper_dir)
        calls = os.path.join(work, "compiler_calls")
        real_cc = shutil.which("cc")
        with open(os.path.join(wrapper_dir, "cc"), "w") as f:
            f.write(f"#!/bin/sh\necho started >> '{calls}'\n"
                    f"[ $(wc -l < '{calls}') -eq $SLOW_CALL ] && sleep 30\nexec '{real_cc}' \"$@\"\n")
        os.chmod(os.path.join(wrapper_dir, "cc"), 0o755)
        study = os.path.join(source, "prm/studies/gyroscopic_campbell.prm")
        coupled = os.path.join(source, "prm/coupled/spinning_link.prm")
        coupled_study = os.path.join(source, "prm/studies/motor_driven_run_up_map.prm")
        for name, prm, slow in (("lumped", lumped, 1), ("study", study, 1), ("coupled", coupled, 1),
                                  ("coupled_study", coupled_study, 1)):
            if os.path.exists(calls):
                os.remove(calls)
            env = dict(os.environ, PATH=wrapper_dir + os.pathsep + os.environ["PATH"], SLOW_CALL=str(slow))
            target = os.path.join(work, name)
            process = subprocess.Popen([hamilton, prm, "--output-dir", target], cwd=work, env=env,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                       start_new_session=True)
            started = lambda: os.path.exists(calls) and open(calls).read().count("\n") >= slow  # noqa: E731
            if wait_for(started, 300, f"{name}: compilation {slow} to start"):
                time.sleep(0.2)
                os.killpg(process.pid, signal.SIGINT)  # as the terminal does
            stdout, stderr = process.communicate(timeout=120)
            print(f"$ hamilton {prm} (SIGINT to its process group while cc runs)\nexit {process.returncode}\n{stderr}")
            expect(process.returncode == 130, f"{name}: exit status {process.returncode}, expected 130")
            expect("(SIGINT)" in stderr, f"{name}: the message does not say SIGINT")
            expect("C compiler" not in stderr, f"{name}: reported as a compiler failure")
            expect(not os.path.exists(target), f"{name}: an output directory was written")
        expect(not glob.glob(os.path.join(work, ".*incomplete*")), "a temporary directory was left")
    elif case in ("output_dir_other_owner", "output_dir_read_only"):
        # an earlier result in a directory of another owner, or read-only, was
        # replaced by the run (its old results moved to a hidden folder):
        # refused, the directory untouched, nothing beside it
        r = run(hamilton, [beam, "--output-dir", out], work)
        expect(r.returncode == 0, "the first run failed")
        before = tree(out)
        if case == "output_dir_other_owner":
            if os.geteuid() != 0:
                print("not root: cannot give a directory to another user: skipped")
                sys.exit(SKIP)
            os.chown(out, 65534, 65534)
            fragments = ["belongs to another user (uid 65534", "never one of another owner"]
        else:
            os.chmod(out, 0o555)
            fragments = ["is read-only (mode 0555)", "make this one writable (chmod u+w)"]
        r = run(hamilton, [beam, "--output-dir", out], work)
        failed_with(r, 1, f"Output directory '{out}' (--output-dir)", *fragments)
        expect(tree(out) == before, "the directory's files changed")
        if case == "output_dir_read_only":
            expect(stat.S_IMODE(os.stat(out).st_mode) == 0o555, "the directory's mode changed")
        else:
            expect(os.stat(out).st_uid == 65534, "the directory's owner changed")
        expect(not glob.glob(os.path.join(work, ".out.*")), "a hidden directory was left beside it")
        os.chmod(out, 0o755)
    elif case == "study_resume_sigkill":
        # a study killed by SIGKILL (no handler runs) leaves its rows in the
        # hidden temporary directory: --resume finds them there, computes the
        # rest and gives the table of an uninterrupted run byte for byte
        prm = os.path.join(source, "prm/studies/cantilever_monte_carlo.prm")
        r = run(hamilton, [prm, "--output-dir", os.path.join(work, "whole")], work)
        whole = open(os.path.join(work, "whole", "study.csv")).read() if r.returncode == 0 else "?"
        n_rows = whole.count("\n") - 1
        process = subprocess.Popen([hamilton, prm, "--output-dir", out], cwd=work, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)

        def rows_written():
            tables = glob.glob(os.path.join(work, ".out.incomplete-*/study.csv"))
            return tables and open(tables[0]).read().count("\n") > 40

        wait_for(rows_written, 300, "40 rows")
        process.kill()
        process.wait()
        expect(process.returncode == -signal.SIGKILL, f"the study ended with {process.returncode}, not SIGKILL")
        left = glob.glob(os.path.join(work, ".out.incomplete-*"))
        expect(len(left) == 1 and not os.path.exists(out), f"after SIGKILL: {left}, output exists: {os.path.exists(out)}")
        kept = open(os.path.join(left[0], "study.csv")).read().count("\n") - 1 if left else 0
        print(f"SIGKILL after {kept} of {n_rows} rows")
        expect(0 < kept < n_rows, f"{kept} rows kept of {n_rows}")
        r = run(hamilton, [prm, "--output-dir", out, "--resume"], work)
        expect(r.returncode == 0, "the resumed study failed")
        expect("left by a run that was killed" in r.stdout, "the resumed study does not say where its rows came from")
        expect(f"{n_rows} points ({kept} from the earlier table, {n_rows - kept} computed)" in r.stdout
               or f"({kept - 1} from the earlier table" in r.stdout,
               "the summary does not count the rows taken from the killed run")
        resumed = open(os.path.join(out, "study.csv")).read() if r.returncode == 0 else ""
        expect(resumed == whole, "the resumed study.csv differs from the uninterrupted one")
        expect(not os.path.exists(os.path.join(out, "study.partial.json")), "study.partial.json is left")
        expect(not glob.glob(os.path.join(work, ".out.*")), "the killed run's directory was left")
    else:
        sys.exit(f"unknown case {case}")
    if failures:
        sys.exit("FAILED: " + "; ".join(failures))
    print("passed")


if __name__ == "__main__":
    main()
