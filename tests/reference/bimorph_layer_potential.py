#!/usr/bin/python3
"""Case C4 (doc/validation-data.md): the Euler-Bernoulli bimorph of piezo_beams.py
(Case 1b) with the potential that Gauss's law puts through each piezoelectric layer, the
independent estimate of the 2D plane-stress continuum (prm/continuum/c4_bimorph_2d.prm).

The beam theory takes the field in each layer uniform, E = V/h_p. But D_z does not vary
through a thin layer (dD_z/dz = 0, no free charge), so with the bending strain S(z), linear
in z, E(z) = (D - e S(z))/eps is linear as well: its mean is V/h_p (the beam's field, with
the beam's coupling Theta and capacitance C) and its zero-mean part, -e (S - S_mean)/eps,
stiffens each layer's bending about its own centroid from c to c + e^2/eps:
    EI' = EI + 2 b (h_p^3/12) e^2/eps,
in short and open circuit alike (the zero-mean part carries no net charge). Constants: the
PZT-5H stress-charge set of continuum.md reduced to a beam (uniaxial stress): c = 1/s11^E,
e = d31/s11^E, eps = eps33^T - d31^2/s11^E, computed from the 3D set as continuum.py does
(60.6055 GPa, -16.6056 C/m^2, 25.554 nF/m; the beam example rounds them to 60.6, -16.6,
25.55). Frequencies: the exact short- and open-circuit characteristic equations of
piezo_beams.py. Also the clamped (u = 0) capacitance of the 2D plane-stress model, with the
plane-stress permittivity eps33^S + e31^2/c11^E: C = eps b L/(2 h_p) (two layers in series).

usage: python3 tests/reference/bimorph_layer_potential.py     (about 1 s; writes nothing)
"""
import mpmath as mp

import piezo_beams as pb

mp.mp.dps = 30
EPS0 = mp.mpf("8.854187817e-12")


def pzt5h_beam_constants():
    """c, e, eps of the beam (uniaxial stress along x, E along z) from the 3D stress-charge set."""
    c11, c12, c13, c33 = (mp.mpf(v) * mp.mpf("1e9") for v in ("127.205", "80.2122", "84.6702", "117.436"))
    e31, e33 = mp.mpf("-6.62281"), mp.mpf("23.2403")
    eps33 = mp.mpf("1433.6") * EPS0
    # eliminate S2 (sigma_yy = 0), then S3 (sigma_zz = 0)
    pc11, pc13, pc33 = c11 - c12**2 / c11, c13 - c12 * c13 / c11, c33 - c13**2 / c11
    pe31, pe33, peps = e31 * (1 - c12 / c11), e33 - c13 * e31 / c11, eps33 + e31**2 / c11
    c = pc11 - pc13**2 / pc33
    e = pe31 - pc13 * pe33 / pc33
    eps = peps + pe33**2 / pc33
    return c, e, eps, peps


def beam(c, e, eps, layer_potential):
    L, b, hp, hs = mp.mpf("24.53e-3"), mp.mpf("6.4e-3"), mp.mpf("0.265e-3"), mp.mpf("0.14e-3")
    Ys, rp, rs = mp.mpf("105e9"), mp.mpf(7500), mp.mpf(9000)
    EI = b * (Ys * hs**3 / 12 + 2 * c * ((hs / 2 + hp) ** 3 - (hs / 2) ** 3) / 3)
    if layer_potential:
        EI += 2 * b * hp**3 / 12 * e**2 / eps
    return dict(L=L, EI=EI, m=b * (rs * hs + 2 * rp * hp), Theta=e * b * (hp + hs) / 2, C=eps * b * L / (2 * hp))


def main():
    c, e, eps, eps_plane_stress = pzt5h_beam_constants()
    print(f"PZT-5H beam constants from the 3D set: c = {mp.nstr(c / 1e9, 8)} GPa, e = {mp.nstr(e, 8)} C/m^2, "
          f"eps = {mp.nstr(eps * 1e9, 8)} nF/m; e^2/eps = {mp.nstr(e**2 / eps / 1e9, 6)} GPa")
    rows = (("beam, piezo_beams.py constants (60.6, -16.6, 25.55)", pb.bimorph_1b()),
            ("beam, constants of the 3D set", beam(c, e, eps, False)),
            ("beam + potential through each layer", beam(c, e, eps, True)))
    for label, bm in rows:
        f_sc = pb.frequencies(bm, 1)[0]
        f_oc = pb.frequencies(bm, 1, open_circuit=True)[0]
        k = mp.sqrt(1 - (f_sc / f_oc) ** 2)
        print(f"  {label:52s} f_sc = {mp.nstr(f_sc, 10):>12s} Hz  f_oc = {mp.nstr(f_oc, 10):>12s} Hz  k_eff = {mp.nstr(k, 8)}")
    base, corrected = beam(c, e, eps, False), beam(c, e, eps, True)
    print(f"  EI' / EI = {mp.nstr(corrected['EI'] / base['EI'], 10)}")
    # the harvester (prm/continuum/c4_bimorph_2d_harvester.prm): zeta = 0.0088 on every mode,
    # 1 g, peak power |V|^2/R; the distributed-parameter model of piezo_beams.py
    zeta = mp.mpf("0.0088")
    for label, bm in (("beam, constants of the 3D set", base), ("beam + potential through each layer", corrected)):
        data = pb.modal_data(bm, 2000)
        w_sc = data[0][0]
        w_oc = 2 * mp.pi * pb.frequencies(bm, 1, open_circuit=True)[0]
        V = abs(pb.voltage(bm, data, 470, w_sc, zeta))
        R_sc, P_sc = pb.optimum(bm, data, w_sc, zeta)
        R_oc, P_oc = pb.optimum(bm, data, w_oc, zeta, bracket=(5, 5.6))
        print(f"  {label}: |V| at f_sc, 470 Ohm, 1 g = {mp.nstr(V, 10)} V; at f_sc R_opt = {mp.nstr(R_sc, 10)} Ohm, "
              f"P_max = {mp.nstr(P_sc, 10)} W; at f_oc R_opt = {mp.nstr(R_oc, 10)} Ohm, P_max = {mp.nstr(P_oc, 10)} W")
    # RL shunt on mode 1: the capacitance with mode 1 blocked, C + sum_{r > 1} chi_r^2/omega_r^2
    # = C + Theta^2 L/EI - chi_1^2/omega_1^2 (static correction of the beam), and the
    # Hagood-von Flotow tuning L = 1/(C' omega_oc^2), R = sqrt(2) K/(1 + K^2)/(C' omega_sc)
    bm = corrected
    w1, chi1, p1 = pb.modal_data(bm, 1)[0]
    C_blocked = bm["C"] + bm["Theta"] ** 2 * bm["L"] / bm["EI"] - chi1**2 / w1**2
    f_sc, f_oc = pb.frequencies(bm, 1)[0], pb.frequencies(bm, 1, open_circuit=True)[0]
    K2 = (f_oc**2 - f_sc**2) / f_sc**2
    w_sc, w_oc = 2 * mp.pi * f_sc, 2 * mp.pi * f_oc
    print(f"  RL shunt, beam + potential through each layer: K^2 = {mp.nstr(K2, 10)}, C with mode 1 blocked = "
          f"{mp.nstr(C_blocked, 10)} F (C = {mp.nstr(bm['C'], 10)} F), L_hvf = {mp.nstr(1 / (C_blocked * w_oc**2), 10)} H, "
          f"R_hvf = {mp.nstr(mp.sqrt(2 * K2) / (1 + K2) / (C_blocked * w_sc), 10)} Ohm")
    C2d = eps_plane_stress * mp.mpf("6.4e-3") * mp.mpf("24.53e-3") / (2 * mp.mpf("0.265e-3"))
    print(f"2D plane stress, clamped capacitance (eps33^S + e31^2/c11) b L/(2 h_p) = {mp.nstr(C2d, 12)} F")


if __name__ == "__main__":
    main()
