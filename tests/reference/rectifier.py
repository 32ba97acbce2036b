#!/usr/bin/python3
"""The standard energy-harvesting interface (full-wave bridge, smoothing
capacitor C, load R) behind a piezoelectric element driven with a prescribed
displacement u = u_M sin(w t): closed forms and an independent integration of
the switched circuit, for prm/lumped/rectifier_bridge.prm and
prm/lumped/rectifier_forward_drop.prm. Independent of Hamilton.

Piezo element: charge q on the electrode, W_e = (q - alpha u)^2/(2 C_0), so
the voltage is V_p = (q - alpha u)/C_0 and the current it delivers into the
bridge i_p = alpha u' - C_0 V_p'.

Closed form (Guyomar et al. 2005; Shu & Lien 2006), derived here: with ideal
diodes and C -> infinity (constant V_DC), each half period (u from -u_M to
+u_M) starts with the bridge blocked, |V_p| < V_DC: i_p = 0 and V_p swings
from -V_DC to +V_DC, which takes the charge 2 C_0 V_DC of the 2 alpha u_M the
motion displaces; the rest, 2 alpha u_M - 2 C_0 V_DC, flows through two
diodes into the DC side while V_p = V_DC. The load draws V_DC/R for T/2 = pi/w:
    (2 alpha u_M - 2 C_0 V_DC) w/pi = V_DC/R
 => V_DC = 2 w R alpha u_M/(pi + 2 w R C_0),  P = V_DC^2/R,
dP/dR = 0 at R_opt = pi/(2 w C_0), P_max = w alpha^2 u_M^2/(2 pi C_0).
With a constant forward drop V_F per diode (two conduct), V_p is clipped at
+-(V_DC + 2 V_F) and the flip costs 2 C_0 (V_DC + 2 V_F):
    V_DC = 2 w R (alpha u_M - 2 C_0 V_F)/(pi + 2 w R C_0).
A diode whose drop grows with its current (Shockley) switches off as its
current falls to zero, at a drop between 0 and its drop at the peak current
alpha w u_M: its V_DC lies between the constant-drop values of these two
drops.

Finite C: the switched circuit integrated by SciPy (DOP853, events at the
switchings), ideal diodes with a constant drop V_F:
  blocked:     C_0 V_p' = alpha u',              C V' = -V/R
  conducting:  V_p = s (V + 2 V_F),  (C + C_0) V' = s alpha u' - V/R,
               until s i_p = (C s alpha u' + C_0 V/R)/(C + C_0) falls to 0;
to the periodic steady state; V_DC and P are means over the last 20 periods.

usage: /usr/bin/python3 rectifier.py
"""
import math

import numpy as np
from scipy.integrate import solve_ivp

# prm/lumped/rectifier_bridge.prm
alpha, C0, uM, f, R, C = 1e-3, 1e-8, 1e-4, 50.0, 5e5, 1e-6
w = 2 * math.pi * f


def closed_form(R, VF=0.0):
    V = 2 * w * R * (alpha * uM - 2 * C0 * VF) / (math.pi + 2 * w * R * C0)
    return V, V * V / R


def means(R, C, VF=0.0, periods=160, last=20):
    T = 1 / f
    a = run_to(R, C, VF, (periods - last) * T)
    b = run_to(R, C, VF, periods * T)
    span = last * T
    return (b[2] - a[2]) / span, (b[3] - a[3]) / span


def run_to(R, C, VF, t_stop):
    """The state [V_p, V, int V, int V^2/R] at t_stop."""
    du = lambda t: uM * w * math.cos(w * t)
    T = 1 / f
    mode, t, y = 0, 0.0, np.array([0.0, 0.0, 0.0, 0.0])
    while t < t_stop * (1 - 1e-15):
        if mode == 0:
            rhs = lambda t, y: [alpha * du(t) / C0, -y[1] / (R * C), y[1], y[1] ** 2 / R]
            ev_p = lambda t, y: y[0] - (y[1] + 2 * VF)
            ev_n = lambda t, y: -y[0] - (y[1] + 2 * VF)
            ev_p.terminal = ev_n.terminal = True
            ev_p.direction = ev_n.direction = 1
            sol = solve_ivp(rhs, (t, t_stop), y, method="DOP853", rtol=1e-12, atol=1e-16,
                            events=[ev_p, ev_n], max_step=T / 40)
            t, y = sol.t[-1], sol.y[:, -1].copy()
            if sol.status == 1:
                mode = 1 if len(sol.t_events[0]) else -1
        else:
            s = mode

            def rhs(t, y, s=s):
                dV = (s * alpha * du(t) - y[1] / R) / (C + C0)
                return [s * dV, dV, y[1], y[1] ** 2 / R]

            ev = lambda t, y, s=s: C * s * alpha * du(t) + C0 * y[1] / R
            ev.terminal, ev.direction = True, -1
            sol = solve_ivp(rhs, (t, t_stop), y, method="DOP853", rtol=1e-12, atol=1e-16, events=[ev],
                            max_step=T / 40)
            t, y = sol.t[-1], sol.y[:, -1].copy()
            y[0] = s * (y[1] + 2 * VF)
            if sol.status == 1:
                mode = 0
    return y


def diode_drop(i, n_VT, Is):
    """The diode law of lumped/source/diode.cc at current i (R_s = 0)."""
    x = i / Is
    s = math.sqrt(x * x + 1)
    k = 2 * math.log(1.5)
    return n_VT * (math.log(2 * (1 + (x + s) / 2) / 3) + k * ((x - s) / 2 + 0.5))


def main():
    V, P = closed_form(R)
    print(f"closed form (C -> infinity, ideal): R_opt = pi/(2 w C_0) = {math.pi / (2 * w * C0):.10g} Ohm, "
          f"V_DC = {V:.10g} V, P = {P:.10g} W, P_max = w alpha^2 u_M^2/(2 pi C_0) = "
          f"{w * alpha**2 * uM**2 / (2 * math.pi * C0):.10g} W")
    Vs, Ps = means(R, C)
    print(f"switched circuit, ideal diodes, C = {C:g} F: V_DC = {Vs:.10g} V ({Vs / V - 1:+.3e} from the closed form), "
          f"P = {Ps:.10g} W ({Ps / P - 1:+.3e})")
    i_peak = alpha * w * uM
    # rectifier_bridge.prm: silicon-like, n V_T = 0.025852 V, I_s = 1e-10 A
    VF = diode_drop(i_peak, 0.025852, 1e-10)
    Vd, Pd = means(R, C, VF)
    Vc, Pc = closed_form(R, VF)
    print(f"diodes of rectifier_bridge.prm (n V_T = 0.025852 V, I_s = 1e-10 A): drop at the peak current "
          f"{i_peak:.6g} A: {VF:.6g} V; switched circuit with that constant drop: V_DC = {Vd:.10g} V, "
          f"P = {Pd:.10g} W (closed form with that drop: V_DC = {Vc:.10g} V, P = {Pc:.10g} W); leakage "
          f"resistance {2 * math.log(1.5) * 0.025852 / 1e-10:.4g} Ohm")


if __name__ == "__main__":
    main()
