#!/usr/bin/python3
"""Exact Euler-Bernoulli harvester with a tip mass and Rayleigh damping, for the
studies of prm/studies/ (independent of Hamilton: no finite elements, no modes).

The uniform piezoelectric cantilever (full-length electrode, load R) under base
acceleration a e^{i w t} is solved as a boundary-value problem at each frequency:

  EI* w'''' + m (-w^2 + i w alpha) w = -m a,   EI* = EI (1 + i w beta)
  w(0) = 0, w'(0) = 0
  EI* w''(L) = Theta V                          (free end: the electrode's moment)
  EI* w'''(L) = Mt ((-w^2 + i w alpha) w(L) + a) (tip mass, absolute acceleration)
  i w (Theta w'(L) + C V) + V/R = 0             (charge of the electrode into R)

Rayleigh damping D = alpha M + beta K (M with the tip mass, K without the
coupling) is exact in this form. w = A ch kx + B sh kx + C cos kx + D sin kx + w_p
with k^4 = m (w^2 - i w alpha)/EI* and w_p = a/(w^2 - i w alpha): five linear
equations in A, B, C, D, V. The short-circuit frequencies are the roots of
1 + cos l cosh l + mu l (cos l sinh l - sin l cosh l) = 0, mu = Mt/(m L).
Beams: Case 1c unimorph and Case 1b bimorph of doc/validation-data.md
(section properties as in tests/reference/piezo_beams.py).

usage: tip_mass_harvester.py            the values quoted in tests/prm/studies/*.expected.json
"""
import math

import numpy as np
from scipy.optimize import brentq, minimize_scalar


def unimorph_1c(e31=-12.54):
    L, b, hp, hs = 0.1, 0.02, 0.4e-3, 0.5e-3
    Yp, Ys, rp, rs, eps = 66e9, 100e9, 7800.0, 7165.0, 15.93e-9
    n = Ys / Yp
    hpa = (hp**2 + 2 * n * hp * hs + n * hs**2) / (2 * (hp + n * hs))
    hsa = (hp**2 + 2 * hp * hs + n * hs**2) / (2 * (hp + n * hs))
    ha, hb, hc = -hsa, hpa - hp, hpa
    EI = b / 3 * (Ys * (hb**3 - ha**3) + Yp * (hc**3 - hb**3))
    return dict(L=L, EI=EI, m=b * (rs * hs + rp * hp), Theta=-e31 * b / (2 * hp) * (hc**2 - hb**2),
                C=eps * b * L / hp)


def bimorph_1b(e31=-16.6):
    L, b, hp, hs = 24.53e-3, 6.4e-3, 0.265e-3, 0.14e-3
    Yp, Ys, rp, rs, eps = 60.6e9, 105e9, 7500.0, 9000.0, 25.55e-9
    EI = b * (Ys * hs**3 / 12 + 2 * Yp * ((hs / 2 + hp) ** 3 - (hs / 2) ** 3) / 3)
    return dict(L=L, EI=EI, m=b * (rs * hs + 2 * rp * hp), Theta=e31 * b * (hp + hs) / 2, C=eps * b * L / (2 * hp))


def f_sc(beam, Mt):
    """First short-circuit (undamped) frequency, Hz."""
    L, EI, m = beam["L"], beam["EI"], beam["m"]
    mu = Mt / (m * L)
    g = lambda l: 1 + math.cos(l) * math.cosh(l) + mu * l * (math.cos(l) * math.sinh(l) - math.sin(l) * math.cosh(l))
    lam = brentq(g, 1e-3, 1.8751040687119611 + 1e-9, xtol=1e-15, rtol=1e-15)
    return lam**2 / L**2 * math.sqrt(EI / m) / (2 * math.pi)


def voltage(beam, Mt, R, f, a, alpha=0.0, beta=0.0):
    """Complex voltage amplitude for base acceleration a (m/s^2)."""
    L, EI, m, Th, Cp = beam["L"], beam["EI"], beam["m"], beam["Theta"], beam["C"]
    w = 2 * math.pi * f
    EIs = EI * (1 + 1j * w * beta)
    s = -w**2 + 1j * w * alpha
    k = (-m * s / EIs) ** 0.25
    wp = -a / s
    ch, sh, c, sn = np.cosh(k * L), np.sinh(k * L), np.cos(k * L), np.sin(k * L)
    M = np.array([
        [1, 0, 1, 0, 0],
        [0, k, 0, k, 0],
        [EIs * k**2 * ch, EIs * k**2 * sh, -EIs * k**2 * c, -EIs * k**2 * sn, -Th],
        [EIs * k**3 * sh - Mt * s * ch, EIs * k**3 * ch - Mt * s * sh, EIs * k**3 * sn - Mt * s * c,
         -EIs * k**3 * c - Mt * s * sn, 0],
        [1j * w * Th * k * sh, 1j * w * Th * k * ch, -1j * w * Th * k * sn, 1j * w * Th * k * c, 1j * w * Cp + 1 / R]],
        dtype=complex)
    rhs = np.array([-wp, 0, 0, Mt * a + Mt * s * wp, 0], dtype=complex)
    return np.linalg.solve(M, rhs)[4]


def power(beam, Mt, R, f, a, alpha=0.0, beta=0.0, average=False):
    """Peak power |V|^2/R (average: half of it)."""
    return abs(voltage(beam, Mt, R, f, a, alpha, beta)) ** 2 / R * (0.5 if average else 1.0)


def optimal_load(beam, Mt, f, a, alpha=0.0, beta=0.0, average=False):
    """R maximizing the power at f, and that power."""
    r = minimize_scalar(lambda x: -power(beam, Mt, 10**x, f, a, alpha, beta, average), bounds=(1, 8),
                        method="bounded", options=dict(xatol=1e-10))
    return 10**r.x, -r.fun


def peak_over_frequency(beam, Mt, R, a, f_lo, f_hi, alpha=0.0, beta=0.0):
    """Largest power over frequency for load R (and its frequency)."""
    fs = np.linspace(f_lo, f_hi, 400)
    p = [power(beam, Mt, R, f, a, alpha, beta) for f in fs]
    i = int(np.argmax(p))
    r = minimize_scalar(lambda f: -power(beam, Mt, R, f, a, alpha, beta), bounds=(fs[i - 1], fs[i + 1]),
                        method="bounded", options=dict(xatol=1e-10))
    return -r.fun, r.x


class MT19937_64:
    """The 64-bit Mersenne Twister of the C++ standard (std::mt19937_64), written out."""

    def __init__(self, seed):
        self.mt = [0] * 312
        self.mt[0] = seed & 0xFFFFFFFFFFFFFFFF
        for i in range(1, 312):
            self.mt[i] = (6364136223846793005 * (self.mt[i - 1] ^ (self.mt[i - 1] >> 62)) + i) & 0xFFFFFFFFFFFFFFFF
        self.index = 312

    def __call__(self):
        if self.index >= 312:
            for i in range(312):
                x = (self.mt[i] & 0xFFFFFFFF80000000) | (self.mt[(i + 1) % 312] & 0x7FFFFFFF)
                xa = x >> 1
                if x & 1:
                    xa ^= 0xB5026F5AA96619E9
                self.mt[i] = self.mt[(i + 156) % 312] ^ xa
            self.index = 0
        y = self.mt[self.index]
        self.index += 1
        y ^= (y >> 29) & 0x5555555555555555
        y ^= (y << 17) & 0x71D67FFFEDA60000
        y ^= (y << 37) & 0xFFF7EEE000000000
        y ^= y >> 43
        return y & 0xFFFFFFFFFFFFFFFF


def monte_carlo_samples(parameters, n, seed):
    """The samples of doc/studies.md (monte carlo): parameters = [(nominal, tolerance, 'uniform'|'normal')]."""
    g = MT19937_64(seed)
    uniform = lambda: (g() >> 11) * 2.0**-53
    samples = []
    for _ in range(n):
        x = []
        for nominal, tolerance, distribution in parameters:
            if distribution == "uniform":
                x.append(nominal * (1 + tolerance * (2 * uniform() - 1)))
            else:
                u1, u2 = uniform(), uniform()
                x.append(nominal * (1 + tolerance * math.sqrt(-2 * math.log(1 - u1)) * math.cos(2 * math.pi * u2)))
        samples.append(x)
    return samples


def modal_voltage(beam, n_modes, R, f, a, alpha=0.0, beta=0.0):
    """Voltage of the same beam without tip mass in its first n_modes exact short-circuit modes, no static
    correction (the truncation of a ROM with 'Static correction order = 0'); Rayleigh zeta_r =
    alpha/(2 omega_r) + beta omega_r/2. Modes phi_r = (ch - c - sigma (sh - s))/sqrt(m L), int phi_r^2 = 1/m."""
    L, EI, m, Th, Cp = beam["L"], beam["EI"], beam["m"], beam["Theta"], beam["C"]
    w = 2 * math.pi * f
    s_cc, s_cp = 0j, 0j
    for r in range(n_modes):
        guess = (2 * r + 1) * math.pi / 2
        bL = brentq(lambda x: math.cos(x) + 1 / math.cosh(x), guess - 0.6, guess + 0.6, xtol=1e-15)
        ch, sh, c, sn = math.cosh(bL), math.sinh(bL), math.cos(bL), math.sin(bL)
        sigma = (sh - sn) / (ch + c)
        norm = 1 / math.sqrt(m * L)
        slope = norm * bL / L * (sh + sn - sigma * (ch - c))
        integral = norm * L / bL * (sh - sn - sigma * (ch + c - 2))
        w_r = bL**2 / L**2 * math.sqrt(EI / m)
        zeta = alpha / (2 * w_r) + beta * w_r / 2
        D = w_r**2 - w**2 + 2j * zeta * w_r * w
        s_cc += (Th * slope) ** 2 / D
        s_cp += Th * slope * m * integral / D
    return 1j * w * a * s_cp / (1 / R + 1j * w * Cp + 1j * w * s_cc)


UNIMORPH_DAMPING = (4.886, 1.2433e-5)  # Rayleigh alpha (1/s), beta (s) of Case 1c
BIMORPH_BETA = 1.3640e-5  # zeta_1 = 0.0088 at a 1 g tip mass


def grid_checks():
    """prm/studies/unimorph_tip_mass_load_grid.prm: every row."""
    beam, checks, row = unimorph_1c(), [], 0
    src = "exact Euler-Bernoulli BVP with tip mass and Rayleigh damping, tests/reference/tip_mass_harvester.py"
    for M in (0, 0.005, 0.01, 0.02):
        f = f_sc(beam, M)
        R_opt, P_max = optimal_load(beam, M, f, 1.0, *UNIMORPH_DAMPING)
        for R in (1e3, 1e4, 1e5, 1e6):
            P, f_peak = peak_over_frequency(beam, M, R, 1.0, 12, 60, *UNIMORPH_DAMPING)
            for column, value, tol, what in (
                    ("modes/0/frequency_hz", f, 1e-9, "f_sc: root of 1 + cos cosh + mu l (cos sinh - sin cosh)"),
                    ("harvester/peaks/0/frequency_hz", f_peak, 1e-7, "frequency of the largest power for R"),
                    ("harvester/peaks/0/power_W", P, 1e-7, "largest power over frequency for R"),
                    ("harvester/optimal_loads/0/optimal_resistance_ohm", R_opt, 1e-6,
                     "optimal load at f_sc (a flat maximum: found to sqrt(eps))"),
                    ("harvester/optimal_loads/0/max_power_W", P_max, 1e-8, "maximum power at f_sc")):
                checks.append(dict(file="study.csv", row=row, column=column, value=value, rel_tol=tol,
                                   source=f"{what}; {src}"))
            row += 1
    return checks


def monte_carlo(n=100, seed=7):
    """prm/studies/bimorph_tip_mass_monte_carlo.prm: the samples and their exact quantities."""
    samples = monte_carlo_samples([(1e-3, 0.05, "uniform"), (-16.6, 0.10, "uniform"), (BIMORPH_BETA, 0.20, "uniform")],
                                  n, seed)
    rows = []
    for M, e31, beta in samples:
        beam = bimorph_1b(e31)
        f = f_sc(beam, M)
        R, P = optimal_load(beam, M, f, 9.81, 0, beta)
        rows.append((f, R, P))
    return samples, rows


def monte_carlo_checks():
    samples, rows = monte_carlo()
    src = ("the study's samples drawn again (mt19937_64 written out here) and solved by the exact Euler-Bernoulli "
           "BVP with tip mass, tests/reference/tip_mass_harvester.py")
    names = ("modes/0/frequency_hz", "harvester/optimal_loads/0/optimal_resistance_ohm",
             "harvester/optimal_loads/0/max_power_W")
    tols = (1e-9, 1e-6, 1e-8)
    checks, csv_checks = [], []
    for i in range(0, len(rows), 11):
        for c, (name, tol) in enumerate(zip(names, tols)):
            csv_checks.append(dict(file="study.csv", row=i, column=name, value=rows[i][c], rel_tol=tol, source=src))
        for p, x in enumerate(samples[i]):
            checks.append(dict(path=f"points/{i}/values/{p}", value=x, rel_tol=1e-15,
                               source="the sample, doc/studies.md (mt19937_64, 53-bit uniforms)"))
    for c, (name, tol) in enumerate(zip(names, tols)):
        values = np.array([r[c] for r in rows])
        checks.append(dict(path=f"statistics/{c}/mean", value=float(values.mean()), rel_tol=tol, source=src))
        checks.append(dict(path=f"statistics/{c}/standard_deviation", value=float(values.std(ddof=1)),
                           rel_tol=max(tol, 1e-7) * 100, source=src + " (a difference of nearly equal numbers)"))
    return checks, csv_checks


def linearized_propagation():
    """First-order mean and standard deviation of f_sc and P_max (uniform inputs: sigma = tol x nominal/sqrt 3)."""
    nominal = np.array([1e-3, -16.6, BIMORPH_BETA])
    sigma = nominal * np.array([0.05, 0.10, 0.20]) / math.sqrt(3)

    def quantities(x):
        beam = bimorph_1b(x[1])
        f = f_sc(beam, x[0])
        return np.array([f, optimal_load(beam, x[0], f, 9.81, 0, x[2])[1]])

    q0 = quantities(nominal)
    grad = []
    for k in range(3):
        h = np.zeros(3)
        h[k] = 1e-4 * nominal[k]
        grad.append((quantities(nominal + h) - quantities(nominal - h)) / (2 * h[k]))
    std = np.sqrt(sum((g * s) ** 2 for g, s in zip(grad, sigma)))
    return q0, std


def optimum_checks():
    """prm/studies/bimorph_optimal_tip_mass_load.prm: the global maximum of the average power at 180 Hz, 0.5 g over
    M in [1.2, 1.8] g, R in [1e4, 2e6] Ohm: a fine grid (61 x 121, log R), refined from its best node."""
    from scipy.optimize import minimize
    beam, f, a = bimorph_1b(), 180.0, 0.5 * 9.81
    P = lambda M, R: power(beam, M, R, f, a, 0, BIMORPH_BETA, average=True)
    best = max((P(M, 10**x), M, x) for M in np.linspace(1.2e-3, 1.8e-3, 61) for x in np.linspace(4, math.log10(2e6), 121))
    r = minimize(lambda y: -P(y[0] * 1e-3, 10 ** y[1]), (best[1] * 1e3, best[2]), method="Nelder-Mead",
                 options=dict(xatol=1e-12, fatol=1e-20, maxiter=10000))
    M, R, value = r.x[0] * 1e-3, 10 ** r.x[1], -r.fun
    src = ("fine grid 61 x 121 of the exact Euler-Bernoulli BVP with tip mass over the bounds, refined by "
           "Nelder-Mead, tests/reference/tip_mass_harvester.py (grid maximum %.6e W)" % best[0])
    return [dict(path="optimum/value", value=value, rel_tol=1e-10, source=src),
            dict(path="optimum/parameters/0", value=M, rel_tol=1e-7, source=src),
            dict(path="optimum/parameters/1", value=R, rel_tol=1e-5, source=src + " (R: a flat direction)")]


def main():
    import json
    import sys
    which = sys.argv[1] if len(sys.argv) > 1 else ""
    if which == "grid":
        print(json.dumps(grid_checks(), indent=2))
    elif which == "monte_carlo":
        print(json.dumps(monte_carlo_checks(), indent=2))
    elif which == "optimum":
        print(json.dumps(optimum_checks(), indent=2))
    else:
        q0, std = linearized_propagation()
        print(f"Monte Carlo, first order: f_sc {q0[0]:.6f} Hz, std {std[0]:.6f} Hz; P_max {q0[1]:.6e} W, "
              f"std {std[1]:.6e} W")
        samples, rows = monte_carlo()
        for c, name in ((0, "f_sc"), (2, "P_max")):
            v = np.array([r[c] for r in rows])
            print(f"  the 100 samples: {name} mean {v.mean():.6g}, std {v.std(ddof=1):.6g}")
        print("optimum:", optimum_checks()[0]["value"], optimum_checks()[1]["value"], optimum_checks()[2]["value"])


if __name__ == "__main__":
    main()
