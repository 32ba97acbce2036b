#!/usr/bin/python3
"""Closed forms of the lumped and coupled examples (mpmath, 30 digits),
independent of Hamilton. Parameters as in the prm files.

* rlc_network.prm: series RLC step response q(t) = C V0 [1 - exp(-a t)
  (cos(wd t) + a/wd sin(wd t))], a = R/(2L), wd = sqrt(1/(LC) - a^2);
  supplied work V0 q(T).
* base_excitation.prm: steady state x = Y T sin(w t + psi); the massless base
  carries the force m x'' = -m w^2 Y T sin(w t + psi).
* current_source_rc.prm: v(t) = I0 Z [sin(w t + phi) - sin(phi) exp(-t/(R C))];
  the source's work int_0^T v i dt (quadrature).
* movable_plate_capacitor.prm: equilibrium k x (g0 - x)^2 = eps A V^2/2, q = eps A V/(g0 - x).
* overhead_crane.prm: terminal speed and current of the force balance
  (payload at rest), n = r/r_w: u = Ra i + n Ke v, n Kt i = (d1 + n^2 dm) v.
* flexible_link.prm: steady hub speed of the motor with viscous friction,
  k_t = k_e: u k_e r/(k_e^2 r^2 + R_a b_m r^2).

usage: python3 lumped_closed_forms.py
"""
import mpmath as mp

mp.mp.dps = 30


def main():
    R, L, C, V0, T = mp.mpf(10), mp.mpf("0.1"), mp.mpf("100e-6"), mp.mpf(10), mp.mpf("0.2")
    a = R / (2 * L)
    wd = mp.sqrt(1 / (L * C) - a**2)
    q = C * V0 * (1 - mp.exp(-a * T) * (mp.cos(wd * T) + a / wd * mp.sin(wd * T)))
    print(f"rlc_network: a = {a}, wd = {mp.nstr(wd, 17)} rad/s, q(0.2 s) = {mp.nstr(q, 17)} C, "
          f"supplied work V0 q = {mp.nstr(V0 * q, 17)} J")

    m, fn, zeta, Y, f = 1, 10, mp.mpf("0.1"), mp.mpf("1e-3"), 12
    k = m * (2 * mp.pi * fn) ** 2
    c = 2 * zeta * mp.sqrt(k * m)
    w = 2 * mp.pi * f
    X = Y * mp.sqrt((k**2 + (c * w) ** 2) / ((k - m * w**2) ** 2 + (c * w) ** 2))
    psi = mp.atan2(c * w, k) - mp.atan2(c * w, k - m * w**2)
    t = 6
    print(f"base_excitation: X = {mp.nstr(X, 17)} m; base force at t = 6 s: {mp.nstr(-m * w**2 * X * mp.sin(w * t + psi), 17)} N")

    I0, f0, R0, C0, T = mp.mpf("1e-3"), 200, 1000, mp.mpf("1e-6"), mp.mpf("0.02")
    w = 2 * mp.pi * f0
    phi = -mp.atan(w * R0 * C0)
    Z = R0 / mp.sqrt(1 + (w * R0 * C0) ** 2)
    v = lambda t: I0 * Z * (mp.sin(w * t + phi) - mp.sin(phi) * mp.exp(-t / (R0 * C0)))
    work = mp.quad(lambda t: v(t) * I0 * mp.sin(w * t), mp.linspace(0, T, 17))
    print(f"current_source_rc: source work over 0.02 s {mp.nstr(work, 17)} J")

    k, g0, eps, A, V = 10, mp.mpf("1e-5"), mp.mpf("8.8541878128e-12"), mp.mpf("1e-4"), 1
    x = mp.findroot(lambda x: k * x * (g0 - x) ** 2 - eps * A * V**2 / 2, mp.mpf("4.9e-7"))
    q = eps * A * V / (g0 - x)
    print(f"movable_plate_capacitor: x = {mp.nstr(x, 17)} m, q = {mp.nstr(q, 17)} C")
    # linearized at the equilibrium, states (x, x', q): m x'' + c x' + k x = q^2/(2 eps A),
    # R q' + q (g0 - x)/(eps A) = V
    m, c, R = mp.mpf("1e-6"), mp.mpf("1e-3"), mp.mpf("1e6")
    J = mp.matrix([[0, 1, 0], [-k / m, -c / m, q / (eps * A * m)], [q / (eps * A * R), 0, -(g0 - x) / (eps * A * R)]])
    ev = sorted(mp.eig(J)[0], key=lambda z: (mp.re(z), mp.im(z)))
    print("  linearized eigenvalues:", ", ".join(mp.nstr(z, 15) for z in ev),
          f"(without the transducer: -c/(2m) +- i sqrt(k/m - (c/(2m))^2) = {mp.nstr(-c / (2 * m), 6)} +- "
          f"{mp.nstr(mp.sqrt(k / m - (c / (2 * m)) ** 2), 8)} i)")

    n, Ra, Ke, Kt, d1, dm, u = mp.mpf(10) / mp.mpf("0.025"), 1, mp.mpf("0.1"), 1, 2, mp.mpf("0.1"), 10
    D = d1 + n**2 * dm
    v = u / (Ra * D / (n * Kt) + n * Ke)
    print(f"overhead_crane force balance: v = {mp.nstr(v, 17)} m/s, i = {mp.nstr(D * v / (n * Kt), 17)} A")

    u, ke, r, Ra, bm = 3, mp.mpf("0.05"), 20, 2, mp.mpf("1e-5")
    print(f"flexible_link: steady hub speed {mp.nstr(u * ke * r / (ke**2 * r**2 + Ra * bm * r**2), 17)} rad/s")


if __name__ == "__main__":
    main()
