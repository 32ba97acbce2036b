#!/usr/bin/python3
"""The 3D steel strip of prm/continuum/steel_strip_3d.prm as an Euler-Bernoulli beam: the
independent estimate (two bounds) of the continuum's frequencies and static tip deflection.

Strip: L = 0.3 m, b = 20 mm, t = 2 mm, steel E = 210 GPa, nu = 0.3, rho = 7850 kg/m^3, clamped
at x = 0. Added: a point mass M = 0.05 kg at the tip (no rotary inertia) and a coating of
0.02 kg spread over the strip (mass per length m = rho b t + 0.02/L). Loads: 1 N downwards at
the tip and the strip's own weight q = rho g b t (g = 9.81; the coating carries no body force).

A beam of width b between plane stress (the width strain free: E) and plane strain (the width
strain blocked: E/(1 - nu^2)); a 20 x 2 mm strip lies in between, near E except close to the
clamped root. Frequencies: roots lambda of the cantilever with a tip mass (Blevins, Table 8-8):
    1 + cos l cosh l + a l (cos l sinh l - sin l cosh l) = 0,   a = M/(m L),
f = lambda^2/(2 pi L^2) sqrt(EI/m). Static tip deflection: F L^3/(3 EI) + q L^4/(8 EI).
The characteristic equation is checked against prm/beam/tip_mass.prm's (j = 0 here).

usage: python3 tests/reference/steel_strip.py     (under a second; writes nothing)
"""
import mpmath as mp

mp.mp.dps = 30
L, b, t = mp.mpf("0.3"), mp.mpf("0.02"), mp.mpf("0.002")
E, nu, rho = mp.mpf("210e9"), mp.mpf("0.3"), mp.mpf(7850)
M, coating, F, g = mp.mpf("0.05"), mp.mpf("0.02"), mp.mpf(1), mp.mpf("9.81")


def roots(a, n):
    f = lambda l: 1 + mp.cos(l) * mp.cosh(l) + a * l * (mp.cos(l) * mp.sinh(l) - mp.sin(l) * mp.cosh(l))
    found, x, step = [], mp.mpf("0.05"), mp.mpf("0.01")
    while len(found) < n:
        if f(x) * f(x + step) < 0:
            found.append(mp.findroot(f, (x, x + step), solver="anderson"))
        x += step
    return found


def main():
    m = rho * b * t + coating / L
    I = b * t**3 / 12
    print(f"rigid mass rho V + M + coating = {mp.nstr(rho * b * t * L + M + coating, 12)} kg")
    lam = roots(M / (m * L), 4)
    for label, modulus in (("E (plane stress)", E), ("E/(1 - nu^2) (plane strain)", E / (1 - nu**2))):
        EI = modulus * I
        f = [l**2 / (2 * mp.pi * L**2) * mp.sqrt(EI / m) for l in lam]
        w = F * L**3 / (3 * EI) + rho * g * b * t * L**4 / (8 * EI)
        print(f"{label}: f = {', '.join(mp.nstr(x, 10) for x in f)} Hz; tip deflection {mp.nstr(w, 10)} m")


if __name__ == "__main__":
    main()
