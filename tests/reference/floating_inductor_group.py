#!/usr/bin/python3
"""Reference solution of prm/lumped/floating_inductor_group.prm (a node group
of index 2), independent of Hamilton and of the node-flux formulation.

Circuit: nodes a and b joined by a capacitor C and a resistor R in parallel;
inductor L1 from a, inductor L2 from b to ground; a current source
I(t) = I0 sin(w t) into node a. No capacitor and no resistor reaches ground:
the group {a, b} is tied to ground by its inductors only.

Branch variables: inductor currents i1 (a to ground), i2 (b to ground),
capacitor voltage vC = va - vb. Kirchhoff's current law for the cut around
the group, i1 + i2 = I, leaves two states (i2, vC):

    va = L1 i1' = L1 (I' - i2'),  vb = L2 i2',  vC = va - vb
      =>  (L1 + L2) i2' = L1 I' - vC,
    node b:  C vC' + vC/R = i2.

Node flux linkages a = L1 i1, b = L2 i2; node voltages va, vb. At t = 0 the
circuit is at rest (i1 = i2 = 0, vC = 0) and I(0) = 0, but I'(0) = I0 w:
i2'(0) = L1 I0 w/(L1 + L2), so va(0) = vb(0) = I0 w L1 L2/(L1 + L2).

With the input written as the states s = sin(w t), c = cos(w t)
(s' = w c, c' = -w s), z = (i2, vC, s, c, a_int, W, D) where the last are
quadratures, the linear part z = (i2, vC, s, c) is solved exactly by the
matrix exponential (mpmath, 30 digits); the source's work
W = int I va dt, the dissipation D = int vC^2/R dt and the flux linkages by
mpmath quadrature of the exact solution; cross-checked with SciPy Radau
(rtol 1e-12) on the same ODE.

usage: /usr/bin/python3 tests/reference/floating_inductor_group.py
"""
import mpmath as mp
import numpy as np
from scipy.integrate import solve_ivp

mp.mp.dps = 30
L1, L2, C, R = mp.mpf("0.1"), mp.mpf("0.2"), mp.mpf("10e-6"), mp.mpf(1000)
I0, f, T = mp.mpf("0.01"), mp.mpf(50), mp.mpf("0.045")
w = 2 * mp.pi * f

# z = (i2, vC, s, c): i2' = (L1 I0 w c - vC)/(L1 + L2), vC' = (i2 - vC/R)/C
A = mp.matrix(4, 4)
A[0, 1], A[0, 3] = -1 / (L1 + L2), L1 * I0 * w / (L1 + L2)
A[1, 0], A[1, 1] = 1 / C, -1 / (R * C)
A[2, 3] = w
A[3, 2] = -w
z0 = mp.matrix([0, 0, 0, 1])


def state(t):
    return mp.expm(A * t) * z0


def voltages(t):
    i2, vC, s, c = state(t)
    i2_rate = (L1 * I0 * w * c - vC) / (L1 + L2)
    vb = L2 * i2_rate
    va = vb + vC
    return i2, vC, va, vb, I0 * s


def report(t):
    i2, vC, va, vb, current = voltages(t)
    i1 = current - i2
    return dict(a=L1 * i1, b=L2 * i2, a_dot=va, b_dot=vb, i_L1=i1, i_L2=i2, v_C=vC)


def quad(fn, t):
    return mp.quad(fn, mp.linspace(0, t, 41))


def main():
    print("t = 0:", {k: mp.nstr(v, 12) for k, v in report(mp.mpf(0)).items()})
    print("  expected va(0) = vb(0) = I0 w L1 L2/(L1 + L2) =", mp.nstr(I0 * w * L1 * L2 / (L1 + L2), 17))
    final = report(T)
    for k, v in final.items():
        print(f"  {k}(T = 45 ms) = {mp.nstr(v, 17)}")
    # the flux linkages also as integrals of the node voltages (consistency)
    a_int = quad(lambda t: voltages(t)[2], T)
    b_int = quad(lambda t: voltages(t)[3], T)
    print(f"  int va dt = {mp.nstr(a_int, 17)} (a: {mp.nstr(final['a'], 17)})")
    print(f"  int vb dt = {mp.nstr(b_int, 17)} (b: {mp.nstr(final['b'], 17)})")
    work = quad(lambda t: voltages(t)[4] * voltages(t)[2], T)
    dissipated = quad(lambda t: voltages(t)[1] ** 2 / R, T)
    stored = L1 * final["i_L1"] ** 2 / 2 + L2 * final["i_L2"] ** 2 / 2 + C * final["v_C"] ** 2 / 2
    print(f"  supplied work int I va dt = {mp.nstr(work, 17)} J")
    print(f"  dissipated int vC^2/R dt = {mp.nstr(dissipated, 17)} J")
    print(f"  stored energy at T = {mp.nstr(stored, 17)} J (work - dissipated = {mp.nstr(work - dissipated, 17)})")
    # the largest node voltage over the run (fine grid and a local maximum)
    grid = [T * k / 4000 for k in range(4001)]
    va_max = max(voltages(t)[2] for t in grid)
    print(f"  max va on a 10 us grid = {mp.nstr(va_max, 12)} V")

    # cross-check: SciPy Radau on the same branch equations, float64
    l1, l2, c, r, i0, om = (float(x) for x in (L1, L2, C, R, I0, w))

    def rhs(t, z):
        i2, vc = z
        return [(l1 * i0 * om * np.cos(om * t) - vc) / (l1 + l2), (i2 - vc / r) / c]

    sol = solve_ivp(rhs, (0, float(T)), [0, 0], method="Radau", rtol=1e-12, atol=1e-15)
    i2, vc = sol.y[:, -1]
    print(f"  Radau: i_L2 = {i2:.15g} (differs {abs(i2 - float(final['i_L2'])):.2g}), "
          f"v_C = {vc:.15g} (differs {abs(vc - float(final['v_C'])):.2g})")


if __name__ == "__main__":
    main()
