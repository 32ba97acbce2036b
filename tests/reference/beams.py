#!/usr/bin/python3
"""Exact Euler-Bernoulli values of the prm/beam examples (Case 4 of
doc/validation-data.md), computed with mpmath (30 digits),
independent of Hamilton.

* cantilever_modes.prm, rom/ritz_vs_fe.prm: cos(bL) cosh(bL) = -1,
  f = (bL)^2/(2 pi L^2) sqrt(EI/(rho A)); effective mass of mode 1
  (int phi)^2/int phi^2 of the beam mass.
* tip_mass.prm, tip_mass_sweep.prm: tip mass M and rotary inertia J,
  EI w''(L) = omega^2 J w'(L), EI w'''(L) = -omega^2 M w(L).
* prestressed_pinned_beam.prm: omega_n = (n pi/L)^2 sqrt(EI/rho A)
  sqrt(1 + N L^2/(n^2 pi^2 EI)); static deflection of a tensioned pinned beam
  under a uniform load q: w(x) = q/(N k^2) [cosh(k(x - L/2))/cosh(kL/2) - 1]
  + q x (L - x)/(2 N), k^2 = N/EI.
* buckling.prm: clamped-pinned, tan(kL) = kL; load factor (kL)^2 EI/(L^2 |N0|).

usage: python3 beams.py
"""
import mpmath as mp

mp.mp.dps = 30


def strip(E, rho, h, b):
    return E * b * h**3 / 12, rho * b * h


def tip_mass_roots(L, EI, m, M, J, n):
    """Frequencies (Hz) of a cantilever with a tip mass M and rotary inertia J."""

    def det(bL):
        beta = bL / L
        w2 = beta**4 * EI / m
        ch, sh, c, s = mp.cosh(bL), mp.sinh(bL), mp.cos(bL), mp.sin(bL)
        # w = A (ch - c) + B (sh - s) and its derivatives at L (factor beta^k)
        w = (ch - c, sh - s)
        w1 = (beta * (sh + s), beta * (ch - c))
        w2d = (beta**2 * (ch + c), beta**2 * (sh + s))
        w3 = (beta**3 * (sh - s), beta**3 * (ch + c))
        r1 = [EI * w2d[k] - w2 * J * w1[k] for k in range(2)]
        r2 = [EI * w3[k] + w2 * M * w[k] for k in range(2)]
        return (r1[0] * r2[1] - r1[1] * r2[0]) / ch**2

    roots, x, step = [], mp.mpf("0.05"), mp.mpf("0.01")
    while len(roots) < n:
        if mp.sign(det(x)) != mp.sign(det(x + step)):
            roots.append(mp.findroot(det, (x, x + step), solver="anderson"))
        x += step
    return [(r / L) ** 2 * mp.sqrt(EI / m) / (2 * mp.pi) for r in roots]


def main():
    L = mp.mpf("0.3")
    EI, m = strip(mp.mpf("210e9"), 7850, mp.mpf("0.002"), mp.mpf("0.02"))
    betas = [mp.findroot(lambda x: mp.cos(x) * mp.cosh(x) + 1, g) for g in (1.875, 4.694, 7.855, 10.996, 14.137, 17.279)]
    print("cantilever_modes / ritz_vs_fe: f (Hz) =", ", ".join(mp.nstr(b**2 / L**2 * mp.sqrt(EI / m) / (2 * mp.pi), 17) for b in betas))
    b1 = betas[0]
    sigma = (mp.sinh(b1) - mp.sin(b1)) / (mp.cosh(b1) + mp.cos(b1))
    phi = lambda x: mp.cosh(b1 * x) - mp.cos(b1 * x) - sigma * (mp.sinh(b1 * x) - mp.sin(b1 * x))
    ratio = mp.quad(phi, [0, 1]) ** 2 / mp.quad(lambda x: phi(x) ** 2, [0, 1])
    print(f"  effective mass of mode 1: {mp.nstr(ratio, 15)} of the beam mass {mp.nstr(m * L, 10)} kg = {mp.nstr(ratio * m * L, 15)} kg")
    print("tip_mass (M 0.05 kg, J 1e-6 kg m^2): f (Hz) =",
          ", ".join(mp.nstr(f, 17) for f in tip_mass_roots(L, EI, m, mp.mpf("0.05"), mp.mpf("1e-6"), 4)))
    for M in ("0", "0.025", "0.05"):
        for h in ("0.002", "0.003"):
            EIh, mh = strip(mp.mpf("210e9"), 7850, mp.mpf(h), mp.mpf("0.02"))
            f = tip_mass_roots(L, EIh, mh, mp.mpf(M), mp.mpf("1e-6"), 1)[0]
            print(f"tip_mass_sweep M = {M} kg, h = {h} m: f1 = {mp.nstr(f, 17)} Hz")

    L, N, q = mp.mpf(1), mp.mpf(200), mp.mpf(10)
    EI, m = strip(mp.mpf("70e9"), 2700, mp.mpf("0.005"), mp.mpf("0.03"))
    print("prestressed_pinned_beam: f (Hz) =", ", ".join(
        mp.nstr((n * mp.pi / L) ** 2 * mp.sqrt(EI / m) * mp.sqrt(1 + N * L**2 / (n**2 * mp.pi**2 * EI)) / (2 * mp.pi), 17)
        for n in (1, 2, 3)))
    k = mp.sqrt(N / EI)
    w = q / (N * k**2) * (1 / mp.cosh(k * L / 2) - 1) + q * L**2 / (8 * N)
    print(f"  static midspan deflection {mp.nstr(w, 17)} m, reactions -q L/2 = {mp.nstr(-q * L / 2, 5)} N")

    L, N0 = mp.mpf(2), mp.mpf(1000)
    EI, m = strip(mp.mpf("210e9"), 7850, mp.mpf("0.01"), mp.mpf("0.05"))
    kLs = [mp.findroot(lambda x: mp.tan(x) - x, g) for g in (4.4934, 7.7253, 10.9041)]
    print("buckling (clamped-pinned): load factors", ", ".join(mp.nstr(kl**2 * EI / (L**2 * N0), 17) for kl in kLs))


if __name__ == "__main__":
    main()
