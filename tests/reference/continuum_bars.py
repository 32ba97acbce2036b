#!/usr/bin/python3
"""Short- and open-circuit frequencies of the free C2 bars of doc/validation-data.md
(PZT-5A strain-charge set, 33 bar 20 x 1 x 1 mm with end electrodes, 31 bar 20 x 2 x 1 mm
with electrodes on the 20 x 2 mm faces) in the one-dimensional theory and in the
Rayleigh-Love rod, which adds the kinetic energy of the lateral motion.

The 1D rod (uniaxial stress T, one electrical unknown g that does not depend on x: the
field E3 of the 31 bar, the displacement D3 of the 33 bar) has the energy density
    31 bar (electric enthalpy): H = a S^2/2 - b S E - c E^2/2,  a = 1/s11^E, b = d31/s11^E,
                                c = eps33^T - d31^2/s11^E;
    33 bar (internal energy):   U = a S^2/2 - b S D + c D^2/2,  a = 1/s33^D, b = g33/s33^D,
                                c = beta33^T + g33^2/s33^D (g33 = d33/eps33^T, s33^D = s33^E
                                - d33^2/eps33^T, beta33^T = 1/eps33^T),
and S = u'. Love: a point (y, z) of the section (centroidal axes) moves laterally by
y S_y, z S_z, where the lateral strains at T = 0 in the lateral directions are
S_y = -nu_y S + alpha_y g, S_z = -nu_z S + alpha_z g (from the same constitutive law),
so the kinetic energy per length is rho A u_t^2/2 + rho (R_nn S_t^2 - 2 R_na S_t g_t
+ R_aa g_t^2)/2, R_nn = nu_y^2 I_z + nu_z^2 I_y, R_na = nu_y alpha_y I_z + nu_z alpha_z I_y,
R_aa = alpha_y^2 I_z + alpha_z^2 I_y, I_z = int y^2 dA, I_y = int z^2 dA. At angular
frequency w the axial force is N = A_e S - P g, A_e = A a - rho w^2 R_nn, P = A b -
rho w^2 R_na; N' + rho A w^2 u = 0 with N = 0 at both ends gives the symmetric (first
extensional) mode u = B sin(k (x - L/2)), k^2 = rho A w^2 / A_e, and
  * g fixed at 0 (31 bar short circuit E3 = 0, 33 bar open circuit D3 = 0): k L = pi;
  * g free (31 bar open circuit: no charge; 33 bar short circuit: no voltage): the
    stationarity in g, P int S dx + (s A c + rho w^2 R_aa) L g = 0 (s = +1 for the enthalpy,
    -1 for the energy), with A_e B k cos(k L/2) = P g, gives the characteristic equation
        A_e k cos(k L/2) (s A c + rho w^2 R_aa) L + 2 P^2 sin(k L/2) = 0.
Without lateral inertia (R = 0) these are the IEEE Std 176 relations of continuum.py (the
script checks it). The Love rod neglects lateral shear (Mindlin-Herrmann), the non-uniform
field over the section and the end effects of the lateral motion: its error is of order
(k r)^4 ~ 1e-7 here, against the O((k r)^2) ~ 1e-4 it adds.

The 31 bar also for L = 10, 40, 80 mm (the same 2 x 1 mm section): the limit of growing
aspect ratio, where the Love correction falls as (T/L)^2.

Also the clamped capacitance of the 33 bar, eps33^S A/L (u = 0: uniform field), with
eps33^S = eps33^T - d^T (s^E)^-1 d converted from the strain-charge set.

usage: python3 tests/reference/continuum_bars.py     (under 1 s; writes nothing)
"""
import mpmath as mp

mp.mp.dps = 30
EPS0 = mp.mpf("8.854187817e-12")
P = dict(s11="16.4e-12", s12="-5.74e-12", s13="-7.22e-12", s33="18.8e-12",
         d31="-171e-12", d33="374e-12", eps33T="1700", rho="7750")
m = {k: mp.mpf(v) for k, v in P.items()}
m["eps33T"] *= EPS0
rho = m["rho"]


def frequency(a, b, c, sign, nu, alpha, inertia, area, length, g_free, with_love=True):
    """First extensional frequency (Hz) of the free rod. nu, alpha, inertia: pairs for the
    two lateral directions (inertia = (I_z, I_y))."""
    Rnn = sum(n * n * i for n, i in zip(nu, inertia)) if with_love else 0
    Rna = sum(n * al * i for n, al, i in zip(nu, alpha, inertia)) if with_love else 0
    Raa = sum(al * al * i for al, i in zip(alpha, inertia)) if with_love else 0
    k_fixed = mp.pi / length
    w_fixed = mp.sqrt(k_fixed**2 * area * a / (rho * (area + k_fixed**2 * Rnn)))
    if not g_free:
        return w_fixed / (2 * mp.pi)

    def det(w):
        Ae = area * a - rho * w**2 * Rnn
        Pw = area * b - rho * w**2 * Rna
        k = mp.sqrt(rho * area * w**2 / Ae)
        return Ae * k * mp.cos(k * length / 2) * (sign * area * c + rho * w**2 * Raa) * length + 2 * Pw**2 * mp.sin(k * length / 2)

    # the root lies between the two fixed-g frequencies of the same rod (sc below oc)
    w = mp.findroot(det, w_fixed * (mp.mpf("0.75") if sign < 0 else mp.mpf("1.05")))
    return w / (2 * mp.pi)


def bar31(L=mp.mpf("20e-3")):
    W, T = mp.mpf("2e-3"), mp.mpf("1e-3")
    s11, s12, s13, d31, d33, epsT = m["s11"], m["s12"], m["s13"], m["d31"], m["d33"], m["eps33T"]
    a, b, c = 1 / s11, d31 / s11, epsT - d31**2 / s11
    nu = (-s12 / s11, -s13 / s11)
    alpha = (d31 * (1 - s12 / s11), d33 - s13 * d31 / s11)
    inertia = (T * W**3 / 12, W * T**3 / 12)
    args = (a, b, c, +1, nu, alpha, inertia, W * T, L)
    return {"f_r": (frequency(*args, False, False), frequency(*args, False)),
            "f_a": (frequency(*args, True, False), frequency(*args, True))}


def bar33():
    L, A = mp.mpf("20e-3"), mp.mpf("1e-3")
    s13, s33, d31, d33, epsT = m["s13"], m["s33"], m["d31"], m["d33"], m["eps33T"]
    s33D, s13D = s33 - d33**2 / epsT, s13 - d31 * d33 / epsT
    g31, g33 = d31 / epsT, d33 / epsT
    a, b, c = 1 / s33D, g33 / s33D, 1 / epsT + g33**2 / s33D
    nu = (-s13D / s33D,) * 2
    alpha = (g31 - s13D * g33 / s33D,) * 2
    inertia = (A**4 / 12,) * 2
    args = (a, b, c, -1, nu, alpha, inertia, A * A, L)
    out = {"f_r": (frequency(*args, True, False), frequency(*args, True)),
           "f_a": (frequency(*args, False, False), frequency(*args, False))}
    # clamped capacitance: eps33^S from the full conversion
    s = mp.matrix([[m["s11"], m["s12"], s13], [m["s12"], m["s11"], s13], [s13, s13, s33]])
    d = mp.matrix([[d31, d31, d33]])
    epsS = epsT - (d * s**-1 * d.T)[0, 0]
    out["C_clamped"] = epsS * A * A / L
    return out


def main():
    # the 1D limits against continuum.py's closed forms (IEEE Std 176)
    documented = {("31", "f_r"): "70124.0891817", ("31", "f_a"): "73747.3460392",
                  ("33", "f_r"): "68690.7030557", ("33", "f_a"): "92100.5736779"}
    for name, values in (("31", bar31()), ("33", bar33())):
        print(f"C2 {name} bar, PZT-5A (strain-charge set), L = 20 mm")
        for key in ("f_r", "f_a"):
            one_d, love = values[key]
            assert abs(one_d / mp.mpf(documented[(name, key)]) - 1) < mp.mpf("1e-11"), "1D limit differs from continuum.py"
            print(f"  {key}: 1D {mp.nstr(one_d, 12):>16s} Hz   Rayleigh-Love {mp.nstr(love, 12):>16s} Hz   "
                  f"(Love - 1D)/1D = {mp.nstr(love / one_d - 1, 4)}")
        if "C_clamped" in values:
            print(f"  clamped capacitance eps33^S A/L = {mp.nstr(values['C_clamped'], 12)} F "
                  f"(eps33^S = {mp.nstr(values['C_clamped'] * mp.mpf('20e-3') / mp.mpf('1e-6') / EPS0, 8)} eps0)")
    print("C2 31 bar, 2 x 1 mm section: growing aspect ratio")
    for length in ("10e-3", "20e-3", "40e-3", "80e-3"):
        values = bar31(mp.mpf(length))
        print(f"  L = {mp.nstr(mp.mpf(length) * 1000, 3):>4s} mm: " + "   ".join(
            f"{key} 1D {mp.nstr(values[key][0], 10)} Hz, Love {mp.nstr(values[key][1], 10)} Hz "
            f"({mp.nstr(values[key][1] / values[key][0] - 1, 3)})" for key in ("f_r", "f_a")))


if __name__ == "__main__":
    main()
