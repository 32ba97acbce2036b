#!/usr/bin/env python3
"""Command-line, output-directory, write-failure and signal behaviour of
hamilton, one case per ctest entry. Each case states what must happen: the
exit status, fragments of the message, and what exists afterwards.

usage: cli_case.py CASE HAMILTON SOURCE_DIR WORK_DIR
"""
import glob
import os
import resource
import shutil
import signal
import subprocess
import sys
import time

failures = []


def expect(condition, text):
    if not condition:
        failures.append(text)


def run(hamilton, args, cwd, limit_file_size=None, env=None):
    def prepare():
        if limit_file_size is not None:
            # writes beyond the limit fail with EFBIG instead of killing the process
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_file_size, limit_file_size))
    result = subprocess.run([hamilton] + args, cwd=cwd, capture_output=True, text=True,
                            preexec_fn=prepare, timeout=600, env=env)
    print(f"$ hamilton {' '.join(args)}\nexit {result.returncode}\n{result.stderr}")
    return result


def failed_with(result, status, *fragments):
    expect(result.returncode == status, f"exit status {result.returncode}, expected {status}")
    for fragment in fragments:
        expect(fragment in result.stderr, f"message lacks '{fragment}'")
    expect("Internal error" not in result.stderr, "reported as an internal error")
    expect("Results written" not in result.stdout, "reported success")


def long_lumped_file(source, work):
    """The RLC example driven by a 1 kHz sine for 250 s (2.5e6 rows of 17 columns, under the CSV limit): runs for minutes."""
    with open(os.path.join(source, "prm/lumped/rlc_network.prm")) as f:
        text = f.read()
    text = text.replace("set Type  = step", "set Type  = sine\n      set Frequency = 1000")
    text = text.replace("set Final time         = 0.2", "set Final time         = 250")
    text = text.replace("set Output interval    = 0.0005", "set Output interval    = 0.0001")
    path = os.path.join(work, "long_run.prm")
    with open(path, "w") as f:
        f.write(text)
    return path


def main():
    case, hamilton, source, work = sys.argv[1:5]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    beam = os.path.join(source, "prm/beam/cantilever_modes.prm")
    lumped = os.path.join(source, "prm/lumped/rlc_network.prm")
    out = os.path.join(work, "out")

    if case == "mpirun_two_ranks":
        # beam, lumped and coupled runs are serial: under mpirun rank 0 alone
        # prints and writes (before: both ranks wrote the same directory and
        # printed everything twice)
        mpirun = shutil.which("mpirun")
        expect(mpirun is not None, "no mpirun found")
        coupled = os.path.join(source, "prm/coupled/spinning_link.prm")
        for name, prm in (("beam", beam), ("lumped", lumped), ("coupled", coupled)):
            target = os.path.join(work, name)
            command = [mpirun, "--allow-run-as-root", "--oversubscribe", "-np", "2", hamilton, prm,
                       "--output-dir", target]
            r = subprocess.run(command, cwd=work, capture_output=True, text=True, timeout=600)
            print(f"$ {' '.join(command)}\nexit {r.returncode}\n{r.stdout}{r.stderr}")
            expect(r.returncode == 0, f"{name}: exit status {r.returncode}")
            expect(r.stdout.count("Hamilton: ") == 1, f"{name}: the run's header printed {r.stdout.count('Hamilton: ')} times")
            expect(r.stdout.count("Results written") == 1,
                   f"{name}: 'Results written' printed {r.stdout.count('Results written')} times")
            expect("process 0 computes and writes" in r.stderr, f"{name}: no note on the serial run")
            expect(os.path.isfile(os.path.join(target, "results.json")), f"{name}: no results.json")
        left = glob.glob(os.path.join(work, ".*incomplete*"))
        expect(not left, f"temporary directories left: {left}")
    elif case == "help_without_deal_ii":
        # issue 11, start-up: the launcher (source/launcher.cc) answers --help
        # without loading the program library and deal.II's ~220 libraries;
        # the dynamic linker's log of a --validate names them, that of --help not
        env = dict(os.environ, LD_DEBUG="libs")
        for args, loads in ((["--help"], False), (["--validate", lumped], True)):
            r = subprocess.run([hamilton] + args, cwd=work, capture_output=True, text=True, env=env, timeout=600)
            print(f"$ LD_DEBUG=libs hamilton {' '.join(args)}\nexit {r.returncode}\n{r.stdout}")
            expect(r.returncode == 0, f"{args[0]}: exit status {r.returncode}")
            for library in ("libhamilton_app.so", "libdeal.ii"):
                expect((library in r.stderr) == loads,
                       f"{args[0]}: {library} {'not ' if loads else ''}loaded")
        expect("this text" in subprocess.run([hamilton, "--help"], capture_output=True, text=True).stdout,
               "--help prints no usage")
    elif case == "petsc_options_bad":
        # a solver that does not exist, asked for through PETSc's options
        # database: the user's error, named with the variable, not an
        # internal error; nothing written
        options = "-st_pc_factor_mat_solver_type no_such_solver"
        prm = os.path.join(source, "prm/continuum/c4_bimorph_2d.prm")
        r = run(hamilton, [prm, "--output-dir", out], work, env=dict(os.environ, PETSC_OPTIONS=options))
        failed_with(r, 1, "EPSSetUp failed", f"PETSC_OPTIONS = '{options}'", "Correct it or unset it")
        expect(not os.path.exists(out), "an output directory was written")
    elif case == "two_parameter_files":
        r = run(hamilton, [beam, lumped], work)
        failed_with(r, 1, "two parameter files given", "rlc_network.prm")
    elif case == "output_dir_without_value":
        r = run(hamilton, [beam, "--output-dir"], work)
        failed_with(r, 1, "--output-dir needs a value")
    elif case == "directory_as_parameter_file":
        os.makedirs(os.path.join(work, "runs.prm"))
        r = run(hamilton, ["runs.prm"], work)
        failed_with(r, 1, "'runs.prm' is a directory")
    elif case == "output_dir_is_a_file":
        with open(out, "w") as f:
            f.write("a file\n")
        r = run(hamilton, [beam, "--output-dir", out], work)
        failed_with(r, 1, f"Output directory '{out}' (--output-dir) exists and is not a directory")
        expect(open(out).read() == "a file\n", "the file was changed")
    elif case == "output_dir_too_long":
        r = run(hamilton, [lumped, "--output-dir", "x" * 300], work)
        failed_with(r, 1, "characters; at most", "Choose a shorter directory name")
    elif case == "output_dir_holds_other_files":
        os.makedirs(out)
        with open(os.path.join(out, "thesis.tex"), "w") as f:
            f.write("precious\n")
        r = run(hamilton, [lumped, "--output-dir", out], work)
        failed_with(r, 1, "holds files that are not the result of a Hamilton run")
        expect(os.path.exists(os.path.join(out, "thesis.tex")), "a foreign file was removed")
    elif case == "output_dir_replaced":
        # a second run replaces the first one's directory as a whole
        r = run(hamilton, [lumped, "--output-dir", out], work)
        expect(r.returncode == 0, "first run failed")
        with open(os.path.join(out, "stale.csv"), "w") as f:
            f.write("old\n")
        r = run(hamilton, [lumped, "--output-dir", out], work)
        expect(r.returncode == 0, "second run failed")
        expect(not os.path.exists(os.path.join(out, "stale.csv")), "a file of the earlier run survived")
        expect(os.path.exists(os.path.join(out, "results.json")), "no results.json")
        expect(not glob.glob(os.path.join(work, ".out.*")), "a temporary directory was left")
    elif case.startswith("set_"):
        # --set changes an entry as the file would: the results follow the
        # closed forms of the changed model (not the program's own output)
        import json
        def results(args, name):
            r = run(hamilton, args + ["--output-dir", os.path.join(work, name)], work)
            expect(r.returncode == 0, f"{name}: exit status {r.returncode}")
            return json.load(open(os.path.join(work, name, "results.json"))) if r.returncode == 0 else {}
        if case == "set_beam":
            # f1 = 18.56704 Hz at h = 2 mm, proportional to h (Euler-Bernoulli): 27.85056 Hz at 3 mm
            j = results([beam, "--set", "Beam/Layers/strip/Thickness=0.003"], "beam")
            f = j.get("modes", [{}])[0].get("frequency_hz", 0)
            expect(abs(f / (18.567035432092403 * 1.5) - 1) < 1e-9, f"f1 = {f}")
            # a list of names changed too: a second layer on the first (both steel, 4 mm in all)
            j = results([beam, "--set", "Beam/Layers/Names=strip, top", "--set", "Beam/Layers/top/Material=steel",
                         "--set", "Beam/Layers/top/Thickness=0.002", "--set", "Beam/Layers/top/Width=0.02",
                         "--set", "Beam/Segments/beam/Layers=strip, top"], "two_layers")
            f = j.get("modes", [{}])[0].get("frequency_hz", 0)
            expect(abs(f / (18.567035432092403 * 2) - 1) < 1e-9, f"two layers: f1 = {f}")
        elif case == "set_lumped":
            # RLC: the final charge follows the step source: q = C V (C changed by the set)
            r = run(hamilton, ["--validate", lumped, "--set", "Lumped system/Simulation/Final time=0.1"], work)
            expect(r.returncode == 0 and "is valid" in r.stdout, "--validate with --set failed")
            j = results([lumped, "--set", "Lumped system/Simulation/Final time=0.1"], "lumped")
            expect(j.get("lumped", {}).get("final_time_s") == 0.1, "final time not changed")
            # an item of 'Lumped system/Parameters': the base excitation at 13 Hz instead of 12;
            # the simulated motion follows the closed-form steady state of 13 Hz (x_error)
            import math
            k, c, w = (2 * math.pi * 10) ** 2, 2 * 0.1 * 2 * math.pi * 10, 2 * math.pi * 13
            T = math.sqrt((k**2 + (c * w) ** 2) / ((k - w**2) ** 2 + (c * w) ** 2))
            j = results([os.path.join(source, "prm/lumped/base_excitation.prm"), "--set",
                         "Lumped system/Parameters/f=13"], "base_13hz")
            final = j.get("lumped", {}).get("final_state", {})
            expect(abs(final.get("transmissibility", 0) / T - 1) < 1e-12, f"transmissibility {final.get('transmissibility')}")
            expect(abs(final.get("x_error", 1)) < 1e-10, f"x_error {final.get('x_error')}")
        elif case == "set_piezo":
            # the bimorph's capacitance eps33S b L/(2 h_p) doubles with the width
            piezo = os.path.join(source, "prm/piezo/bimorph_harvester.prm")
            j = results([piezo, "--set", "Beam/Layers/pzt_lower/Width=12.8e-3", "--set",
                         "Beam/Layers/pzt_upper/Width=12.8e-3", "--set", "Beam/Layers/substrate/Width=12.8e-3"], "piezo")
            c = j.get("electrodes", [{}])[0].get("capacitance_F", 0)
            expect(abs(c / (25.55e-9 * 12.8e-3 * 24.53e-3 / (2 * 0.265e-3)) - 1) < 1e-12, f"C = {c}")
        elif case == "set_coupled":
            coupled = os.path.join(source, "prm/coupled/motor_driven_harvester.prm")
            r = run(hamilton, ["--validate", coupled, "--set", "Lumped system/Simulation/Final time=0.05"], work)
            expect(r.returncode == 0 and "is valid too" in r.stdout, "--validate of a coupled file with --set failed")
            j = results([coupled, "--set", "Lumped system/Simulation/Final time=0.05"], "coupled")
            expect(j.get("lumped", {}).get("final_time_s") == 0.05, "final time not changed")
        elif case == "set_without_value":
            r = run(hamilton, [beam, "--set"], work)
            failed_with(r, 1, "--set needs 'Path/To/Entry=value'")
            r = run(hamilton, [beam, "--set", "Beam/Layers/strip/Thickness"], work)
            failed_with(r, 1, "--set needs 'Path/To/Entry=value'", "got 'Beam/Layers/strip/Thickness'")
    elif case == "study_mpi_two_ranks":
        # the points distributed over 2 ranks: the same table byte for byte as one rank
        import shutil as sh
        grid = os.path.join(source, "prm/studies/bimorph_load_frequency_grid.prm")
        launcher = sh.which("mpirun")
        if launcher is None:
            print("mpirun not found: skipped")
        else:
            r1 = run(hamilton, [grid, "--output-dir", os.path.join(work, "one")], work)
            expect(r1.returncode == 0, "one rank failed")
            r2 = subprocess.run([launcher, "--allow-run-as-root", "--oversubscribe", "-np", "2", hamilton, grid,
                                 "--output-dir", os.path.join(work, "two")], cwd=work, capture_output=True,
                                text=True, timeout=600)
            print(r2.stdout, r2.stderr)
            expect(r2.returncode == 0, "two ranks failed")
            one = open(os.path.join(work, "one", "study.csv")).read()
            two = open(os.path.join(work, "two", "study.csv")).read() if r2.returncode == 0 else ""
            expect(one == two, "study.csv differs between 1 and 2 ranks")
            expect(r2.stdout.count("Results written") == 1, "not exactly one rank reported the results")
    elif case == "study_continue_on_failure":
        # a failing point is recorded (nan, its message) and the study goes on
        import json
        with open(os.path.join(source, "tests/bad_input/study_point_fails.prm")) as f:
            text = f.read().replace("set Design = grid", "set Design = grid\n  set Continue on failure = true")
        text = text.replace("set Values = 0.002, -0.002", "set Values = 0.002, -0.002, 0.003")
        prm = os.path.join(work, "continue.prm")
        with open(prm, "w") as f:
            f.write(text)
        r = run(hamilton, [prm, "--output-dir", out], work)
        expect(r.returncode == 0, f"exit status {r.returncode}")
        if r.returncode == 0:
            j = json.load(open(os.path.join(out, "results.json")))
            expect(j["n_failed"] == 1, f"n_failed = {j['n_failed']}")
            expect("Thickness" in j["points"][1].get("error", ""), "the failure's message is not recorded")
            expect(j["points"][1]["values"][1] is None, "the failed point has a value")
            # f1 proportional to the thickness (Euler-Bernoulli): the third row is 1.5 times the first
            f1, f3 = j["points"][0]["values"][1], j["points"][2]["values"][1]
            expect(abs(f3 / f1 - 1.5) < 1e-9, f"f1 ratio {f3 / f1}")
            expect("1 failed" in r.stdout, "the summary does not count the failure")
    elif case in ("write_failure_lumped", "write_failure_beam", "write_failure_vtu"):
        # under a file size limit every larger file fails with EFBIG (lumped:
        # 8 MB, room for the C code, assembly and library the run compiles,
        # also with sanitizer flags (the assembly of the RLC network exceeded
        # 64 kB there), not for the lumped.csv of a long run, which reaches it
        # after ~3 simulated seconds; beam: 4 kB, less than its mode shapes;
        # vtu: 20 kB, room for the CSV tables, not for a mode's VTU file, whose
        # failed write crashed VTK 9.1's writer before it formatted in memory)
        prm = long_lumped_file(source, work) if case == "write_failure_lumped" else beam
        limit = {"write_failure_lumped": 8 << 20, "write_failure_beam": 4096, "write_failure_vtu": 20480}[case]
        r = run(hamilton, [prm, "--output-dir", out], work, limit_file_size=limit)
        failed_with(r, 1, "Cannot write '", "File too large", "Nothing of this run was kept")
        expect(not os.path.exists(out), "an output directory was left")
        expect(not glob.glob(os.path.join(work, ".out.*")), "a temporary directory was left")
    elif case in ("sigterm_lumped", "sigint_lumped"):
        number = signal.SIGTERM if case == "sigterm_lumped" else signal.SIGINT
        prm = long_lumped_file(source, work)
        process = subprocess.Popen([hamilton, prm, "--output-dir", out], cwd=work,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.time() + 300
        while time.time() < deadline:  # until rows are being written
            tables = glob.glob(os.path.join(work, ".out.incomplete-*/lumped.csv"))
            if tables and os.path.getsize(tables[0]) > 10000:
                break
            time.sleep(0.1)
        process.send_signal(number)
        stdout, stderr = process.communicate(timeout=120)
        print(stderr)
        name = "SIGTERM" if number == signal.SIGTERM else "SIGINT"
        expect(process.returncode == 128 + number, f"exit status {process.returncode}, expected {128 + number}")
        expect(f"({name})" in stderr, f"message lacks '({name})'")
        expect("lumped.partial.csv" in stderr, "message does not name the partial table")
        kept = sorted(os.listdir(out)) if os.path.isdir(out) else []
        expect(kept == ["lumped.partial.csv"], f"output directory holds {kept}, expected the partial table only")
        if kept:
            with open(os.path.join(out, "lumped.partial.csv")) as table:
                rows = [row.split(",") for row in table.read().splitlines()]
            expect(len(rows) > 2 and all(len(r) == len(rows[0]) for r in rows), "partial table is not a table")
        expect(not glob.glob(os.path.join(work, ".out.*")), "a temporary directory was left")
    elif case in ("study_resume_grid", "study_resume_optimize"):
        # a study cut short (its table truncated to 4 rows and half a row)
        # resumes: the same study.csv byte for byte as the uninterrupted run,
        # only the missing points computed (an optimization replays its
        # evaluations from the table, NLopt being deterministic)
        name = "bimorph_load_frequency_grid" if case == "study_resume_grid" else "bimorph_optimal_load"
        prm = os.path.join(source, "prm/studies", name + ".prm")
        r = run(hamilton, [prm, "--output-dir", out], work)
        expect(r.returncode == 0, "the uninterrupted study failed")
        if r.returncode == 0:
            whole = open(os.path.join(out, "study.csv")).read()
            lines = whole.splitlines(keepends=True)
            n = len(lines) - 1
            with open(os.path.join(out, "study.csv"), "w") as f:
                f.write("".join(lines[:5]) + lines[5][: len(lines[5]) // 2])
            r = run(hamilton, [prm, "--output-dir", out, "--resume"], work)
            expect(r.returncode == 0, "the resumed study failed")
            expect(f"{n} points (4 from the earlier table, {n - 4} computed)" in r.stdout,
                   "the summary does not say 4 rows were taken and the rest computed")
            resumed = open(os.path.join(out, "study.csv")).read() if r.returncode == 0 else ""
            expect(resumed == whole, "the resumed study.csv differs from the uninterrupted one")
    elif case == "study_resume_sigterm":
        # SIGTERM during a study keeps the rows computed so far (study.csv,
        # study.partial.json with the fingerprint, no results.json); --resume
        # completes the table, equal byte for byte to an uninterrupted run
        prm = os.path.join(source, "prm/studies/cantilever_monte_carlo.prm")
        r = run(hamilton, [prm, "--output-dir", os.path.join(work, "whole")], work)
        whole = open(os.path.join(work, "whole", "study.csv")).read() if r.returncode == 0 else "?"
        process = subprocess.Popen([hamilton, prm, "--output-dir", out], cwd=work, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True)
        line = ""
        while process.poll() is None and "20%" not in line:  # progress on stderr, every 10 % off a terminal
            line = process.stderr.readline()
        process.send_signal(signal.SIGTERM)
        stdout, stderr = process.communicate(timeout=120)
        print(stderr)
        expect(process.returncode == 128 + signal.SIGTERM, f"exit status {process.returncode}, expected 143")
        expect("--resume" in stderr and "study.csv" in stderr, "the message does not name the table and --resume")
        kept = sorted(os.listdir(out)) if os.path.isdir(out) else []
        expect(kept == ["parameters_used.prm", "study.csv", "study.csv.columns.json", "study.partial.json"], f"output directory holds {kept}")
        if kept:
            rows = open(os.path.join(out, "study.csv")).read()
            expect(whole.startswith(rows) and rows.count("\n") > 1, "the kept rows are not the first rows of the table")
            r = run(hamilton, [prm, "--output-dir", out, "--resume"], work)
            expect(r.returncode == 0, "the resumed study failed")
            resumed = open(os.path.join(out, "study.csv")).read() if r.returncode == 0 else ""
            expect(resumed == whole, "the resumed study.csv differs from the uninterrupted one")
            expect(not os.path.exists(os.path.join(out, "study.partial.json")), "study.partial.json is left")
        expect(not glob.glob(os.path.join(work, ".out.*")), "a temporary directory was left")
    elif case == "study_resume_refused":
        # --resume refuses a table that another file or other --set values
        # wrote, a directory without a table and a file without a study;
        # nothing is written and the earlier table stays as it was
        grid = os.path.join(source, "prm/studies/bimorph_load_frequency_grid.prm")
        other = os.path.join(source, "prm/studies/cantilever_monte_carlo.prm")
        r = run(hamilton, [grid, "--output-dir", out], work)
        before = open(os.path.join(out, "study.csv")).read() if r.returncode == 0 else "?"
        r = run(hamilton, [other, "--output-dir", out, "--resume"], work)
        failed_with(r, 1, "--resume: the table '", "was written by another parameter file or other --set values",
                    "written by 'bimorph_load_frequency_grid.prm'", "Run without --resume")
        # (an entry the study does not vary: a --set of a varied one is refused on its own)
        r = run(hamilton, [grid, "--output-dir", out, "--resume", "--set", "Beam/Layers/substrate/Thickness=0.15e-3"],
                work)
        failed_with(r, 1, "was written by another parameter file or other --set values", "1 --set value(s)")
        expect(open(os.path.join(out, "study.csv")).read() == before, "the earlier table was changed")
        r = run(hamilton, [grid, "--output-dir", os.path.join(work, "empty"), "--resume"], work)
        failed_with(r, 1, "--resume: there is no table")
        expect(not os.path.exists(os.path.join(work, "empty")), "an output directory was written")
        r = run(hamilton, [beam, "--output-dir", os.path.join(work, "beam"), "--resume"], work)
        failed_with(r, 1, "--resume continues a study", "has none")
        expect(not glob.glob(os.path.join(work, ".*")), "a temporary directory was left")
    else:
        sys.exit(f"unknown case {case}")
    if failures:
        sys.exit("FAILED: " + "; ".join(failures))
    print("passed")


if __name__ == "__main__":
    main()
