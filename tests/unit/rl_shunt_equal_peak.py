#!/usr/bin/env python3
"""Independent reference for TEST(Piezo, RLShuntTuningCase3b): the equal-peak
(H-infinity) optimum of a series RL shunt on a single-mode piezoelectric
structure without mechanical damping, driven by a force.

Non-dimensional receptance (Omega = omega/omega_sc, delta = L C omega_sc^2,
r = R C omega_sc, K^2 = (omega_oc^2 - omega_sc^2)/omega_sc^2):

    h = 1 / (1 - Omega^2 + K^2 (i Omega r - Omega^2 delta) / (1 - Omega^2 delta + i Omega r))

The peaks are the real positive roots y = Omega^2 of A'B - AB' = 0 with
|h|^2 = A(y)/B(y) (polynomials, mpmath.polyroots), not a frequency search.
The optimum solves, by Newton's method (mpmath.findroot) at 40 digits, the
optimality conditions of a minimax with two active peaks: the peaks are equal
and their gradients with respect to (delta, r) are parallel (envelope theorem:
partial derivatives of |h| at the fixed peak frequency). Hamilton instead
bisects for equal peaks at each L and golden-searches L (rl_shunt.cc).

usage: rl_shunt_equal_peak.py K2   (prints delta, r, the two peaks)
"""
import sys

import mpmath as mp

mp.mp.dps = 40


def peaks(K2, d, r):
    """The local maxima (Omega, |h|) of the receptance, ascending in Omega."""

    def mul(p, q):
        out = [mp.mpf(0)] * (len(p) + len(q) - 1)
        for i, a in enumerate(p):
            for j, b in enumerate(q):
                out[i + j] += a * b
        return out

    def add(p, q):
        n = max(len(p), len(q))
        return [(p[i] if i < len(p) else 0) + (q[i] if i < len(q) else 0) for i in range(n)]

    def der(p):
        return [i * p[i] for i in range(1, len(p))]

    def ev(p, y):
        return sum(c * y**i for i, c in enumerate(p))

    # coefficients in y = Omega^2, lowest power first
    A = add(mul([1, -d], [1, -d]), [0, r * r])
    real = add(mul([1, -1], [1, -d]), [0, -K2 * d])
    imag2 = mul([0, r * r], mul([1 + K2, -1], [1 + K2, -1]))
    B = add(mul(real, real), imag2)
    S = add(mul(der(A), B), [-c for c in mul(A, der(B))])
    while abs(S[-1]) == 0:
        S.pop()
    result = []
    for y in mp.polyroots(S[::-1], maxsteps=400, extraprec=200):
        if abs(mp.im(y)) < mp.mpf(10) ** -25 and mp.re(y) > 0:
            y = mp.re(y)
            v, e = ev(A, y) / ev(B, y), y * mp.mpf(10) ** -8
            if v > ev(A, y + e) / ev(B, y + e) and v > ev(A, y - e) / ev(B, y - e):
                result.append((mp.sqrt(y), mp.sqrt(v)))
    return sorted(result)


def h_abs(K2, W, d, r):
    return abs(1 / (1 - W**2 + K2 * (1j * W * r - W**2 * d) / (1 - W**2 * d + 1j * W * r)))


def optimum(K2, d0=mp.mpf("0.9125"), r0=mp.mpf("0.4")):
    def conditions(d, r):
        (W1, p1), (W2, p2) = peaks(K2, d, r)
        g1 = [mp.diff(lambda t: h_abs(K2, W1, t, r), d), mp.diff(lambda t: h_abs(K2, W1, d, t), r)]
        g2 = [mp.diff(lambda t: h_abs(K2, W2, t, r), d), mp.diff(lambda t: h_abs(K2, W2, d, t), r)]
        return [p1 - p2, g1[0] * g2[1] - g1[1] * g2[0]]

    d, r = mp.findroot(conditions, (d0, r0), tol=mp.mpf(10) ** -30)
    return d, r, peaks(K2, d, r)


if __name__ == "__main__":
    K2 = mp.mpf(sys.argv[1])
    d, r, p = optimum(K2)
    print(f"K2 = {mp.nstr(K2, 17)}: delta = L C omega_sc^2 = {mp.nstr(d, 17)}, r = R C omega_sc = {mp.nstr(r, 17)}")
    for W, v in p:
        print(f"  peak at Omega = {mp.nstr(W, 17)}: |h| = {mp.nstr(v, 17)}")
