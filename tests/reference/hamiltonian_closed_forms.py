#!/usr/bin/python3
"""Closed forms of the Hamiltonian-form examples (mpmath, 30 digits),
independent of Hamilton. Parameters as in the prm files.

* rlc_004_hamiltonian.prm, rlc_004_lagrangian.prm, rlc_004_exchange.prm:
  the circuit of the Hamiltonian lecture notes (source E0, R2 and L in series, C with R1 across
  it), from rest: dq/dt = lambda/L - q/(R1 C), dlambda/dt = -q/C + E0 -
  R2 lambda/L. q(t) = q_ss + exp(-a t)(A cos wt + B sin wt), lambda likewise
  (A, B from the initial values and rates; the same form as in the prm
  outputs), checked here against the matrix exponential of the state
  matrix; at T = 0.1 s q, lambda, H = q^2/(2C) + lambda^2/(2L), the source's
  work E0 int lambda/L dt and the dissipated energy int (R2 (lambda/L)^2 +
  (q/C)^2/R1) dt (quadrature); the eigenvalues -a +- i w.
* relativistic_particle_*.prm: an electron from rest under F = e E:
  x(t) = (m c^2/F)(sqrt(1 + (F t/(m c))^2) - 1), p = F t, the stored energy
  (gamma - 1) m c^2 = F x(T) at T = 10 ns.

usage: /usr/bin/python3 tests/reference/hamiltonian_closed_forms.py
"""
import mpmath as mp

mp.mp.dps = 30


def rlc():
    E0, R1, R2, L, C, T = mp.mpf(10), mp.mpf(1000), mp.mpf(10), mp.mpf("0.1"), mp.mpf("100e-6"), mp.mpf("0.1")
    a = (1 / (R1 * C) + R2 / L) / 2
    w = mp.sqrt((R1 + R2) / (R1 * L * C) - a**2)
    q_ss, l_ss = C * R1 * E0 / (R1 + R2), L * E0 / (R1 + R2)

    def q(t):
        return q_ss + mp.exp(-a * t) * (-q_ss * mp.cos(w * t) - a * q_ss / w * mp.sin(w * t))

    def lam(t):
        return l_ss + mp.exp(-a * t) * (-l_ss * mp.cos(w * t) + (E0 - a * l_ss) / w * mp.sin(w * t))

    # against the matrix exponential of the state matrix
    A = mp.matrix([[-1 / (R1 * C), 1 / L], [-1 / C, -R2 / L]])
    x_ss = -mp.lu_solve(A, mp.matrix([0, E0]))
    for t in (mp.mpf("0.001"), mp.mpf("0.02"), T):
        x = x_ss + mp.expm(A * t) * (-x_ss)
        assert abs(x[0] - q(t)) < mp.mpf("1e-25") and abs(x[1] - lam(t)) < mp.mpf("1e-25")
    H = q(T) ** 2 / (2 * C) + lam(T) ** 2 / (2 * L)
    supplied = E0 * mp.quad(lambda t: lam(t) / L, [0, T])
    dissipated = mp.quad(lambda t: R2 * (lam(t) / L) ** 2 + (q(t) / C) ** 2 / R1, [0, T])
    print(f"rlc_004: a = {a} 1/s, w = {mp.nstr(w, 17)} rad/s; at T = 0.1 s: q = {mp.nstr(q(T), 17)} C, "
          f"lambda = {mp.nstr(lam(T), 17)} V s, H = {mp.nstr(H, 17)} J, supplied = {mp.nstr(supplied, 17)} J, "
          f"dissipated = {mp.nstr(dissipated, 17)} J (balance {mp.nstr(supplied - dissipated - H, 3)})")


def relativistic():
    m, c, e, E, T = mp.mpf("9.1093837015e-31"), mp.mpf(299792458), mp.mpf("1.602176634e-19"), mp.mpf("1e6"), mp.mpf("1e-8")
    F = e * E
    s = F * T / (m * c)
    x = m * c**2 / F * (mp.sqrt(1 + s**2) - 1)
    v = c * s / mp.sqrt(1 + s**2)
    print(f"relativistic particle at 10 ns: F t/(m c) = {mp.nstr(s, 6)}, gamma = {mp.nstr(mp.sqrt(1 + s**2), 6)}, "
          f"x = {mp.nstr(x, 17)} m, x_dot = {mp.nstr(v, 17)} m/s, p = F t = {mp.nstr(F * T, 17)} N s, "
          f"stored energy F x = {mp.nstr(F * x, 17)} J")


if __name__ == "__main__":
    rlc()
    relativistic()
