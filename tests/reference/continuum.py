#!/usr/bin/python3
"""Independent values of the piezoelectric continuum cases C1, C2 and C5 of
doc/validation-data.md (sympy for C1, mpmath at 30 digits for the rest), derived
from the material tables there and compared with the numbers that file states.

* C1, PZT-4 (Parton) rectangle in plane stress, poled +y: the material axes are
  1 = x, 3 = y and 2 = z (out of plane), so sigma_zz = 0 eliminates S2 and the reduced
  constants are c11 - c12^2/c11, c13 - c12 c13/c11, c33 - c13^2/c11, e31 (1 - c12/c11),
  e33 - c13 e31/c11, eps33 + e31^2/c11 (transverse isotropy: 1 and 2 are alike), with c44,
  e15, eps11 for the in-plane shear and D_x. u_x, u_y, phi are general quadratic
  polynomials (18 coefficients); sympy solves, in exact rationals, equilibrium, Gauss's law,
  t_x = sigma1 y, t_y = 0, D_x = 0 on x = L; u_x = 0, t_y = 0, D_x = 0 on x = 0;
  u_x = 0, t_y = 0, D_y = 0 on y = 0; zero traction and charge on y = H; u_y = phi = 0 at
  the origin. The solution is unique; a second derivation by hand (sigma_x = sigma1 y,
  sigma_y = tau = 0, D = 0, the 3 x 3 constitutive solve and integration) gives the same.
* The reductions of PZT-5H: the 2D plane-stress constants (continuum.md formulas, stress-
  charge set) and the beam (uniaxial stress sigma_yy = sigma_zz = 0) constants 1/s11^E,
  d31/s11^E, eps33^T - d31^2/s11^E from the strain-charge set, and the same beam constants
  reached from the stress-charge set by a second elimination (S3 from sigma_3 = 0); the two
  tables are checked against each other (c^E = (s^E)^-1, e = d c^E, eps^S = eps^T - d c^E d^T).
* C2 thickness mode (laterally clamped, stress-charge set): c33^D = c33^E + e33^2/eps33^S,
  k_t^2 = e33^2/(c33^D eps33^S), f_a = v^D/(2t), f_r from k_t^2 sin X = X cos X,
  X = pi f t/v^D (the zero of the impedance 1 - k_t^2 tan X/X); overtones in the third branch.
  The plane-strain column of meshes/c2_thickness_column.msh (rollers on its sides) is this
  1D problem exactly.
* C2 31 bar (strain-charge set): f_r = 1/(2L sqrt(rho s11^E)), k31^2 = d31^2/(s11^E eps33^T),
  f_a from the zero of the admittance 1 + K tan W/W, K = k31^2/(1 - k31^2), W = (pi/2) f/f_r.
* C2 33 bar (strain-charge set): k33^2 = d33^2/(s33^E eps33^T), f_a = 1/(2L sqrt(rho s33^D)),
  s33^D = s33^E (1 - k33^2), f_r from k33^2 sin X = X cos X, X = (pi/2) f/f_a, which is
  k33^2 = (pi/2)(f_r/f_a) tan((pi/2)(f_a - f_r)/f_a).
* Lateral inertia of the 3D bars, an estimate (not a closed form): the Rayleigh-Love rod,
  f = f_1D/sqrt(1 + (pi/L)^2 r^2), r^2 the section's second moment weighted by the squared
  lateral strain ratios (-s12/s11, -s13/s11 at E3 = 0 for the 31 bar's f_r; -s13^D/s33^D at
  D3 = 0 for the 33 bar's f_a), over its area.
* C5: free capacitance eps33^T pi a^2/t (thin disk, all stresses zero under a uniform field)
  with pi and with the deck's 3.1415; series RLC step response
  V_C = 1 - exp(-D t)(cos B t + D/B sin B t), D = R/(2L), B = sqrt(1/(L C) - D^2).

Every value is printed with the value continuum.md states and whether it agrees, i.e.
differs by at most half a unit of the last digit given there. Writes nothing.

usage: python3 tests/reference/continuum.py        (about 2 s)
"""
import mpmath as mp
import sympy as sp

mp.mp.dps = 30
EPS0 = "8.854187817e-12"

# continuum.md, "Material sets": stress-charge c^E (GPa), e (C/m^2), eps^S/eps0, rho
STRESS_CHARGE = {
    "PZT-5A": dict(c11="120.346", c12="75.1791", c13="75.0901", c33="110.867", c44="21.0526", c66="22.5734",
                   e31="-5.35116", e33="15.7835", e15="12.2947", eps11="919.1", eps33="826.6", rho="7750"),
    "PZT-5H": dict(c11="127.205", c12="80.2122", c13="84.6702", c33="117.436", c44="22.9885", c66="23.4742",
                   e31="-6.62281", e33="23.2403", e15="17.0345", eps11="1704.4", eps33="1433.6", rho="7500"),
    "PZT-4 (Parton)": dict(c11="139", c12="77.8", c13="74.3", c33="115", c44="25.6", c66="30.6",
                           e31="-5.2", e33="15.1", e15="12.7", eps11="728.5", eps33="634.7"),
}
# strain-charge s^E (1e-12/Pa), d (pC/N), eps^T/eps0
STRAIN_CHARGE = {
    "PZT-5A": dict(s11="16.4", s12="-5.74", s13="-7.22", s33="18.8", s44="47.5", s66="44.3",
                   d31="-171", d33="374", d15="584", eps11="1730", eps33="1700", rho="7750"),
    "PZT-5H": dict(s11="16.5", s12="-4.78", s13="-8.45", s33="20.7", s44="43.5", s66="42.6",
                   d31="-274", d33="593", d15="741", eps11="3130", eps33="3400", rho="7500"),
}

ROWS = []  # (section, quantity, value, unit, documented string or None)


def row(section, quantity, value, unit, documented=None):
    ROWS.append((section, quantity, value, unit, documented))


def stress_charge(name, num=mp.mpf):
    """SI constants of a stress-charge set (num = mp.mpf or sympy.Rational)."""
    m = STRESS_CHARGE[name]
    out = {k: num(m[k]) * num("1e9") for k in ("c11", "c12", "c13", "c33", "c44", "c66")}
    out.update({k: num(m[k]) for k in ("e31", "e33", "e15")})
    out.update({k: num(m[k]) * num(EPS0) for k in ("eps11", "eps33")})
    if "rho" in m:
        out["rho"] = num(m["rho"])
    return out


def strain_charge(name):
    m = STRAIN_CHARGE[name]
    out = {k: mp.mpf(m[k]) * mp.mpf("1e-12") for k in ("s11", "s12", "s13", "s33", "s44", "s66", "d31", "d33", "d15")}
    out.update({k: mp.mpf(m[k]) * mp.mpf(EPS0) for k in ("eps11", "eps33")})
    out["rho"] = mp.mpf(m["rho"])
    return out


def plane_stress(m):
    """Reduced constants for sigma = 0 along a transverse axis (continuum.md formulas)."""
    c11, c12, c13, c33, e31, e33 = m["c11"], m["c12"], m["c13"], m["c33"], m["e31"], m["e33"]
    return dict(c11=c11 - c12**2 / c11, c13=c13 - c12 * c13 / c11, c33=c33 - c13**2 / c11, c55=m["c44"],
                e31=e31 * (1 - c12 / c11), e33=e33 - c13 * e31 / c11, eps33=m["eps33"] + e31**2 / c11)


def c1(eps33=None):
    """C1: the exact quadratic solution, by sympy (general quadratics) and by hand.
    eps33: an absolute eps33^S (F/m) in place of the table's 634.7 eps0."""
    m = stress_charge("PZT-4 (Parton)", sp.Rational)
    if eps33 is not None:
        m["eps33"] = sp.Rational(eps33)
    r = plane_stress(m)
    if eps33 is None:
        for k, unit, scale in (("c11", "GPa", "1e-9"), ("c13", "GPa", "1e-9"), ("c33", "GPa", "1e-9"),
                               ("c55", "GPa", "1e-9"), ("e31", "C/m^2", 1), ("e33", "C/m^2", 1), ("eps33", "nF/m", "1e9")):
            row("C1 plane stress (x = 1, y = 3, z = 2)", f"reduced {k}", mp.mpf(sp.N(r[k] * sp.Rational(scale), 40)), unit)
    L, H, s1 = sp.Rational("1e-3"), sp.Rational("0.5e-3"), sp.Rational(-20) * 10**9
    x, y = sp.symbols("x y")
    monomials = [1, x, y, x**2, x * y, y**2]
    coef = sp.symbols("a0:18")
    ux, uy, phi = (sum(c * q for c, q in zip(coef[6 * k : 6 * k + 6], monomials)) for k in range(3))
    ex, ey, gxy = sp.diff(ux, x), sp.diff(uy, y), sp.diff(ux, y) + sp.diff(uy, x)
    Ex, Ey = -sp.diff(phi, x), -sp.diff(phi, y)
    sx = r["c11"] * ex + r["c13"] * ey - r["e31"] * Ey
    sy = r["c13"] * ex + r["c33"] * ey - r["e33"] * Ey
    txy = m["c44"] * gxy - m["e15"] * Ex
    Dx = m["e15"] * gxy + m["eps11"] * Ex
    Dy = r["e31"] * ex + r["e33"] * ey + r["eps33"] * Ey
    eqs = [sp.diff(sx, x) + sp.diff(txy, y), sp.diff(txy, x) + sp.diff(sy, y), sp.diff(Dx, x) + sp.diff(Dy, y)]
    edges = [(x, L, [sx - s1 * y, txy, Dx]), (x, 0, [ux, txy, Dx]), (y, 0, [ux, sy, Dy]), (y, H, [sy, txy, Dy])]
    for var, value, conditions in edges:
        other = y if var == x else x
        for cond in conditions:
            eqs += sp.Poly(sp.expand(cond.subs(var, value)), other).all_coeffs()
    eqs += [uy.subs({x: 0, y: 0}), phi.subs({x: 0, y: 0})]
    sol = sp.solve([e for e in eqs if e != 0], coef, dict=True)
    assert len(sol) == 1 and len(sol[0]) == 18, "the quadratic solution is not unique"
    corner = {x: L, y: H}
    values = dict(ux=ux.subs(sol[0]).subs(corner), uy=uy.subs(sol[0]).subs(corner), phi=phi.subs(sol[0]).subs(corner),
                  sx=sx.subs(sol[0]).subs(corner), Ey=Ey.subs(sol[0]).subs(corner))
    # by hand: sigma_y = tau = D = 0, so [c11 c13 -e31; c13 c33 -e33; e31 e33 eps33] (a, b, g) = (s1, 0, 0)
    # for eps_x = a y, eps_y = b y, E_y = g y; u_x = a x y, u_y = b y^2/2 - a x^2/2, phi = -g y^2/2.
    A = sp.Matrix([[r["c11"], r["c13"], -r["e31"]], [r["c13"], r["c33"], -r["e33"]], [r["e31"], r["e33"], r["eps33"]]])
    a, b, g = A.solve(sp.Matrix([s1, 0, 0]))
    hand = dict(ux=a * L * H, uy=b * H**2 / 2 - a * L**2 / 2, phi=-g * H**2 / 2, sx=s1 * H, Ey=g * H)
    assert all(sp.simplify(values[k] - hand[k]) == 0 for k in hand), "sympy and the hand derivation differ"
    sec = "C1 corner (L, H), PZT-4 Parton" + (f", eps33^S = {eps33} F/m" if eps33 else ", eps33^S = 634.7 eps0")
    row(sec, "u_x", mp.mpf(sp.N(values["ux"] * 10**6, 40)), "um", "-0.109534")
    row(sec, "u_y", mp.mpf(sp.N(values["uy"] * 10**6, 40)), "um", "0.114931")
    row(sec, "phi", mp.mpf(sp.N(values["phi"], 40)), "V", "27.3777")
    row(sec, "sigma_x", mp.mpf(sp.N(values["sx"] / 10**6, 40)), "MPa", "-10.000")
    row(sec, "E_y", mp.mpf(sp.N(values["Ey"] / 1000, 40)), "V/mm", "-109.511")


def reductions():
    """PZT-5A/5H: the two tables against each other; PZT-5H: 2D plane stress, the beam constants."""
    for name in ("PZT-5A", "PZT-5H"):
        s = strain_charge(name)
        S = mp.matrix([[s["s11"], s["s12"], s["s13"]], [s["s12"], s["s11"], s["s13"]], [s["s13"], s["s13"], s["s33"]]])
        C = S**-1
        d = mp.matrix([[s["d31"], s["d31"], s["d33"]]])
        e = d * C
        eps_S = s["eps33"] - (d * C * d.T)[0, 0]
        converted = dict(c11=C[0, 0], c12=C[0, 1], c13=C[0, 2], c33=C[2, 2], c44=1 / s["s44"], c66=1 / s["s66"],
                         e31=e[0, 0], e33=e[0, 2], e15=s["d15"] / s["s44"], eps11=s["eps11"] - s["d15"] ** 2 / s["s44"],
                         eps33=eps_S)
        sec = f"{name}: strain-charge converted vs the stress-charge table"
        for k, v in converted.items():
            scale, unit = (mp.mpf("1e-9"), "GPa") if k[0] == "c" else ((1 / mp.mpf(EPS0), "eps0") if k[:3] == "eps" else (1, "C/m^2"))
            row(sec, k, v * scale, unit, STRESS_CHARGE[name][k])
    m, s = stress_charge("PZT-5H"), strain_charge("PZT-5H")
    r = plane_stress(m)
    sec = "PZT-5H 2D plane stress (stress-charge set)"
    for k, unit, scale in (("c11", "GPa", 1e-9), ("c13", "GPa", 1e-9), ("c33", "GPa", 1e-9), ("c55", "GPa", 1e-9),
                           ("e31", "C/m^2", 1), ("e33", "C/m^2", 1), ("eps33", "nF/m", 1e9)):
        row(sec, f"reduced {k}", r[k] * scale, unit)
    sec = "PZT-5H beam constants (sigma_yy = sigma_zz = 0)"
    row(sec, "1/s11^E (strain-charge)", 1 / s["s11"] / 10**9, "GPa", "60.606")
    row(sec, "d31/s11^E (strain-charge)", s["d31"] / s["s11"], "C/m^2", "-16.606")
    row(sec, "eps33^T - d31^2/s11^E (strain-charge)", (s["eps33"] - s["d31"] ** 2 / s["s11"]) * 10**9, "nF/m", "25.554")
    # the same from the 2D plane-stress constants, eliminating S3 with sigma_3 = 0 as well
    row(sec, "c11 - c13^2/c33 (reduced stress-charge)", (r["c11"] - r["c13"] ** 2 / r["c33"]) / 10**9, "GPa", "60.606")
    row(sec, "e31 - c13 e33/c33 (reduced stress-charge)", r["e31"] - r["c13"] * r["e33"] / r["c33"], "C/m^2", "-16.606")
    row(sec, "eps33 + e33^2/c33 (reduced stress-charge)", (r["eps33"] + r["e33"] ** 2 / r["c33"]) * 10**9, "nF/m", "25.554")


def root(f, lo, hi):
    """The root of f in (lo, hi), where f changes sign (Anderson-Bjorck bracketing)."""
    lo, hi = mp.mpf(lo), mp.mpf(hi)
    assert f(lo) * f(hi) < 0, "no sign change in the bracket"
    x = mp.findroot(f, (lo, hi), solver="anderson")
    assert lo < x < hi and abs(f(x)) < mp.mpf("1e-25"), "root outside the bracket"
    return x


def c2():
    documented = {"PZT-5A": ("1.93404", "2.16202", "0.4847", "6.4168", "6.4861", "7.319e-6"),
                  "PZT-5H": ("2.02949", "2.30931", "0.5157", None, None, "1.2693e-5")}
    t = mp.mpf("1e-3")
    for name in ("PZT-5A", "PZT-5H"):
        m = stress_charge(name)
        c33D = m["c33"] + m["e33"] ** 2 / m["eps33"]
        kt2 = m["e33"] ** 2 / (c33D * m["eps33"])
        vD = mp.sqrt(c33D / m["rho"])
        g = lambda X: kt2 * mp.sin(X) - X * mp.cos(X)
        X1, X3 = root(g, "1e-6", mp.pi / 2), root(g, mp.pi, 3 * mp.pi / 2)
        f = lambda X: X * vD / (mp.pi * t) / 10**6
        doc = documented[name]
        sec = f"C2 thickness mode, {name}, t = 1 mm"
        row(sec, "c33^D", c33D / 10**9, "GPa")
        row(sec, "f_r (short circuit)", f(X1), "MHz", doc[0])
        row(sec, "f_a (open circuit)", f(mp.pi / 2), "MHz", doc[1])
        row(sec, "k_t", mp.sqrt(kt2), "", doc[2])
        row(sec, "f_r, third overtone", f(X3), "MHz", doc[3])
        row(sec, "f_a, third overtone = 3 f_a", f(3 * mp.pi / 2), "MHz", doc[4])
        row(sec, "even mode 2 f_a (no charge, in both spectra)", f(mp.pi), "MHz")
        row(sec, "clamped capacitance eps33^S/t", m["eps33"] / t, "F/m^2", doc[5])
    L = mp.mpf("20e-3")
    documented = {"PZT-5A": ("70.124", "73.747", "0.3442", "92.101", "68.691", "0.7031"),
                  "PZT-5H": ("71.067", "75.854", None, "96.124", "67.003", None)}
    for name in ("PZT-5A", "PZT-5H"):
        s, doc = strain_charge(name), documented[name]
        fr = 1 / (2 * L * mp.sqrt(s["rho"] * s["s11"]))
        k2 = s["d31"] ** 2 / (s["s11"] * s["eps33"])
        K = k2 / (1 - k2)
        W = root(lambda W: W * mp.cos(W) + K * mp.sin(W), mp.pi / 2, mp.pi)
        fa = W / (mp.pi / 2) * fr
        sec = f"C2 31 bar, {name}, L = 20 mm"
        row(sec, "f_r = 1/(2L sqrt(rho s11^E))", fr / 1000, "kHz", doc[0])
        row(sec, "f_a", fa / 1000, "kHz", doc[1])
        row(sec, "k31", mp.sqrt(k2), "", doc[2])
        # lateral inertia of the 20 x 2 x 1 mm bar (Rayleigh-Love rod, short circuit: E3 = 0)
        r2 = ((s["s12"] / s["s11"]) ** 2 * mp.mpf("2e-3") ** 2 + (s["s13"] / s["s11"]) ** 2 * mp.mpf("1e-3") ** 2) / 12
        row(sec, "f_r with lateral inertia, 2 x 1 mm (Love estimate)", fr / mp.sqrt(1 + (mp.pi / L) ** 2 * r2) / 1000, "kHz")
        relation = (mp.pi / 2) * (fa / fr) * mp.tan((mp.pi / 2) * (fa - fr) / fr)
        assert abs(relation - K) < mp.mpf("1e-25"), "the IEEE 176 relation of the 31 bar does not hold"
        k2 = s["d33"] ** 2 / (s["s33"] * s["eps33"])
        fa = 1 / (2 * L * mp.sqrt(s["rho"] * s["s33"] * (1 - k2)))
        X = root(lambda X: k2 * mp.sin(X) - X * mp.cos(X), "1e-6", mp.pi / 2)
        fr = X / (mp.pi / 2) * fa
        relation = (mp.pi / 2) * (fr / fa) * mp.tan((mp.pi / 2) * (fa - fr) / fa)
        assert abs(relation - k2) < mp.mpf("1e-25"), "the IEEE 176 relation of the 33 bar does not hold"
        sec = f"C2 33 bar, {name}, L = 20 mm"
        row(sec, "f_a = 1/(2L sqrt(rho s33^E (1 - k33^2)))", fa / 1000, "kHz", doc[3])
        row(sec, "f_r (k33^2 = (pi/2)(f_r/f_a) tan(...))", fr / 1000, "kHz", doc[4])
        row(sec, "k33", mp.sqrt(k2), "", doc[5])
        # lateral inertia of the 1 x 1 mm section (Rayleigh-Love rod, open circuit: D3 = 0, s^D)
        nu = -(s["s13"] - s["d31"] * s["d33"] / s["eps33"]) / (s["s33"] * (1 - k2))
        r2 = nu**2 * 2 * mp.mpf("1e-3") ** 2 / 12
        row(sec, "f_a with lateral inertia, 1 x 1 mm (Love estimate)", fa / mp.sqrt(1 + (mp.pi / L) ** 2 * r2) / 1000, "kHz")
        row(sec, "1/(2L sqrt(rho s33^E)) (not f_r)", 1 / (2 * L * mp.sqrt(s["rho"] * s["s33"])) / 1000, "kHz")


def c5():
    s = strain_charge("PZT-5A")
    a, t = mp.mpf("1e-3"), mp.mpf("0.1e-3")
    R, L = mp.mpf(3000), mp.mpf(15)
    D = R / (2 * L)
    times = ("0.18", "0.40", "0.88", "1.30", "1.86")
    documented = ("1.5201", "0.9726", "1.4829", "1.8437", "1.8273")
    variants = (("pi", mp.pi, 1), ("the deck's 3.1415", mp.mpf("3.1415"), 1),
                ("3.1415 and eps0 = 8.854e-12", mp.mpf("3.1415"), mp.mpf("8.854e-12") / mp.mpf(EPS0)))
    for label, pi, eps_scale in variants:
        C = s["eps33"] * eps_scale * pi * a**2 / t
        B = mp.sqrt(1 / (L * C) - D**2)
        sec = f"C5 PZT-5A disk, with {label}"
        row(sec, "C = eps33^T pi a^2/t", C, "F", "4.7285e-10")
        row(sec, "D = R/(2L)", D, "1/s", "100")
        row(sec, "B = sqrt(1/(L C) - D^2)", B, "rad/s", "11873.4")
        for time, doc in zip(times, documented):
            tt = mp.mpf(time) / 1000
            V = 1 - mp.exp(-D * tt) * (mp.cos(B * tt) + D / B * mp.sin(B * tt))
            row(sec, f"V_C({time} ms)", V, "V", doc)


def agrees(value, documented):
    """|value - documented| <= half a unit of the documented value's last digit."""
    mantissa = documented.lower().split("e")[0]
    exponent = int(documented.lower().split("e")[1]) if "e" in documented.lower() else 0
    decimals = len(mantissa.split(".")[1]) if "." in mantissa else 0
    return abs(value - mp.mpf(documented)) <= mp.mpf(5) * mp.mpf(10) ** (exponent - decimals - 1) * (1 + mp.mpf("1e-20"))


def main():
    c1()
    c1("5.62e-9")  # 634.7 eps0 = 5.6197e-9 F/m: the table's value is 5.62e-9/8.854e-12 rounded
    reductions()
    c2()
    c5()
    section, n_doc, n_ok = None, 0, 0
    for sec, quantity, value, unit, documented in ROWS:
        if sec != section:
            section = sec
            print(f"\n{sec}\n  {'quantity':48s} {'computed':>20s} {'unit':6s} {'continuum.md':>12s}  ")
        verdict = ""
        if documented is not None:
            ok = agrees(value, documented)
            n_doc, n_ok = n_doc + 1, n_ok + ok
            rel = (value - mp.mpf(documented)) / mp.mpf(documented)
            verdict = f"{'agrees' if ok else 'DIFFERS'} ({mp.nstr(rel, 2)})"
        print(f"  {quantity:48s} {mp.nstr(value, 12, min_fixed=-4, max_fixed=6):>20s} {unit:6s} {documented or '':>12s}  {verdict}")
    print(f"\n{n_ok} of {n_doc} documented values agree to the digits continuum.md gives")


if __name__ == "__main__":
    main()
