#!/usr/bin/python3
"""Check the meshes in this folder against the conventions Hamilton relies on (README.md).

For every .msh (read with a small parser of ASCII MSH 4.1, independent of Gmsh):
* format 4.1 ASCII; element types: hexahedra (5) and boundary quadrilaterals (3) in 3D,
  quadrilaterals (3) and boundary lines (1) in 2D, nothing else (no triangles, tetrahedra,
  prisms, points, second-order elements);
* physical groups: exactly the expected names, regions of the top dimension, boundary groups
  of dimension dim - 1, no physical points, no entity in two groups, every cell in a region;
* every cell has positive Jacobian determinants at its corners (as Gmsh orders its nodes);
* conformity: every face of a cell is shared by at most two cells, and the faces used once
  (the boundary) add up to the area of the geometric boundary, so there are no hanging nodes;
* every tagged boundary element is a boundary face (deal.II rejects boundary ids on interior
  faces), lies where its name says (a plane or the circle r = R) and the group's measure, each
  region's measure and its bounding box are those of the geometry.
If the Gmsh Python API is importable (Debian python3-gmsh), each file is also read back with
it and the number of elements of each physical group and their types compared.

usage: python3 meshes/check.py [FILE.msh ...]   (default: every mesh below; exit 1 on a
failure). Prints a Markdown table (cells, vertices, groups, largest edge ratio of a cell).
"""
import importlib.util
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOL = 1e-9  # relative tolerance of coordinates and measures


def read_msh(path):
    """Physical names, entity -> physical tags, nodes and element blocks of an ASCII MSH 4.1 file."""
    with open(path) as f:
        lines = f.read().split("\n")
    sections, i = {}, 0
    while i < len(lines):
        if lines[i].startswith("$") and not lines[i].startswith("$End"):
            name = lines[i][1:]
            j = lines.index("$End" + name, i)
            sections[name] = lines[i + 1 : j]
            i = j
        i += 1
    msh = {"format": sections["MeshFormat"][0].split()}
    msh["names"] = {}
    for line in sections.get("PhysicalNames", [])[1:]:
        d, tag, name = line.split(maxsplit=2)
        msh["names"][(int(d), int(tag))] = name.strip('"')
    ent = sections["Entities"]
    counts = [int(v) for v in ent[0].split()]
    msh["entity_physicals"], k = {}, 1
    for d in range(4):
        for _ in range(counts[d]):
            v = ent[k].split()
            k += 1
            n_coord = 4 if d == 0 else 7  # tag + point or tag + bounding box
            n_phys = int(v[n_coord])
            msh["entity_physicals"][(d, int(v[0]))] = [int(t) for t in v[n_coord + 1 : n_coord + 1 + n_phys]]
    nodes_sec, msh["nodes"], k = sections["Nodes"], {}, 1
    n_blocks = int(nodes_sec[0].split()[0])
    for _ in range(n_blocks):
        _, _, parametric, n = (int(v) for v in nodes_sec[k].split())
        assert parametric == 0, "parametric nodes are not expected"
        tags = [int(nodes_sec[k + 1 + m]) for m in range(n)]
        for m, tag in enumerate(tags):
            msh["nodes"][tag] = tuple(float(v) for v in nodes_sec[k + 1 + n + m].split())
        k += 1 + 2 * n
    el_sec, msh["blocks"], k = sections["Elements"], [], 1
    n_blocks = int(el_sec[0].split()[0])
    for _ in range(n_blocks):
        d, tag, etype, n = (int(v) for v in el_sec[k].split())
        conn = [[int(v) for v in el_sec[k + 1 + m].split()[1:]] for m in range(n)]
        msh["blocks"].append((d, tag, etype, conn))
        k += 1 + n
    return msh


def sub(a, b):
    return tuple(x - y for x, y in zip(a, b))


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def norm(a):
    return math.sqrt(dot(a, a))


# Gmsh node order: quadrilateral 0-1-2-3 counter-clockwise; hexahedron 0-1-2-3 at zeta = -1
# counter-clockwise seen from +zeta, 4-7 above them. Neighbours of each corner along
# (xi, eta, zeta), and the signs that make them point along +xi, +eta, +zeta.
HEX_REF = [(-1, -1, -1), (1, -1, -1), (1, 1, -1), (-1, 1, -1), (-1, -1, 1), (1, -1, 1), (1, 1, 1), (-1, 1, 1)]
HEX_FACES = [(0, 3, 2, 1), (4, 5, 6, 7), (0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7)]
HEX_EDGES = [(0, 1), (1, 2), (2, 3), (3, 0), (4, 5), (5, 6), (6, 7), (7, 4), (0, 4), (1, 5), (2, 6), (3, 7)]


def hex_corner_jacobians(x):
    dets = []
    for c, ref in enumerate(HEX_REF):
        cols = []
        for axis in range(3):
            other = list(ref)
            other[axis] = -other[axis]
            n = HEX_REF.index(tuple(other))
            cols.append(tuple(-ref[axis] * v for v in sub(x[n], x[c])))
        dets.append(dot(cols[0], cross(cols[1], cols[2])))
    return dets


def hex_volume(x):
    """Exact volume of a trilinear hexahedron (2 x 2 x 2 Gauss points)."""
    g, vol = 1 / math.sqrt(3), 0.0
    for p in ((a, b, c) for a in (-g, g) for b in (-g, g) for c in (-g, g)):
        jac = []
        for axis in range(3):
            col = [0.0, 0.0, 0.0]
            for n, ref in enumerate(HEX_REF):
                dN = ref[axis] / 8
                for k in range(3):
                    if k != axis:
                        dN *= 1 + ref[k] * p[k]
                col = [col[m] + dN * x[n][m] for m in range(3)]
            jac.append(col)
        vol += dot(jac[0], cross(jac[1], jac[2]))
    return vol


def quad_area(x):
    """Area of a planar quadrilateral (half the cross product of its diagonals)."""
    return 0.5 * norm(cross(sub(x[2], x[0]), sub(x[3], x[1])))


def quad_corner_jacobians(x):
    return [cross(sub(x[(c + 1) % 4], x[c]), sub(x[(c + 3) % 4], x[c]))[2] for c in range(4)]


def analyse(path, spec):
    """Check one mesh against its spec; returns (list of failures, table row)."""
    fails = []
    msh = read_msh(path)
    dim = spec["dim"]
    if msh["format"][:2] != ["4.1", "0"]:
        fails.append(f"format {msh['format']}, expected ASCII 4.1")
    cell_type, face_type = (5, 3) if dim == 3 else (3, 1)
    names = {name: (d, tag) for (d, tag), name in msh["names"].items()}
    expected = {n: dim for n in spec["regions"]} | {n: dim - 1 for n in spec["boundaries"]}
    if set(names) != set(expected):
        fails.append(f"physical groups {sorted(names)}, expected {sorted(expected)}")
    for n, (d, _) in names.items():
        if n in expected and d != expected[n]:
            fails.append(f"group '{n}' has dimension {d}, expected {expected[n]}")
    if len({tag for (_, tag) in names.values()}) != len(names):
        fails.append("two physical groups share a tag")
    for key, phys in msh["entity_physicals"].items():
        if len(phys) > 1:
            fails.append(f"entity {key} is in {len(phys)} physical groups")
        if key[0] == 0 and phys:
            fails.append(f"point {key[1]} is in a physical group")
    by_tag = {(d, tag): n for n, (d, tag) in names.items()}
    X = msh["nodes"]
    cells, faces_of = {}, {}  # region -> list of cells; boundary group -> list of faces
    for d, etag, etype, conn in msh["blocks"]:
        phys = msh["entity_physicals"].get((d, etag), [])
        if len(phys) != 1:
            fails.append(f"elements of entity ({d}, {etag}) are in {len(phys)} physical groups")
            continue
        name = by_tag[(d, phys[0])]
        if d == dim and etype == cell_type:
            cells.setdefault(name, []).extend(conn)
        elif d == dim - 1 and etype == face_type:
            faces_of.setdefault(name, []).extend(conn)
        else:
            fails.append(f"element type {etype} on an entity of dimension {d}")
    # cells: orientation, measure, edge ratio, faces
    face_count, ordered, measure, worst_ratio = {}, {}, {}, 0.0  # ordered: a face's nodes in cyclic order
    for region, conn in cells.items():
        measure[region] = 0.0
        for c in conn:
            x = [X[n] for n in c]
            if dim == 3:
                jac, meas = hex_corner_jacobians(x), hex_volume(x)
                faces = [tuple(c[i] for i in f) for f in HEX_FACES]
                edges = [norm(sub(x[a], x[b])) for a, b in HEX_EDGES]
            else:
                jac, meas = quad_corner_jacobians(x), quad_area(x)
                faces = [(c[i], c[(i + 1) % 4]) for i in range(4)]
                edges = [norm(sub(x[(i + 1) % 4], x[i])) for i in range(4)]
            if min(jac) <= 0:
                fails.append(f"cell {c} of '{region}' has a non-positive Jacobian at a corner")
            measure[region] += meas
            worst_ratio = max(worst_ratio, max(edges) / min(edges))
            for f in faces:
                key = frozenset(f)
                face_count[key] = face_count.get(key, 0) + 1
                ordered[key] = f
    if any(v > 2 for v in face_count.values()):
        fails.append("a face is shared by more than two cells")
    boundary = [f for f, v in face_count.items() if v == 1]

    def face_measure(f):
        x = [X[n] for n in f]
        return quad_area(x) if dim == 3 else norm(sub(x[1], x[0]))

    total_boundary = sum(face_measure(ordered[f]) for f in boundary)
    checks = [("boundary", total_boundary, spec["boundary_measure"])]
    for region in spec["regions"]:
        checks.append((f"region '{region}'", measure.get(region, 0.0), spec["regions"][region][0]))
        nodes = {n for c in cells.get(region, []) for n in c}
        lo = [min(X[n][k] for n in nodes) for k in range(3)] if nodes else None
        hi = [max(X[n][k] for n in nodes) for k in range(3)] if nodes else None
        want_lo, want_hi = spec["regions"][region][1]
        scale = max(abs(v) for v in want_lo + want_hi)
        if lo is None or any(abs(a - b) > TOL * scale for a, b in zip(lo + hi, want_lo + want_hi)):
            fails.append(f"region '{region}' spans {lo}..{hi}, expected {want_lo}..{want_hi}")
    boundary_set = set(boundary)
    for group, (where, want) in spec["boundaries"].items():
        faces = faces_of.get(group, [])
        if not faces:
            fails.append(f"boundary group '{group}' has no faces")
        if any(frozenset(f) not in boundary_set for f in faces):
            fails.append(f"boundary group '{group}' holds a face that is not on the boundary")
        if any(not where(X[n]) for f in faces for n in f):
            fails.append(f"boundary group '{group}' holds a node off its surface")
        checks.append((f"group '{group}'", sum(face_measure(f) for f in faces), want))
    for what, got, want in checks:
        if abs(got - want) > TOL * abs(want):
            fails.append(f"{what}: measure {got!r}, expected {want!r}")
    used = {n for conn in cells.values() for c in conn for n in c}
    if set(X) != used:
        fails.append(f"{len(set(X) - used)} nodes are not vertices of a cell")
    n_cells = {r: len(c) for r, c in cells.items()}
    fails += gmsh_cross_check(path, n_cells, {g: len(f) for g, f in faces_of.items()}, cell_type, face_type, dim)
    tag = lambda n: names[n][1] if n in names else "?"
    row = (sum(n_cells.values()), len(used), ", ".join(f"{r} = {tag(r)} ({n_cells.get(r, 0)})" for r in spec["regions"]),
           ", ".join(f"{g} = {tag(g)} ({len(faces_of.get(g, []))})" for g in spec["boundaries"]), worst_ratio)
    return fails, row


def gmsh_cross_check(path, n_cells, n_faces, cell_type, face_type, dim):
    """Read the file back with the Gmsh API (if installed) and compare the group sizes."""
    try:
        import gmsh
    except ImportError:
        return []
    fails = []
    gmsh.initialize(["-noenv"], readConfigFiles=False)
    gmsh.option.setNumber("General.Terminal", 0)
    gmsh.open(path)
    for d, tag in gmsh.model.getPhysicalGroups():
        name = gmsh.model.getPhysicalName(d, tag)
        count = 0
        for e in gmsh.model.getEntitiesForPhysicalGroup(d, tag):
            types, tags, _ = gmsh.model.mesh.getElements(d, e)
            if any(t != (cell_type if d == dim else face_type) for t in types):
                fails.append(f"Gmsh API: group '{name}' holds element types {list(types)}")
            count += sum(len(t) for t in tags)
        want = n_cells.get(name) if d == dim else n_faces.get(name)
        if count != want:
            fails.append(f"Gmsh API: group '{name}' has {count} elements, the parser found {want}")
    gmsh.finalize()
    return fails


def plane(axis, value):
    return lambda x: abs(x[axis] - value) <= TOL * 1e-3 + 1e-15


def box(lo, hi):
    return (list(lo), list(hi))


def specs():
    """Expected groups, measures and bounding boxes of each mesh, from the geometry."""
    s = {}
    L, H = 1e-3, 0.5e-3
    s["c1_rectangle"] = dict(dim=2, regions={"pzt": (L * H, box((0, 0, 0), (L, H, 0)))},
                             boundaries={"left": (plane(0, 0), H), "bottom": (plane(1, 0), L),
                                         "right": (plane(0, L), H), "top": (plane(1, H), L)},
                             boundary_measure=2 * (L + H), serves="C1 (2D plane stress, closed form)")
    W, T = 0.1e-3, 1e-3
    s["c2_thickness_column"] = dict(dim=2, regions={"pzt": (W * T, box((0, 0, 0), (W, T, 0)))},
                                    boundaries={"bottom": (plane(1, 0), W), "top": (plane(1, T), W),
                                                "sides": (lambda x, W=W: plane(0, 0)(x) or plane(0, W)(x), 2 * T)},
                                    boundary_measure=2 * (W + T), serves="C2 thickness mode (plane strain)")
    L, W, T = 20e-3, 2e-3, 1e-3
    s["c2_bar31"] = dict(dim=3, regions={"pzt": (L * W * T, box((0, 0, 0), (L, W, T)))},
                         boundaries={"bottom": (plane(2, 0), L * W), "top": (plane(2, T), L * W)},
                         boundary_measure=2 * (L * W + L * T + W * T), serves="C2 31 bar")
    L, A = 20e-3, 1e-3
    s["c2_bar33"] = dict(dim=3, regions={"pzt": (L * A * A, box((0, 0, 0), (L, A, A)))},
                         boundaries={"left": (plane(0, 0), A * A), "right": (plane(0, L), A * A)},
                         boundary_measure=2 * (2 * L * A + A * A), serves="C2 33 bar")
    A, H = 10e-3, 20e-3
    s["c3_cube_quarter"] = dict(dim=3, regions={"pzt": (A * A * H, box((0, 0, 0), (A, A, H)))},
                                boundaries={"bottom": (plane(2, 0), A * A), "top": (plane(2, H), A * A),
                                            "symmetry_x": (plane(0, 0), A * H), "symmetry_y": (plane(1, 0), A * H)},
                                boundary_measure=2 * (A * A + 2 * A * H), serves="C3 cube, quarter (3D sc/oc modes)")
    L, B, Z1, Z2 = 24.53e-3, 6.4e-3, 0.07e-3, 0.335e-3
    layers = {"pzt_lower": (-Z2, -Z1), "shim": (-Z1, Z1), "pzt_upper": (Z1, Z2)}
    s["c4_bimorph_3d"] = dict(dim=3, regions={n: (L * B * (b - a), box((0, 0, a), (L, B, b))) for n, (a, b) in layers.items()},
                              boundaries={"root": (plane(0, 0), B * 2 * Z2), "bottom": (plane(2, -Z2), L * B),
                                          "top": (plane(2, Z2), L * B)},
                              boundary_measure=2 * (L * B + L * 2 * Z2 + B * 2 * Z2), serves="C4 bimorph, 3D")
    s["c4_bimorph_2d"] = dict(dim=2, regions={n: (L * (b - a), box((0, a, 0), (L, b, 0))) for n, (a, b) in layers.items()},
                              boundaries={"root": (plane(0, 0), 2 * Z2), "bottom": (plane(1, -Z2), L),
                                          "top": (plane(1, Z2), L)},
                              boundary_measure=2 * (L + 2 * Z2), serves="C4 bimorph, 2D (x-z plane)")
    R, T, n_arc = 1e-3, 0.1e-3, 4
    n_seg = 2 * n_arc  # straight segments on the quarter circle, equal angles
    area = n_seg * R**2 / 2 * math.sin(math.pi / 2 / n_seg)
    arc = n_seg * 2 * R * math.sin(math.pi / 4 / n_seg)
    R, T = 1e-3, 0.1e-3
    s["c5_disk_axisymmetric"] = dict(dim=2, regions={"pzt": (R * T, box((0, 0, 0), (R, T, 0)))},
                                     boundaries={"bottom": (plane(1, 0), R), "rim": (plane(0, R), T),
                                                 "top": (plane(1, T), R), "axis": (plane(0, 0), T)},
                                     boundary_measure=2 * (R + T), serves="C5 disk, axisymmetric (capacitance, RLC)")
    s["c5_disk_quarter"] = dict(dim=3, regions={"pzt": (area * T, box((0, 0, 0), (R, R, T)))},
                                boundaries={"bottom": (plane(2, 0), area), "top": (plane(2, T), area),
                                            "symmetry_x": (plane(0, 0), R * T), "symmetry_y": (plane(1, 0), R * T),
                                            "edge": (lambda x: abs(math.hypot(x[0], x[1]) - R) <= 1e-12 * R, arc * T)},
                                boundary_measure=2 * area + 2 * R * T + arc * T, serves="C5 disk, quarter (capacitance, RLC)")
    LX, LY, TP, X1, X2, Y1, Y2, TA = 60e-3, 40e-3, 1e-3, 20e-3, 40e-3, 12.5e-3, 27.5e-3, 0.5e-3
    clamped = lambda x: plane(0, 0)(x) or plane(0, LX)(x) or plane(1, 0)(x) or plane(1, LY)(x)
    s["plate_with_patch"] = dict(dim=3, regions={"plate": (LX * LY * TP, box((0, 0, 0), (LX, LY, TP))),
                                                 "patch": ((X2 - X1) * (Y2 - Y1) * TA, box((X1, Y1, TP), (X2, Y2, TP + TA)))},
                                 boundaries={"clamped": (clamped, 2 * (LX + LY) * TP),
                                             "patch_top": (plane(2, TP + TA), (X2 - X1) * (Y2 - Y1))},
                                 boundary_measure=2 * LX * LY + 2 * (LX + LY) * TP + 2 * ((X2 - X1) + (Y2 - Y1)) * TA,
                                 serves="PZT patch on a clamped aluminium plate")
    L, W, T = 0.3, 0.02, 0.002
    s["steel_strip_3d"] = dict(dim=3, regions={"steel": (L * W * T, box((0, 0, 0), (L, W, T)))},
                               boundaries={"root": (plane(0, 0), W * T), "tip": (plane(0, L), W * T)},
                               boundary_measure=2 * (L * W + L * T + W * T),
                               serves="3D steel strip against the beam solver (tip mass, loads)")
    return s


def main():
    all_specs = specs()
    paths = sys.argv[1:] or [os.path.join(HERE, n + ".msh") for n in all_specs]
    ok = True
    print("| mesh | dim | cells | vertices | regions = material id (cells) | boundary groups = boundary id (faces) | max edge ratio | serves |")
    print("|---|---|---|---|---|---|---|---|")
    for path in paths:
        name = os.path.basename(path)[: -len(".msh")]
        spec = all_specs[name]
        fails, (n_cells, n_vertices, regions, groups, ratio) = analyse(path, spec)
        print(f"| `{name}` | {spec['dim']}D | {n_cells} | {n_vertices} | {regions} | {groups} | {ratio:.1f} | {spec['serves']} |")
        for f in fails:
            print(f"FAIL {name}: {f}", file=sys.stderr)
        ok &= not fails
    if importlib.util.find_spec("gmsh"):
        api = "also read back with the Gmsh Python API"
    else:
        api = "Gmsh Python API not found (python3-gmsh): no read-back"
    print(("all checks passed" if ok else "CHECKS FAILED") + f"; {api}", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
