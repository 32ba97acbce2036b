#!/usr/bin/env bash
# The numerically sensitive tests (ctest label 'numerics': continuum, piezo,
# reduced models, harvester, claims, 2-rank runs, the manual's tables) under
# every BLAS/LAPACK this machine can run: each OpenBLAS kernel the CPU
# supports (OPENBLAS_CORETYPE), the one OpenBLAS picks itself, and Debian's
# reference BLAS/LAPACK (through LD_LIBRARY_PATH, not update-alternatives:
# nothing outside the build directory changes). The 2-rank tests are in the
# label, so each configuration covers 1 and 2 ranks.
#
# usage: tests/numerics_matrix.sh [BUILD_DIR]        (default: build)
# Prints one line per configuration and exits 1 if any failed; the logs are in
# BUILD_DIR/numerics-matrix/.
set -uo pipefail
build=${1:-build}
[ -f "$build/CTestTestfile.cmake" ] || { echo "error: '$build' is not a configured build directory" >&2; exit 1; }
logs="$build/numerics-matrix"
mkdir -p "$logs"

# the kernels this CPU can run, from its instruction-set flags
flags=$(grep -m1 '^flags' /proc/cpuinfo)
has() { [[ " $flags " == *" $1 "* ]]; }
kernels=(default Prescott)
has sse4_2 && kernels+=(Nehalem)
has avx && kernels+=(Sandybridge)
has avx2 && has fma && kernels+=(Haswell)
has avx512f && has avx512vl && kernels+=(SkylakeX)
kernels+=(reference)

reference_dir="$logs/reference-blas"
mkdir -p "$reference_dir"
ln -sf /usr/lib/x86_64-linux-gnu/blas/libblas.so.3 "$reference_dir/libblas.so.3"
ln -sf /usr/lib/x86_64-linux-gnu/lapack/liblapack.so.3 "$reference_dir/liblapack.so.3"

status=0
for kernel in "${kernels[@]}"; do
  environment=(env -u OPENBLAS_CORETYPE)
  case $kernel in
    default) ;;
    reference)
      [ -e /usr/lib/x86_64-linux-gnu/blas/libblas.so.3 ] || { echo "reference BLAS not installed (libblas3, liblapack3): skipped"; continue; }
      environment+=(LD_LIBRARY_PATH="$reference_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}") ;;
    *) environment+=(OPENBLAS_CORETYPE="$kernel") ;;
  esac
  start=$(date +%s)
  "${environment[@]}" ctest --test-dir "$build" -L numerics -j2 --output-on-failure > "$logs/$kernel.log" 2>&1
  result=$?
  summary=$(grep -E 'tests passed|tests failed' "$logs/$kernel.log" | tail -1)
  echo "$kernel: ${summary:-no summary} ($(( $(date +%s) - start )) s; log $logs/$kernel.log)"
  if [ $result -ne 0 ]; then
    status=1
    grep -E '^\s+[0-9]+ - ' "$logs/$kernel.log" | sed 's/^/    failed: /'
  fi
done
exit $status
