#!/bin/sh
# Start-up cost of hamilton (issue 11): wall time of --help and --validate,
# and of a small lumped run against its own derivation + compilation +
# integration time. Each figure is the median of N runs (default 5).
#
# usage: benchmarks/startup.sh [HAMILTON] [N]
# Targets: --help and --validate under 50 ms; the lumped run under twice its
# derivation + compilation + integration time.
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
hamilton=${1:-$here/build/hamilton}
n=${2:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# "wall cpu" in seconds of one command (output discarded); cpu = user + sys
# of the process and its waited-for children: on a loaded machine the CPU
# time is the figure to compare
wall() {
  /usr/bin/time -f "%e %U %S" -o "$work/time" "$@" > "$work/stdout" 2> /dev/null || true
  awk '{print $1, $2 + $3}' "$work/time"
}
measure() {
  label=$1; shift
  for i in $(seq "$n"); do wall "$@"; done > "$work/runs"
  w=$(cut -d' ' -f1 "$work/runs" | median)
  c=$(cut -d' ' -f2 "$work/runs" | median)
  awk -v l="$label" -v w="$w" -v c="$c" 'BEGIN {printf "%-44s %8.1f ms wall %8.1f ms CPU\n", l, 1000*w, 1000*c}'
}

measure "--help" "$hamilton" --help
measure "--validate prm/beam/cantilever_modes.prm" "$hamilton" --validate "$here/prm/beam/cantilever_modes.prm"
measure "--validate prm/lumped/rlc_network.prm" "$hamilton" --validate "$here/prm/lumped/rlc_network.prm"

example=$here/prm/lumped/rlc_network.prm
for i in $(seq "$n"); do
  t=$(wall "$hamilton" "$example" --output-dir "$work/out" | cut -d' ' -f1)
  inner=$(sed -n 's/.*derivation \([0-9.e-]*\) s, compilation \([0-9.e-]*\) s, integration \([0-9.e-]*\) s.*/\1 + \2 + \3/p' "$work/stdout" | bc -l)
  echo "$t $inner"
done | sort -g | awk '{w[NR]=$1; d[NR]=$2} END {m=int((NR+1)/2);
  printf "%-44s %8.1f ms\n", "run prm/lumped/rlc_network.prm: wall", 1000*w[m];
  printf "%-44s %8.1f ms\n", "  derivation + compilation + integration", 1000*d[m];
  printf "%-44s %8.2f   (target < 2)\n", "  ratio", w[m]/d[m]}'
