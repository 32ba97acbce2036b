#!/usr/bin/python3
"""Reference solution of prm/lumped/node_flux_network.prm (Preumont 2006 chapter 2,
Example 1: current source into node 2, C1 between nodes 1 and 2, C2 between
nodes 2 and 3, inductor L0 from node 1 and resistor R0 from node 3 to
ground), independent of Hamilton and of the node-flux formulation.

Branch variables: inductor current iL, capacitor voltages vC1 = v2 - v1,
vC2 = v2 - v3. The source current I0 splits into the branch C1-L (current
iL) and the branch C2-R0 (current I0 - iL), both between node 2 and ground:

    L0 iL' = vC2 + R0 (I0 - iL) - vC1,  C1 vC1' = iL,  C2 vC2' = I0 - iL,

node voltages v3 = R0 (I0 - iL), v2 = v3 + vC2, v1 = v2 - vC1, flux
linkages l1 = L0 iL, l2 = int v2, l3 = int v3. With the constant input as a
state, z' = A z is solved exactly by the matrix exponential (mpmath, 30
digits) and checked against SciPy's Radau on Preumont's own charge
formulation (one loop charge q1 through L and C1, q2 = q1 + q0 through C2
and R0, q0' = I: L q1'' + q1/C1 + (q1 + q0)/C2 + R0 (q1' + q0') = 0, in the
sign convention of Fig. 2.6, here with q1 = -iL's charge). The source's
work is I0 l2(T); the dissipated energy int R0 (I0 - iL)^2 dt.

usage: /usr/bin/python3 tests/reference/node_flux_network.py
"""
import mpmath as mp
import numpy as np
from scipy.integrate import solve_ivp

mp.mp.dps = 30
L0, C1, C2, R0, I0, T = mp.mpf("0.1"), mp.mpf("10e-6"), mp.mpf("4.7e-6"), mp.mpf(100), mp.mpf("0.01"), mp.mpf("0.01")

# z = (iL, vC1, vC2, l2, l3, I0, D) with D = dissipated energy is not linear;
# the dissipation is integrated by quadrature of the exact solution below
A = mp.matrix(6, 6)
A[0, 0], A[0, 1], A[0, 2], A[0, 5] = -R0 / L0, -1 / L0, 1 / L0, R0 / L0
A[1, 0] = 1 / C1
A[2, 0], A[2, 5] = -1 / C2, 1 / C2
A[3, 0], A[3, 2], A[3, 5] = -R0, 1, R0  # l2' = v2 = R0 (I0 - iL) + vC2
A[4, 0], A[4, 5] = -R0, R0  # l3' = v3
z0 = mp.matrix([0, 0, 0, 0, 0, I0])


def state(t):
    return mp.expm(A * t) * z0


def report(t):
    iL, vC1, vC2, l2, l3, _ = state(t)
    v3 = R0 * (I0 - iL)
    v2 = v3 + vC2
    v1 = v2 - vC1
    return dict(l1=L0 * iL, l2=l2, l3=l3, l1_dot=v1, l2_dot=v2, l3_dot=v3, i_L=iL, v_C1=vC1, v_C2=vC2)


def main():
    print("t = 0+:", {k: mp.nstr(v, 6) for k, v in report(mp.mpf(0)).items()})
    final = report(T)
    for k, v in final.items():
        print(f"  {k}(T = 10 ms) = {mp.nstr(v, 17)}")
    work = I0 * final["l2"]
    dissipated = mp.quad(lambda t: R0 * (I0 - state(t)[0]) ** 2, mp.linspace(0, T, 21))
    iL, vC1, vC2 = state(T)[0], state(T)[1], state(T)[2]
    stored = C1 * vC1**2 / 2 + C2 * vC2**2 / 2 + L0 * iL**2 / 2
    print(f"  source work I0 l2(T) = {mp.nstr(work, 17)} J; stored {mp.nstr(stored, 17)} J; "
          f"dissipated {mp.nstr(dissipated, 17)} J; balance {mp.nstr(work - stored - dissipated, 3)}")

    # eigenvalues of the branch equations (iL, vC1, vC2): 0 (C1 vC1 + C2 vC2
    # follows the source's charge) and -R0/(2 L0) +- i sqrt((1/C1 + 1/C2)/L0 - (R0/(2 L0))^2)
    branch = mp.matrix([[A[i, j] for j in range(3)] for i in range(3)])
    ev = sorted(mp.eig(branch)[0], key=lambda z: (mp.re(z), mp.im(z)))
    a = R0 / (2 * L0)
    print("  branch eigenvalues:", ", ".join(mp.nstr(z, 17) for z in ev),
          f"(closed form -{mp.nstr(a, 17)} +- {mp.nstr(mp.sqrt((1 / C1 + 1 / C2) / L0 - a**2), 17)} i)")

    # second algorithm: the charge formulation of Preumont 2006, SciPy Radau
    c1, c2, r, l, i0 = (float(x) for x in (C1, C2, R0, L0, I0))

    def rhs(t, y):
        q1, q1d = y
        q0 = i0 * t
        return [q1d, -(q1 / c1 + (q1 + q0) / c2 + r * (q1d + i0)) / l]

    sol = solve_ivp(rhs, (0, float(T)), [0, 0], method="Radau", rtol=1e-12, atol=1e-16)
    q1, q1d = sol.y[:, -1]
    iL_charge = -q1d  # loop current q1' is the inductor current against iL's direction
    print(f"  charge formulation (Radau): iL(T) = {iL_charge:.15g} A vs matrix exponential "
          f"{float(final['i_L']):.15g} A (relative {abs(iL_charge / float(final['i_L']) - 1):.1e})")
    assert abs(iL_charge / float(final["i_L"]) - 1) < 1e-8
    assert np.isfinite(q1)


if __name__ == "__main__":
    main()
