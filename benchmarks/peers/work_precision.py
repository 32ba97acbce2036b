#!/usr/bin/env python3
"""Work-precision benchmark of the lumped examples: Hamilton and the SymPy + SciPy peer.

usage: work_precision.py HAMILTON SOURCE_DIR [--rtols 1e-5,...] [--methods LSODA,Radau,BDF]
                         [--timeout S] [--json FILE] [--figure FILE.png] [--markdown FILE.md]
                         [--from-json FILE] [EXAMPLE ...]

Run by `benchmark_lumped_systems --work-precision` (both codes in one invocation). For each
example (default: the seven of benchmarks/peers/lumped_peer.py) and each relative tolerance
rtol (default 1e-5 ... 1e-10, six; the absolute tolerance keeps the example's ratio
atol/rtol), it runs

  * `HAMILTON FILE.prm --set ...tolerances`: IDA with its global error control, the
    integration time (s, results.json timings_s/integration: the quiet calibration runs
    included) and residual evaluations;
  * the peer (lumped_peer.py) with each of the methods (solve_ivp LSODA, Radau, BDF, with
    the analytic Jacobian): integration time and right-hand-side evaluations (its Jacobian
    evaluations and LU decompositions are extra and printed);

and measures each run's error: the largest difference of the final coordinates and
velocities from a reference solution, each relative to the largest magnitude of that
column over Hamilton's tightest run (results.json summary/columns/*/peak). The reference
is the peer's equations integrated by DOP853 at rtol 1e-13; it is checked against
Hamilton at rtol 1e-13 (printed: their difference bounds how far an error below it can be
trusted). Prints a table; writes the measurements as JSON, a figure of error against
integration time and against evaluations, one panel per example, and the table in Markdown.
With --from-json, nothing is run: the table, figure and Markdown of earlier measurements.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = ["scotch_yoke_dc_motor", "crank_slider_pendulum", "overhead_crane", "slider_crank_dae",
            "two_link_arm", "movable_plate_capacitor", "rrr_parallel_robot"]


def simulation_entries(prm):
    """Final time, output interval, rtol, atol of the example's 'Simulation' subsection."""
    values = {}
    for line in open(prm):
        m = re.match(r"\s*set\s+(Final time|Output interval|Relative tolerance|Absolute tolerance)\s*=\s*(\S+)",
                     line)
        if m:
            values[m.group(1)] = float(m.group(2))
    return (values["Final time"], values["Output interval"], values["Relative tolerance"],
            values["Absolute tolerance"])


def run_hamilton(hamilton, prm, rtol, atol, directory):
    out = os.path.join(directory, "h_%s_%g" % (os.path.basename(prm)[:-4], rtol))
    start = time.perf_counter()
    subprocess.run([hamilton, prm, "--output-dir", out,
                    "--set", "Lumped system/Simulation/Relative tolerance=%r" % rtol,
                    "--set", "Lumped system/Simulation/Absolute tolerance=%r" % atol],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    r = json.load(open(os.path.join(out, "results.json")))["lumped"]
    peaks = {name: abs(c["peak"]) for name, c in r["summary"]["columns"].items()}
    return {"final": r["final_state"], "seconds": r["timings_s"]["integration"], "process": wall,
            "evaluations": r["evaluations"]["residual"], "jacobians": r["evaluations"]["jacobian"],
            "rtol_used": r.get("error_control", {}).get("relative_tolerance_used", rtol), "peaks": peaks}


def run_peer(python, name, method, rtol, atol, final_time, interval, timeout):
    start = time.perf_counter()
    try:
        p = subprocess.run([python, os.path.join(HERE, "lumped_peer.py"), name, "--rtol", repr(rtol), "--atol",
                            repr(atol), "--final-time", repr(final_time), "--output-interval", repr(interval),
                            "--method", method], check=True, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    r = json.loads(p.stdout)
    return {"final": r["final"], "seconds": r["integrate_seconds"], "process": time.perf_counter() - start,
            "evaluations": r["rhs_evaluations"], "jacobians": r["jacobians"]}


def error(final, reference, peaks):
    """Largest |final - reference| over the common coordinates and velocities, relative to the column's peak."""
    worst, column = 0.0, ""
    for key, value in reference.items():
        if key in final and peaks.get(key, 0) > 0:
            e = abs(final[key] - value) / peaks[key]
            if e > worst:
                worst, column = e, key
    return worst, column


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("hamilton")
    parser.add_argument("source")
    parser.add_argument("examples", nargs="*")
    parser.add_argument("--rtols", default="1e-5,1e-6,1e-7,1e-8,1e-9,1e-10")
    parser.add_argument("--methods", default="LSODA,Radau,BDF")
    parser.add_argument("--timeout", type=float, default=120, help="s per peer run; slower runs are left out")
    parser.add_argument("--json")
    parser.add_argument("--figure")
    parser.add_argument("--markdown")
    parser.add_argument("--from-json", dest="from_json")
    a = parser.parse_intermixed_args()
    python = sys.executable
    rtols = [float(x) for x in a.rtols.split(",")]
    methods = a.methods.split(",")
    examples = a.examples or EXAMPLES
    results = {}
    if a.from_json:
        results = json.load(open(a.from_json))
        for name, entry in results.items():
            print_example(name, entry)
        examples = []
    with tempfile.TemporaryDirectory(prefix="hamilton-work-precision-") as directory:
        for name in examples:
            prm = os.path.join(a.source, "prm", "lumped", name + ".prm")
            final_time, interval, rtol0, atol0 = simulation_entries(prm)
            ratio = atol0 / rtol0
            # the tightest run at the benchmark's --reference tolerances (atol at most 1e-14: the
            # movable-plate capacitor's IDA stops at rtol 1e-13, atol 1e-22)
            tight = run_hamilton(a.hamilton, prm, 1e-13, min(atol0, 1e-14), directory)
            reference = run_peer(python, name, "DOP853", 1e-13, min(atol0, 1e-15), final_time, interval, None)
            peaks = tight["peaks"]
            check, check_column = error(tight["final"], reference["final"], peaks)
            entry = {"final_time": final_time, "atol_over_rtol": ratio, "reference_vs_hamilton_tightest": check,
                     "reference_vs_hamilton_column": check_column, "runs": []}
            for rtol in rtols:
                atol = rtol * ratio
                try:
                    h = run_hamilton(a.hamilton, prm, rtol, atol, directory)
                except subprocess.CalledProcessError as failure:
                    entry["runs"].append({"code": "Hamilton IDA", "rtol": rtol, "failed": failure.stderr.decode()[-300:]})
                    continue
                e, column = error(h["final"], reference["final"], peaks)
                entry["runs"].append({"code": "Hamilton IDA", "rtol": rtol, "error": e, "column": column,
                                      "seconds": h["seconds"], "process": h["process"],
                                      "evaluations": h["evaluations"], "jacobians": h["jacobians"],
                                      "rtol_used": h["rtol_used"]})
                for method in methods:
                    p = run_peer(python, name, method, rtol, atol, final_time, interval, a.timeout)
                    if p is None:
                        entry["runs"].append({"code": "SciPy " + method, "rtol": rtol, "timeout": a.timeout})
                        continue
                    e, column = error(p["final"], reference["final"], peaks)
                    entry["runs"].append({"code": "SciPy " + method, "rtol": rtol, "error": e, "column": column,
                                          "seconds": p["seconds"], "process": p["process"],
                                          "evaluations": p["evaluations"], "jacobians": p["jacobians"]})
            results[name] = entry
            print_example(name, entry)
            sys.stdout.flush()
            if a.json:  # after each example: a partial run keeps what it measured
                with open(a.json, "w") as f:
                    json.dump(results, f, indent=1)
    if a.figure:
        figure(results, a.figure)
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write(markdown(results))


def markdown(results):
    """Per example and rtol: each code's error (relative), error/rtol, integration time (s) and evaluations."""
    codes = ["Hamilton IDA", "SciPy LSODA", "SciPy Radau", "SciPy BDF"]
    lines = ["| example | rtol | " + " | ".join(codes) + " |", "|---|---|" + "---|" * len(codes)]
    for name, entry in results.items():
        for rtol in sorted({r["rtol"] for r in entry["runs"]}, reverse=True):
            cells = []
            for code in codes:
                r = next((r for r in entry["runs"] if r["code"] == code and r["rtol"] == rtol), None)
                if r is None:
                    cells.append("")
                elif "timeout" in r:
                    cells.append("> %g s" % r["timeout"])
                elif "failed" in r:
                    cells.append("failed")
                else:
                    cells.append("%.1e (%.0f) %.3f s %d" % (r["error"], r["error"] / rtol, r["seconds"],
                                                           r["evaluations"]))
            lines.append("| %s | %.0e | %s |" % (name.replace("_", " "), rtol, " | ".join(cells)))
    return "\n".join(lines) + "\n"


def print_example(name, entry):
    print("\n%s (T = %g s, atol = %g rtol); reference DOP853 at rtol 1e-13, Hamilton at rtol 1e-13 differs "
          "from it by %.2e (%s)" % (name, entry["final_time"], entry["atol_over_rtol"],
                                    entry["reference_vs_hamilton_tightest"], entry["reference_vs_hamilton_column"]))
    print("%-14s %7s %10s %8s %-16s %10s %9s %6s %9s" % ("code", "rtol", "error", "err/rtol", "worst column",
                                                            "integr. s", "evals", "Jac.", "process s"))
    for r in entry["runs"]:
        if "timeout" in r:
            print("%-14s %7.0e   (more than %g s: left out)" % (r["code"], r["rtol"], r["timeout"]))
            continue
        if "failed" in r:
            print("%-14s %7.0e   failed: %s" % (r["code"], r["rtol"], r["failed"].strip().splitlines()[-1][:100]))
            continue
        print("%-14s %7.0e %10.2e %8.0f %-16s %10.4f %9d %6d %9.2f" % (
            r["code"], r["rtol"], r["error"], r["error"] / r["rtol"], r["column"], r["seconds"], r["evaluations"],
            r["jacobians"], r["process"]))


def figure(results, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(results)
    fig, axes = plt.subplots(2, len(names), figsize=(3.2 * len(names), 6.4), squeeze=False)
    styles = {"Hamilton IDA": ("k", "o"), "SciPy LSODA": ("tab:blue", "s"), "SciPy Radau": ("tab:orange", "^"),
              "SciPy BDF": ("tab:green", "v")}
    for col, name in enumerate(names):
        for row, cost in enumerate(["seconds", "evaluations"]):
            ax = axes[row][col]
            for code, (color, marker) in styles.items():
                runs = [r for r in results[name]["runs"] if r["code"] == code and "error" in r and r["error"] > 0]
                if runs:
                    ax.loglog([r["error"] for r in runs], [r[cost] for r in runs], marker=marker, color=color,
                              label=code, linewidth=1)
            ax.grid(True, which="major", alpha=0.3)
            if row == 0:
                ax.set_title(name.replace("_", " "), fontsize=9)
            ax.set_xlabel("error (relative)", fontsize=8)
            ax.set_ylabel("integration time (s)" if cost == "seconds" else "residual / RHS evaluations", fontsize=8)
            ax.tick_params(labelsize=7)
    axes[0][0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=90)


if __name__ == "__main__":
    main()
