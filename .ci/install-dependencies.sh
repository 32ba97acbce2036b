#!/usr/bin/env bash
# Install what Hamilton needs from Debian 12 packages, as root. Idempotent:
# quiet and quick when everything is already installed.
set -euo pipefail

packages=(
  g++ gcc cmake make    # gcc also compiles the derived lumped equations at run time
  libdeal.ii-dev        # deal.II 9.4 with PETSc, SLEPc, SUNDIALS, LAPACK, UMFPACK
  libopenblas0-serial   # BLAS/LAPACK for MUMPS and LAPACK: 7.7x faster factorizations than the reference
                        # BLAS (continuum C3 at 38k unknowns: 22 s -> 2.9 s); serial, so results do not depend on threads
  libgmsh-dev           # the Gmsh API: physical-group names of continuum meshes (deal.II uses it too)
  gmsh                  # meshes/generate.sh and the graded mesh of benchmarks/continuum_bimorph.sh
  libeigen3-dev
  libvtk9-dev
  libginac-dev libsundials-dev   # lumped library: symbolic derivation, IDAS
  libgtest-dev
  nlohmann-json3-dev
  libnlopt-cxx-dev      # studies: optimization (NLopt)
  python3 python3-matplotlib
  python3-sympy python3-scipy   # the SymPy + SciPy peer of benchmark_lumped_systems (benchmarks/peers)
  python3-vtk9 xvfb xauth libgl1-mesa-dri   # headless rendering of animations (postprocess/render_animation.py)
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "Installing: ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "error: installing packages needs root (run as root or with sudo)" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
