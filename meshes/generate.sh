#!/bin/sh
# Regenerate every .msh in this folder from its .geo with Debian's gmsh, then check them
# (check.py). With --check, generate into a temporary folder instead and compare with the
# committed files byte for byte (exit 1 on a difference); nothing here is written.
#
# usage: meshes/generate.sh [--check]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$here
if [ "${1:-}" = "--check" ]; then
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
fi

# name and dimension of the mesh (gmsh -2 or -3)
for entry in c1_rectangle:2 c2_thickness_column:2 c2_bar31:3 c2_bar33:3 c3_cube_quarter:3 \
             c4_bimorph_3d:3 c4_bimorph_2d:2 c5_disk_axisymmetric:2 c5_disk_quarter:3 plate_with_patch:3 steel_strip_3d:3; do
  name=${entry%:*}
  dim=${entry#*:}
  gmsh "$here/$name.geo" -"$dim" -o "$out/$name.msh" > "$out/$name.log" 2>&1 ||
    { cat "$out/$name.log"; echo "gmsh failed on $name.geo" >&2; exit 1; }
  if grep -q -i "warning\|error" "$out/$name.log"; then
    grep -i "warning\|error" "$out/$name.log" >&2
  fi
  rm -f "$out/$name.log"
done

if [ "$out" != "$here" ]; then
  status=0
  for f in "$out"/*.msh; do
    cmp -s "$f" "$here/$(basename "$f")" || { echo "differs from the committed file: $(basename "$f")" >&2; status=1; }
  done
  [ $status -eq 0 ] && echo "every committed .msh is what its .geo generates"
  exit $status
fi
python3 "$here/check.py"
