#!/usr/bin/python3
"""Exact Euler-Bernoulli values of the piezoelectric cantilevers of Cases 1b and 1c
(doc/validation-data.md), independent of Hamilton's finite elements.

* Short circuit: a uniform clamped-free beam, cos(bL) cosh(bL) = -1.
* Open circuit of a full-length electrode (one equipotential, zero net charge):
  the same beam with a tip rotational spring k_r = Theta^2/C, Theta the coupling
  per unit tip slope (Case 3a): EI w''(L) + k_r w'(L) = 0, EI w'''(L) = 0.
  Characteristic determinant solved with mpmath (30 digits).
* Harvester: the distributed-parameter model of Erturk & Inman (J. Vib. Acoust.
  130 (2008) 041002; Proc. IMechE I 225 (2011) 485) in the exact short-circuit
  modes, with the sums over modes split into their exact static values
  (Theta^2 L/EI and Theta m L^3/(6 EI)) plus dynamic remainders that decay like
  r^-4 (2000 modes). Modal damping zeta on every mode (Hamilton's "the last
  ratio applies to all higher modes"). Gives |V|, the optimal load R_opt
  maximizing the peak power |V|^2/R and P_max, for the full (converged) model
  and for the single-mode model (paper eq. 41).

usage: python3 piezo_beams.py        prints every value (about 20 s)
"""
import mpmath as mp

mp.mp.dps = 30
G = mp.mpf("9.81")


def bimorph_1b():
    """Case 1b: PZT-5H/brass bimorph, series connection (Table 2 of Erturk & Inman 2011)."""
    L, b, hp, hs = mp.mpf("24.53e-3"), mp.mpf("6.4e-3"), mp.mpf("0.265e-3"), mp.mpf("0.14e-3")
    Yp, Ys, rp, rs = mp.mpf("60.6e9"), mp.mpf("105e9"), mp.mpf(7500), mp.mpf(9000)
    e31, eps = mp.mpf("-16.6"), mp.mpf("25.55e-9")
    EI = b * (Ys * hs**3 / 12 + 2 * Yp * ((hs / 2 + hp) ** 3 - (hs / 2) ** 3) / 3)
    m = b * (rs * hs + 2 * rp * hp)
    Theta = e31 * b * (hp + hs) / 2  # series: moment per volt = Theta, charge per tip slope = Theta
    C = eps * b * L / (2 * hp)
    return dict(L=L, EI=EI, m=m, Theta=Theta, C=C)


def unimorph_1c():
    """Case 1c: PZT-5A unimorph (Table 1 and Appendix A1 of Erturk & Inman 2008)."""
    L, b, hp, hs = mp.mpf("0.1"), mp.mpf("0.02"), mp.mpf("0.4e-3"), mp.mpf("0.5e-3")
    Yp, Ys, rp, rs = mp.mpf("66e9"), mp.mpf("100e9"), mp.mpf(7800), mp.mpf(7165)
    e31, eps = mp.mpf("-12.54"), mp.mpf("15.93e-9")
    n = Ys / Yp
    hpa = (hp**2 + 2 * n * hp * hs + n * hs**2) / (2 * (hp + n * hs))
    hsa = (hp**2 + 2 * hp * hs + n * hs**2) / (2 * (hp + n * hs))
    ha, hb, hc = -hsa, hpa - hp, hpa
    EI = b / 3 * (Ys * (hb**3 - ha**3) + Yp * (hc**3 - hb**3))
    m = b * (rs * hs + rp * hp)
    Theta = -e31 * b / (2 * hp) * (hc**2 - hb**2)
    C = eps * b * L / hp
    return dict(L=L, EI=EI, m=m, Theta=Theta, C=C)


def determinant(bL, kappa):
    """Clamped end at 0; at L: w'' + kappa w' = 0 (kappa = k_r L/EI), w''' = 0; w = A(ch - c) + B(sh - s)."""
    ch, sh, c, s = mp.cosh(bL), mp.sinh(bL), mp.cos(bL), mp.sin(bL)
    # derivatives in units of (b)^k; rows: moment (w'' + kappa w'/bL), shear w'''
    m_A = (ch + c) + kappa / bL * (sh + s)
    m_B = (sh + s) + kappa / bL * (ch - c)
    v_A = sh - s
    v_B = ch + c
    return m_A * v_B - m_B * v_A


def frequencies(beam, n_modes=3, open_circuit=False):
    """First n_modes natural frequencies (Hz), short or open circuit."""
    L, EI, m = beam["L"], beam["EI"], beam["m"]
    kappa = beam["Theta"] ** 2 / beam["C"] * L / EI if open_circuit else 0
    roots = []
    for r in range(1, n_modes + 1):
        lo, hi = (r - 1) * mp.pi + mp.mpf("0.1"), r * mp.pi + mp.mpf("0.1")
        roots.append(mp.findroot(lambda x: determinant(x, kappa) / mp.cosh(x), (lo, hi), solver="anderson"))
    return [x**2 / L**2 * mp.sqrt(EI / m) / (2 * mp.pi) for x in roots]


def cantilever_roots(n):
    """beta_r L of cos cosh = -1, r = 1..n."""
    out = []
    for r in range(1, n + 1):
        guess = (2 * r - 1) * mp.pi / 2
        out.append(mp.findroot(lambda x: mp.cos(x) + 1 / mp.cosh(x), guess) if r < 30 else guess)
    return out


def modal_data(beam, n):
    """omega_r, chi_r = Theta phi_r'(L), p_r = m int phi_r (mass-normalized exact modes)."""
    L, EI, m, Theta = beam["L"], beam["EI"], beam["m"], beam["Theta"]
    data = []
    for bL in cantilever_roots(n):
        ch, sh, c, s = mp.cosh(bL), mp.sinh(bL), mp.cos(bL), mp.sin(bL)
        sigma = (sh - s) / (ch + c)
        norm = 1 / mp.sqrt(m * L)  # int_0^L phi^2 = L for this form
        slope = norm * bL / L * (sh + s - sigma * (ch - c))
        integral = norm * L / bL * (sh - s - sigma * (ch + c - 2))
        data.append((bL**2 / L**2 * mp.sqrt(EI / m), Theta * slope, m * integral))
    return data


def voltage(beam, data, R, omega, zeta, a=G, static_correction=True):
    """Complex voltage amplitude for base acceleration a (m/s^2) and load R."""
    L, EI, m, Theta, C = beam["L"], beam["EI"], beam["m"], beam["Theta"], beam["C"]
    iw = 1j * omega
    s_cc = Theta**2 * L / EI if static_correction else 0  # sum chi_r^2/omega_r^2
    s_cp = Theta * m * L**3 / (6 * EI) if static_correction else 0  # sum chi_r p_r/omega_r^2
    for w_r, chi, p in data:
        D = w_r**2 - omega**2 + 2j * zeta * w_r * omega
        sub = 1 / w_r**2 if static_correction else 0
        s_cc += chi**2 * (1 / D - sub)
        s_cp += chi * p * (1 / D - sub)
    return iw * a * s_cp / (1 / R + iw * C + iw * s_cc)


def optimum(beam, data, omega, zeta, static_correction=True, bracket=(3, 5)):
    """R maximizing the peak power |V|^2/R at omega, and that power."""
    P = lambda logR: abs(voltage(beam, data, 10**logR, omega, zeta, static_correction=static_correction)) ** 2 / 10**logR
    dP = lambda logR: mp.diff(P, logR)
    x = mp.findroot(dP, tuple(mp.mpf(v) for v in bracket), solver="anderson")
    return 10**x, P(x)


def main():
    for name, beam in (("Case 1b bimorph", bimorph_1b()), ("Case 1c unimorph", unimorph_1c())):
        sc, oc = frequencies(beam), frequencies(beam, open_circuit=True)
        print(f"{name}: EI = {mp.nstr(beam['EI'], 12)} N m^2, m = {mp.nstr(beam['m'], 12)} kg/m, "
              f"C = {mp.nstr(beam['C'], 15)} F, k_r = Theta^2/C = {mp.nstr(beam['Theta']**2 / beam['C'], 12)} N m")
        print("  f_sc (Hz):", ", ".join(mp.nstr(f, 16) for f in sc))
        print("  f_oc (Hz):", ", ".join(mp.nstr(f, 16) for f in oc))
        kappa = beam["Theta"] / beam["EI"]  # curvature per volt of the full-length electrode (Case 3a)
        print(f"  static tip deflection for 1 V, kappa L^2/2: {mp.nstr(kappa * beam['L'] ** 2 / 2, 16)} m")
        K2 = (oc[0] ** 2 - sc[0] ** 2) / sc[0] ** 2
        w_sc, w_oc = 2 * mp.pi * sc[0], 2 * mp.pi * oc[0]
        print(f"  RL shunt (Case 3b, mode 1): K^2 = {mp.nstr(K2, 16)}, Hagood-von Flotow L = 1/(C w_oc^2) = "
              f"{mp.nstr(1 / (beam['C'] * w_oc**2), 16)} H, R = sqrt(2) K/(1 + K^2)/(C w_sc) = "
              f"{mp.nstr(mp.sqrt(2) * mp.sqrt(K2) / (1 + K2) / (beam['C'] * w_sc), 16)} Ohm")
    beam, zeta = bimorph_1b(), mp.mpf("0.0088")
    data = modal_data(beam, 2000)
    w1, chi1, p1 = data[0]
    gamma = chi1**2 / (beam["C"] * w1**2)
    print(f"Case 1b: gamma_1 = chi_1^2/(C omega_1^2) = {mp.nstr(gamma, 12)}")
    V = voltage(beam, data, 470, w1, zeta)
    print(f"  |V| at f_sc, 470 Ohm, 1 g, zeta 0.0088 on every mode: {mp.nstr(abs(V), 12)} V")
    absV = lambda w: abs(voltage(beam, data, 470, w, zeta))
    w_peak = mp.findroot(lambda w: mp.diff(absV, w), w1)
    print(f"  470 Ohm: largest |V| {mp.nstr(absV(w_peak), 12)} V at {mp.nstr(w_peak / (2 * mp.pi), 12)} Hz")
    R, P = optimum(beam, data, w1, zeta)
    print(f"  full model at f_sc: R_opt = {mp.nstr(R, 12)} Ohm, P_max = {mp.nstr(P, 12)} W (peak)")
    R1, P1 = optimum(beam, data[:1], w1, zeta, static_correction=False)
    eq41 = 1 / (w1 * beam["C"] * mp.sqrt(1 + (gamma / (2 * zeta)) ** 2))
    print(f"  single mode at f_sc: R_opt = {mp.nstr(R1, 12)} Ohm (eq. 41: {mp.nstr(eq41, 12)}), "
          f"P_max = {mp.nstr(P1, 12)} W")
    w_oc = frequencies(beam, 1, open_circuit=True)[0] * 2 * mp.pi
    R, P = optimum(beam, data, w_oc, zeta, bracket=(5, 5.6))
    print(f"  full model at the exact f_oc: R_opt = {mp.nstr(R, 12)} Ohm, P_max = {mp.nstr(P, 12)} W")


if __name__ == "__main__":
    main()
