#!/bin/sh
# Cost of the 3D continuum (issue 12): the Erturk-Inman bimorph of
# prm/continuum/c4_bimorph_3d.prm with quadratic hexahedra at three mesh
# levels (Global refinements 0, 1, 2: 6.9e3, 4.5e4, 3.3e5 unknowns), 6
# short-circuit and 6 open-circuit modes, on 1 and 2 MPI ranks: wall time,
# time per phase (from results.json) and peak memory (per rank).
#
# The case "graded" is the same beam on a mesh made for it instead of by
# uniform refinement: 256 x 8 hexahedra in the plane, one through each layer
# (gmsh meshes/c4_bimorph_3d.geo -setnumber nx 256 -setnumber ny 8; 2.4e5
# unknowns with quadratic elements): the aspect ratios of a real 3D model
# of a thin laminate, and the size of the speed target.
#
# Runs: 1 rank (MUMPS), 2 ranks (SuperLU_DIST, the default on several ranks:
# bit-identical runs) and "2m", 2 ranks with MUMPS (PETSC_OPTIONS), to see
# what the deterministic solver costs. cpu_s is user + system CPU time of all
# processes (on 2 ranks including MPI's busy waiting), solver the direct
# solver that factored, oc_reuse whether the open circuit reused the
# short-circuit factorization (Woodbury; "n": factored again).
#
# The phase columns (results.json's timings_s, rank 0) add up to the wall
# time: start (process start to the mesh: shared libraries, MPI, reading the
# file), mesh (mesh, dofs, sparsity patterns), assem (K and M), pre (rigid
# mass, charge functionals, shift), factor and iter (short circuit's
# factorization and Krylov-Schur), vecs (its set-up and eigenvectors), oc
# (open circuit: assembly, Woodbury set-up and check, Krylov-Schur,
# eigenvectors), clamp (clamped capacitance), post (modal quantities), rest
# (after the analyses: VTU files, results.json, MPI_Finalize, exit) and gap,
# the wall time none of them covers (mpirun's own start on 2 ranks).
#
# usage: benchmarks/continuum_bimorph.sh [HAMILTON] [CASES]
#   CASES default "0 1 2 graded" (levels of refinement, and the graded mesh,
#   which needs the gmsh program). Targets: >= 2e5 unknowns under 60 s and
#   8 GB, 2 ranks at least 1.5 x faster than 1.
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
hamilton=${1:-$here/build/hamilton}
levels=${2:-"0 1 2 graded"}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "load: $(uptime)"
printf "%-6s %-6s %9s %7s %7s %6s %6s %6s %6s %7s %6s %6s %6s %6s %6s %6s %6s %-3s %8s %13s %s\n" \
  level ranks unknowns wall_s cpu_s start mesh assem pre factor iter vecs oc clamp post rest gap oc_reuse peak_MB f1_sc_Hz solver
for level in $levels; do
  mesh="$here/meshes/c4_bimorph_3d.msh" refinements=$level
  if [ "$level" = graded ]; then
    command -v gmsh > /dev/null || { echo "graded: needs the gmsh program (apt-get install gmsh)"; continue; }
    gmsh "$here/meshes/c4_bimorph_3d.geo" -3 -setnumber nx 256 -setnumber ny 8 -o "$work/graded.msh" > /dev/null
    mesh="$work/graded.msh" refinements=0
  fi
  sed -e "s|set Global refinements   = 0|set Global refinements   = $refinements|" \
      -e "s|../../meshes/c4_bimorph_3d.msh|$mesh|" \
      -e "s|set Analyses = modal, reduced model|set Analyses = modal|" \
      -e "s|set Number of modes = 4|set Number of modes = 6|" \
      "$here/prm/continuum/c4_bimorph_3d.prm" > "$work/level$level.prm"
  for ranks in 1 2 2m; do
    out="$work/out_${level}_$ranks"
    if [ "$ranks" = 1 ]; then
      /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$hamilton" "$work/level$level.prm" --output-dir "$out" > "$work/log" 2>&1
    else
      options=$PETSC_OPTIONS
      [ "$ranks" = 2m ] && options="$options -st_pc_factor_mat_solver_type mumps -pc_factor_mat_solver_type mumps"
      /usr/bin/time -f "%e %U %S %M" -o "$work/time" mpirun --allow-run-as-root --oversubscribe -np 2 \
        -x PETSC_OPTIONS="$options" "$hamilton" "$work/level$level.prm" --output-dir "$out" > "$work/log" 2>&1
    fi
    python3 - "$out/results.json" "$work/time" "$level" "$ranks" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["continuum"]
wall, user, system, peak_kb = open(sys.argv[2]).read().split()[-4:]
wall = float(wall)
T, t = r["timings_s"], r["modal"]["timings_s"]
sc, oc = t["eigensolve_short_circuit"], t.get("eigensolve_open_circuit", {})
phases = [T["start_up"], T["mesh_and_dofs"], t["assembly"], t["rigid_mass_and_charges"], sc["factorization"],
          sc["iterations"], sc["total"] - sc["factorization"] - sc["iterations"],
          t.get("open_circuit_with_assembly", 0), t["clamped_capacitance"], t["modal_quantities"],
          wall - T["elapsed_after_analyses"]]
print("%-6s %-6s %9d %7.2f %7.2f" % (sys.argv[3], sys.argv[4], r["n_unknowns"], wall, float(user) + float(system)) +
      "".join(" %6.2f" % x for x in phases + [wall - sum(phases)]) +
      " %-3s %8.0f %13.9f %s" % ("y" if oc.get("reused_short_circuit_factorization") else "n", int(peak_kb) / 1024,
                                 r["modal"]["modes"][0]["frequency_hz"], r["modal"]["eigensolver"].split()[-1]))
PY
  done
done
echo "load: $(uptime)"
echo "(peak_MB: largest resident set of one process; with mpirun, of the launcher's children as /usr/bin/time sees them)"
