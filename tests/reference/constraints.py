#!/usr/bin/python3
"""Expected values of the constraint, statics and rigid-body examples
(prm/lumped/knife_edge.prm, rolling_disk_no_slip*.prm,
motion_amplification_*.prm, pendulum_with_spring_rigid_body.prm), from
closed forms checked here with SymPy, independent of Hamilton.

* knife edge on a slope (x downhill, c = g sin(alpha), theta = omega t):
  x = c/(2 w^2) sin^2(w t), y = c/(2 w) (t - sin(2 w t)/(2 w)),
  lambda = 2 m c sin(w t); checked against the equations
  m x'' - m c + lambda sin(theta) = 0, m y'' - lambda cos(theta) = 0 and
  the constraint x' sin(theta) - y' cos(theta) = 0.
* rolling disk, holonomic form: (m + J/R^2) x'' + b/R^2 x' + k x = M/R:
  eigenvalues -s +- i wd.
* motion amplification (Preumont 2006 section 1.4): tan(theta) = 5 f/(2 w),
  K = 5 a f sin + 2 a w cos; in redundant coordinates the reactions
  (f, w) and K/(1 + (5a cos)^2 + (2a sin)^2).
* The IDSC lecture's pendulum with spring: w^2 = (c l^2 - m g l/2)/(m l^2/3).

usage: /usr/bin/python3 constraints.py
"""
import mpmath as mp
import sympy as sp

mp.mp.dps = 30


def knife_edge():
    t, m, c, w = sp.symbols("t m c w", positive=True)
    x = c / (2 * w**2) * sp.sin(w * t) ** 2
    y = c / (2 * w) * (t - sp.sin(2 * w * t) / (2 * w))
    lam = 2 * m * c * sp.sin(w * t)
    th = w * t
    residuals = [m * x.diff(t, 2) - m * c + lam * sp.sin(th), m * y.diff(t, 2) - lam * sp.cos(th),
                 x.diff(t) * sp.sin(th) - y.diff(t) * sp.cos(th)]
    assert all(sp.simplify(sp.expand_trig(r)) == 0 for r in residuals), residuals
    values = {m: 2, c: sp.Float("9.81", 30) * sp.sin(sp.Float("0.3", 30)), w: sp.pi}
    for time in ["0.75", "1.6"]:
        at = dict(values)
        at[t] = sp.Float(time, 30)
        print(f"knife_edge: t = {time} s: x = {sp.N(x.subs(at), 17)}, y = {sp.N(y.subs(at), 17)}, "
              f"lambda_1 = {sp.N(lam.subs(at), 17)}, speed = {sp.N((c / w * sp.sin(w * t)).subs(at), 17)}")


def rolling_disk():
    m, R, k, b = mp.mpf("1.5"), mp.mpf("0.1"), mp.mpf(600), mp.mpf("0.002")
    J = m * R**2 / 2
    M = m + J / R**2
    s = b / R**2 / (2 * M)
    print(f"rolling_disk_no_slip_holonomic: eigenvalues {mp.nstr(-s, 17)} +- {mp.nstr(mp.sqrt(k / M - s**2), 17)} i "
          f"(undamped sqrt(k/(m + J/R^2)) = {mp.nstr(mp.sqrt(k / M), 10)} rad/s)")


def motion_amplification():
    a, f, w = mp.mpf("0.1"), mp.mpf(30), mp.mpf(100)
    theta = mp.atan(5 * f / (2 * w))
    assert abs(f - mp.mpf(2) / 5 * w * mp.tan(theta)) < mp.mpf("1e-25")
    K = 5 * a * f * mp.sin(theta) + 2 * a * w * mp.cos(theta)
    reduced = K / (1 + (5 * a * mp.cos(theta)) ** 2 + (2 * a * mp.sin(theta)) ** 2)
    print(f"motion_amplification: theta = {mp.nstr(theta, 17)} rad, K = {mp.nstr(K, 17)} N m/rad; "
          f"redundant: x = {mp.nstr(5 * a * mp.sin(theta), 17)}, y = {mp.nstr(2 * a * mp.cos(theta), 17)}, "
          f"lambda = ({f}, {w}), reduced K = {mp.nstr(reduced, 17)}")


def pendulum_with_spring():
    m, l, g, c = mp.mpf(1), mp.mpf("0.5"), mp.mpf("9.81"), mp.mpf(100)
    print(f"pendulum_with_spring: w = {mp.nstr(mp.sqrt((c * l**2 - m * g * l / 2) / (m * l**2 / 3)), 17)} rad/s")


if __name__ == "__main__":
    knife_edge()
    rolling_disk()
    motion_amplification()
    pendulum_with_spring()
