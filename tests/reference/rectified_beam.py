#!/usr/bin/python3
"""The rectified harvester of prm/studies/rectifier_load_sweep.prm without
Hamilton: the 2-mode Case 1b bimorph (exact short-circuit modes of
tests/reference/piezo_beams.py, not Hamilton's rom.json), a full-wave bridge of
four diodes with the diode law of lumped/source/diode.cc, the smoothing
capacitor C = 66 ms/R and the load R, integrated by SciPy's Radau from rest.

Beam (Erturk & Inman's modal equations, the convention of
piezo_beams.voltage): with the mass-normalized modes r = 1, 2, natural
frequencies w_r, couplings chi_r = Theta phi_r'(L), forcing p_r = m int phi_r,
modal damping zeta = 0.0088, base acceleration a(t) = 2 g sin(2 pi 500 t),
piezo voltage v (series connection, clamped capacitance C_0):
    eta_r'' + 2 zeta w_r eta_r' + w_r^2 eta_r - chi_r v = -p_r a(t),
    C_0 v' + sum_r chi_r eta_r' + i_b = 0,
i_b the current the electrode's + terminal (node A) delivers to the bridge
(with i_b = v/R this is the resistive load of piezo_beams.voltage).
Bridge: D1 A->P, D2 B->P, D3 N->A, D4 N->B, DC node P at V (N = 0 V), v = V_A
- V_B. The nodes A, B carry no capacitance to ground: Kirchhoff's current law
for the cut around them, i1 + i2 = i3 + i4, holds at V_A + V_B = V for ANY
strictly increasing diode law f (then i1 = i4, i2 = i3), so
    i1 = i4 = f((v - V)/2),  i2 = i3 = f((-v - V)/2),
    i_b = i1 - i3,   C V' = i1 + i2 - V/R.
Diode law (diode.cc, R_s = 0): v_D = n V_T [ln((2 + e^u)/3) + k (1 - e^-u)/2],
k = 2 ln(3/2), i = I_s sinh(u); inverted for u by a safeguarded Newton
iteration (the law is strictly increasing in u). I_s = 1e-10 A, n = 0.2,
V_T = 0.025852 V, as the study.
Output per load: the mean V_DC and the mean load power V^2/R over the last 20
periods of 0.4 s (Hamilton's harmonic analysis of the study), by the
trapezoidal rule on the dense output; the induced-charge amplitude
chi^T eta there; and the resistive-load optimum of the same 2-mode beam
(piezo_beams.optimum, mean power), their ratio.

usage: /usr/bin/python3 tests/reference/rectified_beam.py [R ...]   (default
6.8e3 10e3 15e3; about 3 min of CPU per load: two tolerances, 1e-8 and 1e-9)
"""
import math
import os
import sys

import numpy as np
from scipy.integrate import solve_ivp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import piezo_beams as pb  # noqa: E402

F_HZ, A_MAX, ZETA = 500.0, 19.62, 0.0088
IS, N_VT = 1e-10, 0.2 * 0.025852
K = 2 * math.log(1.5)
T_END, PERIODS = 0.4, 20

beam = pb.bimorph_1b()
MODES = [(float(w), float(chi), float(p)) for w, chi, p in pb.modal_data(beam, 2)]
C0 = float(beam["C"])
W = 2 * math.pi * F_HZ


def law(u):
    """v_D/(n V_T) and its derivative in u."""
    e = math.exp(u)
    return math.log((2 + e) / 3) + K * (1 - 1 / e) / 2, e / (2 + e) + K / (2 * e)


def diode(v):
    """Current and conductance di/dv of the diode law at the voltage v."""
    y = v / N_VT
    # start: the forward asymptote, or the reverse exponential, then Newton
    # kept inside a bracket [lo, hi] of the monotone function
    lo, hi = -50.0, 50.0
    u = y + math.log(3) - K / 2 if y > 0 else -math.log(1 - 2 * y / K)
    u = min(max(u, lo), hi)
    for _ in range(100):
        g, dg = law(u)
        g -= y
        if g > 0:
            hi = u
        else:
            lo = u
        step = g / dg
        u_next = u - step
        if not lo < u_next < hi:
            u_next = (lo + hi) / 2
        if abs(u_next - u) < 1e-15 * max(1.0, abs(u)):
            u = u_next
            break
        u = u_next
    _, dg = law(u)
    return IS * math.sinh(u), IS * math.cosh(u) / (N_VT * dg)


def make(R):
    C = 66e-3 / R
    (w1, c1, p1), (w2, c2, p2) = MODES

    def currents(v, V):
        i1, g1 = diode((v - V) / 2)
        i2, g2 = diode((-v - V) / 2)
        return i1, g1, i2, g2

    def rhs(t, y):
        e1, e2, d1, d2, v, V = y
        a = A_MAX * math.sin(W * t)
        i1, _, i2, _ = currents(v, V)
        return [d1, d2,
                -2 * ZETA * w1 * d1 - w1**2 * e1 + c1 * v - p1 * a,
                -2 * ZETA * w2 * d2 - w2**2 * e2 + c2 * v - p2 * a,
                -(c1 * d1 + c2 * d2 + i1 - i2) / C0,
                (i1 + i2 - V / R) / C]

    def jac(t, y):
        _, _, _, _, v, V = y
        _, g1, _, g2 = currents(v, V)
        # d i1/dv = g1/2, d i1/dV = -g1/2; d i2/dv = -g2/2, d i2/dV = -g2/2
        J = np.zeros((6, 6))
        J[0, 2] = J[1, 3] = 1
        J[2, 0], J[2, 2], J[2, 4] = -w1**2, -2 * ZETA * w1, c1
        J[3, 1], J[3, 3], J[3, 4] = -w2**2, -2 * ZETA * w2, c2
        J[4, 2], J[4, 3] = -c1 / C0, -c2 / C0
        J[4, 4] = -(g1 / 2 + g2 / 2) / C0
        J[4, 5] = -(-g1 / 2 + g2 / 2) / C0
        J[5, 4] = (g1 / 2 - g2 / 2) / C
        J[5, 5] = (-g1 / 2 - g2 / 2 - 1 / R) / C
        return J

    return rhs, jac


def run(R, rtol=1e-9):
    rhs, jac = make(R)
    t0 = T_END - PERIODS / F_HZ
    sol = solve_ivp(rhs, (0, T_END), np.zeros(6), method="Radau", jac=jac, rtol=rtol,
                    atol=[1e-16, 1e-16, 1e-13, 1e-13, 1e-9, 1e-9], dense_output=True,
                    max_step=1 / F_HZ / 40)
    if not sol.success:
        raise RuntimeError(sol.message)
    t = np.linspace(t0, T_END, 400001)
    y = sol.sol(t)
    V = y[5]
    mean = lambda x: np.trapz(x, t) / (T_END - t0)
    induced = MODES[0][1] * y[0] + MODES[1][1] * y[1]
    return mean(V), mean(V * V / R), (induced.max() - induced.min()) / 2, sol.nfev


def resistive_optimum():
    """R_opt and the mean power into a resistor of the same 2-mode beam (piezo_beams.optimum)."""
    modes = pb.modal_data(beam, 2)
    R, P = pb.optimum(beam, modes, W, pb.mp.mpf(ZETA), static_correction=False, bracket=(3.5, 4.5))
    return float(R), float(P) * A_MAX**2 / float(pb.G) ** 2 / 2


if __name__ == "__main__":
    loads = [float(x) for x in sys.argv[1:]] or [6.8e3, 10e3, 15e3]
    print(f"2 exact modes: f = {MODES[0][0] / 2 / math.pi:.6f}, {MODES[1][0] / 2 / math.pi:.6f} Hz; "
          f"C_0 = {C0:.6e} F")
    results = []
    for R in loads:
        for rtol in (1e-8, 1e-9):
            V, P, QM, nfev = run(R, rtol)
            print(f"R = {R:g} Ohm, rtol {rtol:g}: V_DC = {V:.9g} V, P = {P:.9g} W, Q_M = {QM:.6g} C ({nfev} evaluations)",
                  flush=True)
        results.append((R, V, P))
    R_res, P_res = resistive_optimum()
    print(f"resistive load: R_opt = {R_res:.6g} Ohm, mean P_max = {P_res:.6g} W")
    # the largest DC power: a parabola in log R through the three loads around the largest
    k = max(range(len(results)), key=lambda j: results[j][2])
    if 0 < k < len(results) - 1:
        x = [math.log(results[j][0]) for j in (k - 1, k, k + 1)]
        yv = [results[j][2] for j in (k - 1, k, k + 1)]
        c2, c1, c0 = np.polyfit(x, yv, 2)
        x_best = -c1 / (2 * c2)
        P_best = c0 + c1 * x_best + c2 * x_best**2
        print(f"largest DC power (parabola in log R): {P_best:.6g} W at {math.exp(x_best):.5g} Ohm")
    print(f"ratio of the DC power at {results[k][0]:g} Ohm to the resistive optimum: {results[k][2] / P_res:.4f}")
