#!/usr/bin/python3
"""A second algorithm for the lumped examples whose results have no closed
form: the equations of motion derived by hand (written out below, not taken
from Hamilton) and integrated with SciPy's DOP853 at rtol 1e-13.

* prm/lumped/scotch_yoke_dc_motor.prm, equations (95)-(96) of
  Manhaes et al. 2018:
    (jm + mc d^2 sin^2 a) a'' + mc d^2 sin a cos a a'^2 + bm a' - ke i = 0
    l i' + r i + ke a' = v
* prm/lumped/scotch_yoke_common_mistake.prm, the same disk with the torque
  imposed as ke (v - ke a')/r - bm a' (no current, no inductance).
* prm/lumped/overhead_crane.prm (Hoang and Vuong 2019, section 3.1), n = r/r_w = 10/0.025:
    (mt + mp + n^2 Im) x'' + mp l (th'' cos th - th'^2 sin th) + (d1 + n^2 dm) x' = n Kt i
    mp l^2 th'' + mp l x'' cos th + mp g l sin th = 0
    La i' + Ra i + n Ke x' = u
  The source work booked for Kt != Ke is int (Kt - Ke) i n x' dt.

usage: python3 lumped_ode.py
"""
import numpy as np
from scipy.integrate import solve_ivp
from scipy.optimize import minimize_scalar

RTOL, ATOL = 1e-13, 1e-14


def scotch_yoke(coupled, t_eval):
    jm, mc, d, l, r, ke, bm, v = 1.0e-4, 0.5, 0.02, 1e-3, 1.2, 1.1e-2, 1.0e-6, 12.0

    def rhs(t, y):
        a, ad, i, work = y
        inertia = jm + mc * d * d * np.sin(a) ** 2
        if coupled:
            torque = ke * i - bm * ad
            di = (v - r * i - ke * ad) / l
            power = v * i  # the source's work
        else:
            torque = ke * (v - ke * ad) / r - bm * ad
            di = 0.0
            power = torque * ad  # the imposed generalized force's work
        add = (torque - mc * d * d * np.sin(a) * np.cos(a) * ad * ad) / inertia
        return [ad, add, di, power]

    return solve_ivp(rhs, (0, t_eval[-1]), [0, 0, 0, 0], method="DOP853", rtol=RTOL, atol=ATOL,
                     t_eval=t_eval, dense_output=True)


def crane():
    mt, mp, l, g, d1 = 2.0, 0.85, 0.7, 9.81, 2.0
    n, Ra, La, Ke, Kt, Im, dm, u = 10 / 0.025, 1.0, 0.001, 0.1, 1.0, 0.001, 0.1, 10.0

    def rhs(t, y):
        x, th, xd, thd, i, work = y
        M = np.array([[mt + mp + n * n * Im, mp * l * np.cos(th)], [mp * l * np.cos(th), mp * l * l]])
        f = np.array([n * Kt * i - (d1 + n * n * dm) * xd + mp * l * thd * thd * np.sin(th), -mp * g * l * np.sin(th)])
        xdd, thdd = np.linalg.solve(M, f)
        return [xd, thd, xdd, thdd, (u - Ra * i - n * Ke * xd) / La, (Kt - Ke) * i * n * xd]

    t = np.arange(0, 5 + 1e-9, 0.005)
    return solve_ivp(rhs, (0, 5), [0, 0, 0, 0, 0, 0], method="DOP853", rtol=RTOL, atol=ATOL, t_eval=t,
                     dense_output=True)


def main():
    t = np.array([1e-3, 5e-3, 1e-2, 1.0])
    c, m = scotch_yoke(True, t), scotch_yoke(False, t)
    for k, tk in enumerate(t):
        print(f"scotch yoke at t = {tk:g} s: speed coupled {c.y[1][k]:.12g}, common mistake {m.y[1][k]:.12g} rad/s "
              f"({m.y[1][k] / c.y[1][k] - 1:+.4%}); angle {c.y[0][k]:.12g}, {m.y[0][k]:.12g} rad "
              f"({m.y[0][k] / c.y[0][k] - 1:+.4%})")
    print(f"  supplied work over 1 s: coupled (v i) {c.y[3][-1]:.12g} J, common mistake (imposed torque) {m.y[3][-1]:.12g} J")

    s = crane()
    x, th, xd, thd, i, work = s.y
    k = np.argmax(i)
    peak = minimize_scalar(lambda tt: -s.sol(tt)[4], bounds=(0.001, 0.006), method="bounded",
                           options={"xatol": 1e-12})
    print(f"overhead crane: largest sampled current {i[k]:.12g} A at t = {s.t[k]:g} s; "
          f"true peak {-peak.fun:.12g} A at {peak.x * 1e3:.6g} ms")
    print(f"  final (5 s): x_dot {xd[-1]:.12g} m/s, current {i[-1]:.12g} A, theta between {np.min(th):.12g} and {np.max(th):.12g} rad (sampled every 5 ms); "
          f"source work (Kt - Ke) i n x' {work[-1]:.12g} J")


if __name__ == "__main__":
    main()
