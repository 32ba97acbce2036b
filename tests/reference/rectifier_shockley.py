#!/usr/bin/python3
"""The full-wave bridge of near-ideal Shockley diodes (I_s = 1e-14 A, n = 1,
V_T = 0.025852 V) behind a piezo element written as its Thevenin equivalent,
for prm/lumped/rectifier_bridge_near_ideal.prm. Independent of Hamilton.

Circuit: source e(t) = alpha u_M sin(w t)/C_0 in series with C_0 (the piezo
element of prm/lumped/rectifier_bridge.prm with its displacement
prescribed), the bridge D1 A->P, D2 B->P, D3 N->A, D4 N->B, the smoothing
capacitor C and the load R between P and N (N = 0 V). Each diode carries
i = I_s (exp(v/(n V_T)) - 1) (Shockley; Hamilton's law has the same forward
branch and a leakage resistance of 2.1e12 Ohm in reverse instead of the
saturation current: both below 1e-13 A against currents of 1e-5 A).
The nodes A and B carry no capacitance to ground: their common potential c is
algebraic, fixed by Kirchhoff's current law for the cut around {A, B}:
i1 + i2 = i3 + i4, which with v1 = V_A - V, v2 = V_B - V, v3 = -V_A,
v4 = -V_B gives exp((c - V)/a) = exp(-c/a), c = V/2, exactly. With
w = V_A - V_B the state is (w, V):
  i1 = i4 = f((w - V)/2),  i2 = i3 = f((-w - V)/2),
  C_0 w' = C_0 e'(t) - (i1 - i3)     (the loop: w = e - q/C_0, q' = i1 - i3)
  C V'   = i1 + i2 - V/R,
integrated by SciPy's Radau (rtol 1e-10) with the analytic Jacobian from
rest for 3 s; V_DC and P = V^2/R are means over the last 20 periods (2.6-3 s,
as Hamilton's harmonic analysis).
Also: the closed form with a constant drop V_F per diode (rectifier.py),
V_DC = 2 w R (alpha u_M - 2 C_0 V_F)/(pi + 2 w R C_0), with the drop at the
peak current alpha w u_M, and the effective drop that the integration implies.

usage: /usr/bin/python3 rectifier_shockley.py
"""
import math

import numpy as np
from scipy.integrate import solve_ivp

alpha, C0, uM, f, R, C = 1e-3, 1e-8, 1e-4, 50.0, 5e5, 1e-6
Is, a = 1e-14, 1.0 * 0.025852
w_ = 2 * math.pi * f


def diode(v):
    e = np.exp(v / a)
    return Is * (e - 1), Is * e / a  # current, conductance


def rhs(t, y):
    wv, V = y
    i1, _ = diode((wv - V) / 2)
    i2, _ = diode((-wv - V) / 2)
    de = alpha * uM * w_ * math.cos(w_ * t) / C0
    return [de - (i1 - i2) / C0, (i1 + i2 - V / R) / C]


def jac(t, y):
    wv, V = y
    _, g1 = diode((wv - V) / 2)
    _, g2 = diode((-wv - V) / 2)
    # d(i1)/dw = g1/2, d(i1)/dV = -g1/2; d(i2)/dw = -g2/2, d(i2)/dV = -g2/2
    return [[-(g1 / 2 + g2 / 2) / C0, -(-g1 / 2 + g2 / 2) / C0],
            [(g1 / 2 - g2 / 2) / C, (-g1 / 2 - g2 / 2 - 1 / R) / C]]


def integrate(T=3.0, last=20):
    t0 = T - last / f
    sol = solve_ivp(rhs, (0, T), [0.0, 0.0], method="Radau", jac=jac, rtol=1e-10, atol=[1e-9, 1e-9],
                    dense_output=True, max_step=1 / f / 50)
    t = np.linspace(t0, T, 200001)
    V = sol.sol(t)[1]
    # trapezoidal means over the window
    mean = lambda x: np.trapz(x, t) / (T - t0)
    return mean(V), mean(V * V / R)


def closed_form(VF):
    return 2 * w_ * R * (alpha * uM - 2 * C0 * VF) / (math.pi + 2 * w_ * R * C0)


if __name__ == "__main__":
    V, P = integrate()
    peak = alpha * w_ * uM
    VF = a * math.log(peak / Is + 1)
    print(f"Shockley bridge, Radau: V_DC = {V:.6f} V, P = {P * 1e6:.5f} uW")
    print(f"closed form: ideal diodes {closed_form(0):.5f} V; drop at the peak current {peak * 1e6:.2f} uA "
          f"V_F = {VF:.4f} V: {closed_form(VF):.5f} V")
    VF_eff = (alpha * uM - V * (math.pi + 2 * w_ * R * C0) / (2 * w_ * R)) / (2 * C0)
    print(f"effective constant drop implied by V_DC: {VF_eff:.4f} V")
