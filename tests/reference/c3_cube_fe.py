#!/usr/bin/python3
"""Independent 3D piezoelectric finite elements for case C3 (PZT-4 cube, ANSYS VM175,
Boucher, Lagier & Maerfeld 1981), written from scratch with numpy/scipy: nothing is shared
with Hamilton (no deal.II, no mesh file, no SLEPc).

Discretization: a structured box of hexahedra with tensor-product Lagrange elements of any
degree p (Gauss-Lobatto support points, (p+1)^3 Gauss points, like deal.II's FE_Q(p) with
QGauss(p+1)); displacement u (3 components) and potential phi per node. Stress-charge form,
IEEE Voigt order (xx, yy, zz, yz, xz, xy; engineering shear strains):
    T = c^E S - e^T E,  D = e S + eps^S E,  E = -grad phi,
    K_uu = int B^T c B,  K_uphi = int B^T e^T G,  K_phiphi = int G^T eps G,  M = int rho N^T N,
    [K_uu  K_uphi; K_uphi^T  -K_phiphi] x = omega^2 [M 0; 0 0] x.
Shift-and-invert Lanczos (scipy eigsh, mode 3 with the semi-definite B) at sigma = (2 pi f0)^2;
the potential is eliminated exactly by the sparse LU of the saddle matrix.

Circuits: short = phi 0 on z = 0 and z = H; open = phi 0 on z = 0, phi on z = H one unknown
(no charge). Models: the quarter 0 <= x, y <= A with u_x = 0 on x = 0, u_y = 0 on y = 0
(c3_cube.prm), or the full cube -A <= x, y <= A, free (every symmetry class).
A mode's electrode charge (short) or electrode voltage (open) marks the breathing modes.

usage: /usr/bin/python3 tests/reference/c3_cube_fe.py [--check HAMILTON PRM OUTDIR | --study]
  default: the quarter on 4 x 4 x 8 quadratic elements (c3_cube.msh and degree) and cubic
           elements on the same mesh (converged), the four breathing frequencies; about 10 s.
  --check: runs HAMILTON on PRM (prm/continuum/c3_cube.prm) into OUTDIR and compares all its
           short- and open-circuit frequencies with this program on the same mesh (relative
           1e-9) and the modes with charge; exits non-zero when they differ (the ctest).
  --study: why the first pair is 2.2 % below the published values: full cube (every symmetry
           class), VM175's own 2 x 2 x 4 meshes (8-node, SOLID5's extra shapes, 20-node),
           material variants and sensitivities, first-order perturbation; 2 min of CPU.
"""
import json
import sys
import time

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as sla
from numpy.polynomial import legendre

EPS0 = 8.854187817e-12
A_HALF = 10e-3   # half side of the cube
HEIGHT = 20e-3
PUBLISHED = dict(sc=(66560.0, 88010.0), oc=(81590.0, 93410.0))  # VM175 / Boucher Table 1

# prm/continuum/c3_cube.prm = continuum.md C3 = VM175's PZT-4 (GPa, C/m^2, relative eps)
VM175 = dict(c11=132, c12=71, c13=73, c33=115, c44=26, c66=30,
             e31=-4.1, e33=14.1, e15=10.5, eps11=804.6, eps33=659.7, rho=7500)


def material_matrices(m):
    c = np.zeros((6, 6))
    c[0, 0] = c[1, 1] = m["c11"]
    c[2, 2] = m["c33"]
    c[0, 1] = c[1, 0] = m["c12"]
    c[0, 2] = c[2, 0] = c[1, 2] = c[2, 1] = m["c13"]
    c[3, 3] = c[4, 4] = m["c44"]
    c[5, 5] = m["c66"]
    c *= 1e9
    e = np.zeros((3, 6))
    e[0, 4] = e[1, 3] = m["e15"]
    e[2, 0] = e[2, 1] = m["e31"]
    e[2, 2] = m["e33"]
    eps = np.diag([m["eps11"], m["eps11"], m["eps33"]]) * EPS0
    return c, e, eps, m["rho"]


def lagrange_1d(p, x):
    """Values and derivatives at x of the degree-p Lagrange basis on [0, 1] with
    Gauss-Lobatto nodes."""
    if p == 1:
        nodes = np.array([0.0, 1.0])
    else:
        inner = np.sort(legendre.Legendre.basis(p).deriv().roots().real)
        nodes = np.concatenate(([0.0], (inner + 1) / 2, [1.0]))
    val = np.ones((p + 1, len(x)))
    der = np.zeros((p + 1, len(x)))
    for i in range(p + 1):
        others = [j for j in range(p + 1) if j != i]
        for j in others:
            val[i] *= (x - nodes[j]) / (nodes[i] - nodes[j])
        for k in others:
            term = np.ones(len(x)) / (nodes[i] - nodes[k])
            for j in others:
                if j != k:
                    term *= (x - nodes[j]) / (nodes[i] - nodes[j])
            der[i] += term
    return val, der


def element_matrices(p, h, mat, extra=False):
    """Element matrices of one box element of sides h = (hx, hy, hz), local dof 4 n + c.
    extra = "wilson": Wilson's incompatible displacement modes 1 - xi^2, 1 - eta^2, 1 - zeta^2 (xi in
    [-1, 1]) per component, massless and condensed in the element (what ANSYS's SOLID5
    does by default: "extra displacement shapes"); extra = "serendipity", p = 2: the 20-node
    hexahedron (ANSYS's SOLID226), potential included."""
    c, e, eps, rho = material_matrices(mat)
    g, w = legendre.leggauss(p + 1)
    g = (g + 1) / 2
    w = w / 2
    val, der = lagrange_1d(p, g)
    n1 = p + 1
    # local node (i, j, k), index i + n1 (j + n1 k); quadrature point (a, b, q)
    N = np.einsum("ia,jb,kq->kjiqba", val, val, val).reshape(n1 ** 3, -1)
    dN = np.stack([np.einsum("ia,jb,kq->kjiqba", der, val, val).reshape(n1 ** 3, -1) / h[0],
                   np.einsum("ia,jb,kq->kjiqba", val, der, val).reshape(n1 ** 3, -1) / h[1],
                   np.einsum("ia,jb,kq->kjiqba", val, val, der).reshape(n1 ** 3, -1) / h[2]])
    W = np.einsum("a,b,q->qba", w, w, w).reshape(-1) * h[0] * h[1] * h[2]
    nn = n1 ** 3
    nq = len(W)
    B = np.zeros((nq, 6, 3 * nn))
    dx, dy, dz = dN[0].T, dN[1].T, dN[2].T  # (nq, nn)
    B[:, 0, 0::3] = dx
    B[:, 1, 1::3] = dy
    B[:, 2, 2::3] = dz
    B[:, 3, 1::3] = dz
    B[:, 3, 2::3] = dy
    B[:, 4, 0::3] = dz
    B[:, 4, 2::3] = dx
    B[:, 5, 0::3] = dy
    B[:, 5, 1::3] = dx
    G = np.transpose(dN, (2, 0, 1))  # (nq, 3, nn)
    Kuu = np.einsum("q,qia,ij,qjb->ab", W, B, c, B)
    Kup = np.einsum("q,qia,ki,qkb->ab", W, B, e, G)
    Kpp = np.einsum("q,qka,kl,qlb->ab", W, G, eps, G)
    Ms = rho * np.einsum("q,aq,bq->ab", W, N, N)
    nd = 4 * nn
    K = np.zeros((nd, nd))
    M = np.zeros((nd, nd))
    ui = np.array([4 * a + comp for a in range(nn) for comp in range(3)])
    pi = np.arange(nn) * 4 + 3
    K[np.ix_(ui, ui)] = Kuu
    K[np.ix_(ui, pi)] = Kup
    K[np.ix_(pi, ui)] = Kup.T
    K[np.ix_(pi, pi)] = -Kpp
    for comp in range(3):
        M[np.ix_(pi - 3 + comp, pi - 3 + comp)] = Ms
    if extra == "wilson":
        # bubble b_d(s) = 4 s (1 - s) in direction d, derivative 4 (1 - 2 s) / h_d; unknowns
        # 3 d + comp (component comp of the bubble in direction d)
        gq = np.stack(np.meshgrid(g, g, g, indexing="ij"), -1).transpose(2, 1, 0, 3).reshape(-1, 3)
        Bb = np.zeros((nq, 6, 9))
        for d in range(3):
            db = 4 * (1 - 2 * gq[:, d]) / h[d]
            for comp in range(3):
                col = 3 * d + comp
                grad = np.zeros((nq, 3))
                grad[:, d] = db
                # strain of u = b_d e_comp: S_ij = (du_i/dx_j + du_j/dx_i) / 2, Voigt
                if comp == 0:
                    Bb[:, 0, col], Bb[:, 4, col], Bb[:, 5, col] = grad[:, 0], grad[:, 2], grad[:, 1]
                elif comp == 1:
                    Bb[:, 1, col], Bb[:, 3, col], Bb[:, 5, col] = grad[:, 1], grad[:, 2], grad[:, 0]
                else:
                    Bb[:, 2, col], Bb[:, 3, col], Bb[:, 4, col] = grad[:, 2], grad[:, 1], grad[:, 0]
        Kbb = np.einsum("q,qia,ij,qjb->ab", W, Bb, c, Bb)
        Krb = np.zeros((nd, 9))
        Krb[ui] = np.einsum("q,qia,ij,qjb->ab", W, B, c, Bb)
        Krb[pi] = np.einsum("q,qka,ki,qib->ab", W, G, e, Bb)
        K = K - Krb @ np.linalg.solve(Kbb, Krb.T)
    if extra == "serendipity":  # p = 2: the 20-node hexahedron (ANSYS's SOLID226)
        Z = serendipity_map()
        Z4 = np.kron(Z, np.eye(4))
        K, M = Z4.T @ K @ Z4, Z4.T @ M @ Z4
    return K, M


def serendipity_map():
    """27 x 27: the values at the 27 Lagrange nodes of the 20-node serendipity function with
    the given corner and mid-edge values (face and body centres get no unknown: zero
    columns). The serendipity function is -1/4 (corners) + 1/2 (edges) of its face at a
    face centre, -1/4 (8 corners) + 1/4 (12 edges) at the body centre."""
    idx = [(i, j, k) for k in range(3) for j in range(3) for i in range(3)]
    num = {n: a for a, n in enumerate(idx)}
    Z = np.zeros((27, 27))
    for a, n in enumerate(idx):
        ones = [d for d in range(3) if n[d] == 1]
        if len(ones) <= 1:
            Z[a, a] = 1.0
            continue
        for b, m in enumerate(idx):
            same = all(m[d] == n[d] for d in range(3) if d not in ones)
            inner = [d for d in ones if m[d] == 1]
            if not same or len(inner) > 1 or (len(ones) == 3 and len(inner) > 1):
                continue
            if len(inner) == 0:
                Z[a, b] = -0.25
            else:
                Z[a, b] = 0.5 if len(ones) == 2 else 0.25
    return Z


def assemble(p, nx, nz, mat, full, extra=False):
    x0 = -A_HALF if full else 0.0
    lx = 2 * A_HALF if full else A_HALF
    h = (lx / nx, lx / nx, HEIGHT / nz)
    Ke, Me = element_matrices(p, h, mat, extra)
    ng = (nx * p + 1, nx * p + 1, nz * p + 1)
    n1 = p + 1
    li, lj, lk = np.meshgrid(np.arange(n1), np.arange(n1), np.arange(n1), indexing="ij")
    li, lj, lk = li.transpose(2, 1, 0).ravel(), lj.transpose(2, 1, 0).ravel(), lk.transpose(2, 1, 0).ravel()
    rows, cols, kv, mv = [], [], [], []
    for ez in range(nz):
        for ey in range(nx):
            for ex in range(nx):
                gn = (ex * p + li) + ng[0] * ((ey * p + lj) + ng[1] * (ez * p + lk))
                dofs = (4 * gn[:, None] + np.arange(4)[None, :]).ravel()
                rows.append(np.repeat(dofs, len(dofs)))
                cols.append(np.tile(dofs, len(dofs)))
                kv.append(Ke.ravel())
                mv.append(Me.ravel())
    ndof = 4 * ng[0] * ng[1] * ng[2]
    r, cidx = np.concatenate(rows), np.concatenate(cols)
    K = sp.csr_matrix((np.concatenate(kv), (r, cidx)), shape=(ndof, ndof))
    M = sp.csr_matrix((np.concatenate(mv), (r, cidx)), shape=(ndof, ndof))
    gx, gy, gz = np.meshgrid(np.arange(ng[0]), np.arange(ng[1]), np.arange(ng[2]), indexing="ij")
    gx, gy, gz = (a.transpose(2, 1, 0).ravel() for a in (gx, gy, gz))
    return K, M, (gx, gy, gz), ng, h, x0


def system(p, nx, nz, mat, circuit, full=False, extra=False):
    """Kr, Mr on the free unknowns, the map T from them to all dofs, is_phi of the free
    unknowns, and K, M, the top electrode's potential dofs, the z translation."""
    K, M, (gx, gy, gz), ng, h, x0 = assemble(p, nx, nz, mat, full, extra)
    nnode = len(gx)
    ndof = 4 * nnode
    fixed = np.zeros(ndof, bool)
    bottom = gz == 0
    top = gz == ng[2] - 1
    fixed[4 * np.where(bottom)[0] + 3] = True
    if circuit == "sc":
        fixed[4 * np.where(top)[0] + 3] = True
    if not full:
        fixed[4 * np.where(gx == 0)[0] + 0] = True
        fixed[4 * np.where(gy == 0)[0] + 1] = True
    top_phi = 4 * np.where(top)[0] + 3
    # T maps reduced unknowns to all dofs; open circuit: top potentials = one unknown
    fixed |= np.asarray(abs(K).sum(axis=1)).ravel() == 0  # serendipity: no face/body centres
    free = np.where(~fixed)[0]
    if circuit == "oc":
        free = np.setdiff1d(free, top_phi)
    nred = len(free) + (1 if circuit == "oc" else 0)
    tr, tc = list(free), list(range(len(free)))
    if circuit == "oc":
        tr += list(top_phi)
        tc += [len(free)] * len(top_phi)
    T = sp.csr_matrix((np.ones(len(tr)), (tr, tc)), shape=(ndof, nred))
    Kr = (T.T @ K @ T).tocsc()
    Mr = (T.T @ M @ T).tocsc()
    is_phi = np.concatenate((free % 4 == 3, np.ones(1 if circuit == "oc" else 0, bool)))
    uz = np.zeros(ndof)
    uz[2::4] = 1.0
    return Kr, Mr, T, is_phi, K, M, top_phi, uz


def solve(p, nx, nz, mat, circuit, full=False, nev=14, f0=60e3, extra=False):
    """Modes near f0: list of (f, charge-or-voltage, z effective mass fraction)."""
    Kr, Mr, T, is_phi, K, M, top_phi, uz = system(p, nx, nz, mat, circuit, full, extra)
    sigma = (2 * np.pi * f0) ** 2
    lu = sla.splu((Kr - sigma * Mr).tocsc())
    OPinv = sla.LinearOperator(Kr.shape, matvec=lu.solve, dtype=float)
    vals, vecs = sla.eigsh(Kr, k=nev, M=Mr, sigma=sigma, OPinv=OPinv, mode="normal",
                           v0=np.ones(Kr.shape[0]), tol=1e-12)
    # ARPACK with the singular B leaves ~1e-7 in the eigenvalues; the Rayleigh quotient of
    # the displacement part with the potential condensed exactly, u^T (K_uu + K_uphi
    # K_phiphi^-1 K_phiu) u / u^T M u, is accurate to the square of the vector's error
    u, ph = np.where(~is_phi)[0], np.where(is_phi)[0]
    Kup = Kr[u][:, ph]
    lu_pp = sla.splu((-Kr[ph][:, ph]).tocsc())
    for j in range(len(vals)):
        xu = vecs[u, j]
        q = Kup.T @ xu
        vals[j] = (xu @ (Kr[u][:, u] @ xu) + q @ lu_pp.solve(q)) / (xu @ (Mr[u][:, u] @ xu))
    order = np.argsort(vals)
    vals, vecs = vals[order], vecs[:, order]
    total_mass = mat["rho"] * (4 if full else 1) * A_HALF ** 2 * HEIGHT
    out = []
    for lam, v in zip(vals, vecs.T):
        x = T @ v
        mnorm = x @ (M @ x)
        x /= np.sqrt(mnorm)
        if circuit == "sc":
            elec = (K @ x)[top_phi].sum()  # charge on the top electrode per unit modal amplitude
        else:
            elec = x[top_phi[0]]
        meff = (x @ (M @ uz)) ** 2 / total_mass
        out.append((np.sqrt(max(lam, 0.0)) / (2 * np.pi), elec, meff))
    return out


def breathing(modes, rel=1e-3):
    """The modes whose electrode charge (voltage) exceeds rel of the largest."""
    big = max(abs(m[1]) for m in modes)
    return [m for m in modes if abs(m[1]) > rel * big]


def pairs(p, nx, nz, mat, full=False):
    """First two breathing frequencies, short and open circuit."""
    res = {}
    for circ in ("sc", "oc"):
        b = [m for m in breathing(solve(p, nx, nz, mat, circ, full)) if m[0] > 1e3]
        res[circ] = (b[0][0], b[1][0])
    return res


def fmt(res):
    pub = PUBLISHED
    return "  ".join("%s %9.1f (%+.2f %%) %9.1f (%+.2f %%)" % (
        c, res[c][0], 100 * (res[c][0] / pub[c][0] - 1), res[c][1], 100 * (res[c][1] / pub[c][1] - 1))
        for c in ("sc", "oc"))


def check(hamilton, prm, outdir):
    """Runs Hamilton on c3_cube.prm and compares every short- and open-circuit frequency
    (rigid mode aside) with this program on the same mesh and element (quarter, 4 x 4 x 8
    hexahedra, degree 2), and which modes carry charge; relative tolerance 1e-9."""
    import shutil
    import subprocess
    shutil.rmtree(outdir, ignore_errors=True)
    subprocess.run([hamilton, prm, "--output-dir", outdir], check=True, stdout=subprocess.DEVNULL)
    with open(outdir + "/results.json") as f:
        modal = json.load(f)["continuum"]["modal"]
    ok = True
    modes = {c: solve(2, 4, 8, VM175, c) for c in ("sc", "oc")}
    for circ in ("sc", "oc"):
        ref = [m for m in modes[circ] if m[0] > 1e3]
        charged = {round(m[0]) for m in breathing(ref)}
        if circ == "sc":
            got = [m["frequency_hz"] for m in modal["modes"] if not m["rigid_body"]]
        else:
            got = [f for f in modal["open_circuit_frequencies_hz"] if f > 1e3]
        for f in got:
            r = min(ref, key=lambda m: abs(m[0] - f))
            d = f / r[0] - 1
            good = abs(d) < 1e-9
            ok &= good
            print("%s: Hamilton %12.4f Hz, independent FE %12.4f Hz, relative %+.1e%s %s"
                  % (circ, f, r[0], d, " (breathing)" if round(r[0]) in charged else "",
                     "ok" if good else "DIFFERENT"))
    # the modes with charge: Hamilton's modal coupling against this program's charge
    coupled = [m["frequency_hz"] for m in modal["modes"]
               if abs(m["electrodes"][0]["modal_coupling_N_per_V"]) > 1e-3]
    top = max(m["frequency_hz"] for m in modal["modes"]) * 1.001
    mine = [m[0] for m in breathing(modes["sc"]) if 1e3 < m[0] < top]
    same = len(coupled) == len(mine) and all(abs(a / b - 1) < 1e-8 for a, b in zip(coupled, mine))
    print("modes with charge: Hamilton %s, independent FE %s %s"
          % (["%.1f" % f for f in coupled], ["%.1f" % f for f in mine], "ok" if same else "DIFFERENT"))
    return ok and same


def first_order_perturbation(p, nx, nz, circuit):
    """What a perturbation method computes to first order: the Rayleigh quotient, with the
    piezoelectric stiffening K_uphi K_phiphi^-1 K_phiu, of the purely elastic (e = 0) mode
    that overlaps most (in M) with each coupled breathing mode. Returns (elastic, first
    order, coupled) frequencies of the two first breathing modes."""
    Kr, Mr, _, is_phi, *_ = system(p, nx, nz, VM175, circuit)
    K0, *_ = system(p, nx, nz, dict(VM175, e31=0.0, e33=0.0, e15=0.0), circuit)
    u, ph = np.where(~is_phi)[0], np.where(is_phi)[0]
    Kuu, Kup, Muu = Kr[u][:, u], Kr[u][:, ph], Mr[u][:, u].tocsc()
    lu_pp = sla.splu((-Kr[ph][:, ph]).tocsc())
    sigma = (2 * np.pi * 60e3) ** 2
    ev, evec = sla.eigsh(K0[u][:, u].tocsc(), k=14, M=Muu, sigma=sigma, v0=np.ones(len(u)))
    lu = sla.splu((Kr - sigma * Mr).tocsc())
    cv, cvec = sla.eigsh(Kr, k=14, M=Mr, sigma=sigma, v0=np.ones(Kr.shape[0]),
                         OPinv=sla.LinearOperator(Kr.shape, matvec=lu.solve, dtype=float))
    charged = [m[0] for m in breathing(solve(p, nx, nz, VM175, circuit)) if m[0] > 1e3][:2]
    out = []
    for fc in charged:
        j = np.argmin(np.abs(np.sqrt(np.abs(cv)) / (2 * np.pi) - fc))
        ov = np.abs(evec.T @ (Muu @ cvec[u, j]))
        x0 = evec[:, np.argmax(ov)]
        q = Kup.T @ x0
        lam1 = (x0 @ (Kuu @ x0) + q @ lu_pp.solve(q)) / (x0 @ (Muu @ x0))
        out.append((np.sqrt(ev[np.argmax(ov)]) / (2 * np.pi), np.sqrt(lam1) / (2 * np.pi), fc))
    return out


def window(p, nx, nz, circuit, extra=False):
    """The modes between 50 and 150 kHz, as VM175 numbers them (MODOPT,LANB,10,50000,150000),
    with '*' on those with charge (voltage)."""
    ms = [m for m in solve(p, nx, nz, VM175, circuit, nev=14, f0=90e3, extra=extra)
          if 50e3 < m[0] < 150e3][:10]
    big = max(abs(m[1]) for m in ms)
    return " ".join("%d:%.0f%s" % (i + 1, m[0], "*" if abs(m[1]) > 1e-3 * big else "")
                    for i, m in enumerate(ms))


def study():
    t = time.time()
    print("Published (VM175 targets = Boucher et al. 1981, Table 1): sc 66560 88010, oc 81590 93410 Hz")
    print("\n1. This program, the quarter (first two breathing modes, deviation from published):")
    print("  degree 2,  4x4x8  (Hamilton's mesh): ", fmt(pairs(2, 4, 8, VM175)))
    print("  degree 3,  4x4x8  (converged):       ", fmt(pairs(3, 4, 8, VM175)))
    print("\n2. Full cube, free, degree 2, 4x4x4 (every symmetry class): modes with charge < 100 kHz")
    for circ in ("sc", "oc"):
        ms = solve(2, 4, 4, VM175, circ, full=True, nev=40, f0=70e3)
        print("  %s:" % circ, ", ".join("%.0f" % m[0] for m in breathing(ms) if 1e3 < m[0] < 100e3),
              "(of %d modes in %.0f-%.0f Hz)" % (sum(m[0] > 1e3 for m in ms), min(m[0] for m in ms if m[0] > 1e3),
                                                  max(m[0] for m in ms)))
    print("\n3. VM175's own model: the quarter on 2 x 2 x 4 elements; modes numbered in 50-150 kHz,")
    print("   VM175 takes sc modes 2 and 5, oc modes 4 and 8 ('*' = with charge):")
    for label, p, n, extra in (("linear (8-node)", 1, 2, False), ("linear + extra shapes (SOLID5)", 1, 2, "wilson"),
                               ("serendipity (20-node, SOLID226)", 2, 2, "serendipity"),
                               ("quadratic (27-node)", 2, 2, False), ("degree 3, 4x4x8 (converged)", 3, 4, False)):
        for circ in ("sc", "oc"):
            print("  %-31s %s: %s" % (label, circ, window(p, n, 2 * n, circ, extra)))
    print("\n4. Material variants (degree 2, 4x4x8):")
    variants = [
        ("c3_cube.prm = VM175", VM175),
        ("c44 <-> c66 (26 <-> 30 GPa)", dict(VM175, c44=30, c66=26)),
        ("c66 = (c11 - c12)/2", dict(VM175, c66=30.5)),
        ("rho = 7600", dict(VM175, rho=7600)),
        ("Berlincourt PZT-4 (139/77.8/74.3/115/25.6/30.6 GPa, -5.2/15.1/12.7, 730/635)",
         dict(c11=139, c12=77.8, c13=74.3, c33=115, c44=25.6, c66=30.6, e31=-5.2, e33=15.1, e15=12.7,
              eps11=730, eps33=635, rho=7500)),
    ]
    for label, m in variants:
        print("  %-28s %s" % (label[:28], fmt(pairs(2, 4, 8, m))) + ("\n    (%s)" % label if len(label) > 28 else ""))
    print("  sensitivities d ln f / d ln x of (sc1, sc2, oc1, oc2):")
    base = pairs(2, 4, 8, VM175)
    for k in ("c11", "c12", "c13", "c33", "c44", "c66", "e31", "e33", "e15", "eps11", "eps33"):
        r = pairs(2, 4, 8, dict(VM175, **{k: VM175[k] * 1.01}))
        print("    %-6s" % k, " ".join("%+.3f" % (100 * (r[c][i] / base[c][i] - 1))
                                     for c in ("sc", "oc") for i in range(2)))
    print("\n5. First-order perturbation (elastic mode's Rayleigh quotient with the piezoelectric")
    print("   stiffening), degree 2, 4x4x8: elastic -> first order (vs coupled):")
    for circ in ("sc", "oc"):
        for i, (f0, f1, fc) in enumerate(first_order_perturbation(2, 4, 8, circ)):
            print("  %s %d: %8.0f -> %8.0f Hz (%+.2f %% vs coupled %.0f; published %.0f, %+.2f %%)"
                  % (circ, i + 1, f0, f1, 100 * (f1 / fc - 1), fc, PUBLISHED[circ][i],
                     100 * (PUBLISHED[circ][i] / fc - 1)))
    print("(%.0f s)" % (time.time() - t))


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--check":
        sys.exit(0 if check(*sys.argv[2:]) else 1)
    if len(sys.argv) > 1 and sys.argv[1] == "--study":
        study()
    else:
        print("Quarter, degree 2, 4x4x8 (c3_cube.prm):", fmt(pairs(2, 4, 8, VM175)))
        print("Quarter, degree 3, 4x4x8 (converged):   ", fmt(pairs(3, 4, 8, VM175)))
