#!/bin/sh
# Cost of a coupled study (issue 13): benchmarks/coupled_study.prm, 200 points of
# the motor-driven harvester (ROM export, derivation, compilation and a 0.5 s
# integration of 2 s per point), on 1 and 2 MPI ranks: wall time, time per point, the
# lumped phases per point (from the table) and the rest of a point (reading
# the file, the beam and its ROM, the driver: the overhead); the two tables
# must be equal byte for byte in their result columns (the timings differ).
#
# usage: benchmarks/coupled_study.sh [HAMILTON] [POINTS]
#   POINTS (default 200) shortens the study for a quick look.
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
hamilton=${1:-$here/build/hamilton}
points=${2:-200}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sed -e "s|linspace(6, 12, 200)|linspace(6, 12, $points)|" "$here/benchmarks/coupled_study.prm" > "$work/study.prm"

printf "%-6s %8s %9s %12s %12s %12s %12s\n" ranks wall_s ms/point derive_ms compile_ms integrate_ms other_ms
for ranks in 1 2; do
  out="$work/out$ranks"
  start=$(date +%s.%N)
  if [ "$ranks" = 1 ]; then
    "$hamilton" "$work/study.prm" --output-dir "$out" > "$work/log$ranks" 2>&1
  else
    mpirun --allow-run-as-root --oversubscribe -np "$ranks" "$hamilton" "$work/study.prm" --output-dir "$out" \
      > "$work/log$ranks" 2>&1
  fi
  end=$(date +%s.%N)
  # columns: point,u,speed,power,derivation,compilation,integration
  awk -F, -v wall="$(echo "$end - $start" | bc)" -v ranks="$ranks" 'NR > 1 { n++; d += $5; c += $6; i += $7 }
    END { per = 1000 * wall * ranks / n;
          printf "%-6d %8.2f %9.1f %12.2f %12.2f %12.2f %12.1f\n", ranks, wall, 1000 * wall / n,
                 1000 * d / n, 1000 * c / n, 1000 * i / n, per - 1000 * (d + c + i) / n }' "$out/study.csv"
  cut -d, -f1-4 "$out/study.csv" > "$work/results$ranks.csv"
done
echo "(ms/point: wall time / points; the phases are per point on one rank; other = ranks x wall / points - phases)"
if cmp -s "$work/results1.csv" "$work/results2.csv"; then
  echo "1 and 2 ranks: the same table (u, speed, power) byte for byte"
else
  echo "1 and 2 ranks: the tables DIFFER"
  exit 1
fi
